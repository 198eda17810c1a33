package engine_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"

	"github.com/tenetplan/tenet/engine/plan/planfile"
)

const secretText = "s3cr3t-hunter2"

func secretVar() map[string]config.VariableValue {
	return map[string]config.VariableValue{"secret": {Value: cty.StringVal(secretText), SourceType: "cli"}}
}

func pathStrings(paths []cty.Path) []string {
	var out []string
	for _, p := range paths {
		var b strings.Builder
		for _, step := range p {
			if s, ok := step.(cty.GetAttrStep); ok {
				b.WriteString("." + s.Name)
			} else {
				b.WriteString("[]")
			}
		}
		out = append(out, b.String())
	}
	return out
}

// Sensitive variables and schema attributes are recorded as sensitive
// paths of the planned change, wherever they end up in the object.
func TestSensitivePlannedPaths(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		// The schema's sensitive attribute is always listed, set or not.
		{"sensitive variable into an argument", `name = var.secret`, []string{".name", ".secret"}},
		{"inside a map", `
  name = "a"
  tags = { pass = var.secret, user = "admin" }`, []string{".tags[]", ".secret"}},
		{"schema sensitive attribute", `
  name   = "a"
  secret = "plain in config"`, []string{".secret"}},
		{"nonsensitive() removes the mark", `name = nonsensitive(var.secret)`, []string{".secret"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, newFake(), `
variable "secret" {
  type      = string
  sensitive = true
}
resource "test_thing" "a" {
  `+tt.body+`
}
`)
			p := h.mustPlan(engine.PlanOpts{Variables: secretVar()})
			c := changeOf(t, p, "test_thing.a")
			if diff := cmp.Diff(tt.want, pathStrings(c.AfterSensitivePaths)); diff != "" {
				t.Errorf("after sensitive paths (-want +got):\n%s", diff)
			}
		})
	}
}

// A plan with a sensitive root variable can be saved and read back, and
// applying the saved plan keeps the value sensitive in state.
func TestSensitiveVariableSavedPlan(t *testing.T) {
	h := newHarness(t, newFake(), `
variable "secret" {
  type      = string
  sensitive = true
}
resource "test_thing" "a" {
  name = var.secret
}
`)
	p := h.mustPlan(engine.PlanOpts{Variables: secretVar()})
	file := filepath.Join(t.TempDir(), "p.bin")
	if err := planfile.WriteFile(file, p); err != nil {
		t.Fatalf("saving a plan with a sensitive variable: %v", err)
	}
	back, err := planfile.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Variables["secret"]; !got.RawEquals(cty.StringVal(secretText)) {
		t.Errorf("variable read back = %#v", got)
	}
	h.mustApply(back)
	_, obj := h.current("test_thing.a")
	if diff := cmp.Diff([]string{".name", ".secret"}, pathStrings(obj.SensitivePaths)); diff != "" {
		t.Errorf("state sensitive paths (-want +got):\n%s", diff)
	}
}

// Diagnostics never quote a sensitive value.
func TestSensitiveValueNotInDiagnostics(t *testing.T) {
	tests := []struct {
		name, config string
		summary      string
	}{
		{"validation error_message interpolating the value", `
variable "secret" {
  type      = string
  sensitive = true
  validation {
    condition     = length(var.secret) > 100
    error_message = "The secret ${var.secret} is too short."
  }
}
`, "Invalid value for variable"},
		{"output without sensitive = true", `
variable "secret" {
  type      = string
  sensitive = true
}
output "o" {
  value = var.secret
}
`, "Output refers to sensitive values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, newFake(), tt.config)
			_, diags := h.plan(engine.PlanOpts{Variables: secretVar()})
			if !diags.HasErrors() {
				t.Fatal("plan succeeded, want an error")
			}
			found := false
			for _, d := range diags {
				if d.Summary == tt.summary {
					found = true
				}
				if strings.Contains(d.Summary+d.Detail, secretText) {
					t.Errorf("diagnostic %q shows the secret: %s", d.Summary, d.Detail)
				}
			}
			if !found {
				t.Errorf("no %q diagnostic in %s", tt.summary, diags.Error())
			}
		})
	}
}
