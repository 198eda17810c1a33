package human

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/tools/txtar"

	"github.com/tenetplan/tenet/cli/views"
)

// TestShowSensitiveOff renders the -show-sensitive golden's plan without
// the option: every sensitive value is hidden again, and the lines that do
// not depend on the option are the same.
func TestShowSensitiveOff(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/plan-show-sensitive.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var planJSON []byte
	for _, f := range ar.Files {
		if f.Name == "plan.json" {
			planJSON = f.Data
		}
	}
	var buf bytes.Buffer
	if err := RenderPlan(&buf, planJSON, builtinSchemas, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		`      ~ password = (sensitive value)`,
		`      ~ ports    = [` + "\n" + `            1,` + "\n" + `          - (sensitive value),` + "\n" + `          + (sensitive value),`,
		`            # Warning: this value becomes sensitive with this change and will be hidden in later output.` + "\n" + `          ~ b = (sensitive value)`,
		`            # (this block holds sensitive values, so its contents are not shown)`,
		`      ~ script = (sensitive value)`,
		`      - password = (sensitive value) -> null`,
		`      - tags     = (sensitive value) -> null`,
		`  + fresh  = (sensitive value)`,
		`  ~ secret = (sensitive value)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendering lacks %q:\n%s", want, got)
		}
	}
	for _, secret := range []string{`"old"`, `"new"`, `"pw"`, `"same"`, `"y"`, `"a"`} {
		if strings.Contains(got, secret) {
			t.Errorf("rendering shows the sensitive %s:\n%s", secret, got)
		}
	}
}

func TestOutputsShowSensitive(t *testing.T) {
	outputs := map[string]views.OutputValue{
		"name":   {Value: cty.StringVal("web")},
		"secret": {Value: cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v")}), Sensitive: true},
	}
	for _, tc := range []struct {
		name  string
		show  bool
		write func(*bytes.Buffer, bool) error
		want  string
	}{
		{"output", false, func(b *bytes.Buffer, show bool) error { return WriteOutputs(b, outputs, show) },
			"name = \"web\"\nsecret = <sensitive>\n"},
		{"output", true, func(b *bytes.Buffer, show bool) error { return WriteOutputs(b, outputs, show) },
			"name = \"web\"\nsecret = {\n  \"k\" = \"v\"\n}\n"},
		{"apply", true, func(b *bytes.Buffer, show bool) error { return WriteApplyOutputs(b, outputs, false, show) },
			"\nOutputs:\n\nname = \"web\"\nsecret = {\n  \"k\" = \"v\"\n}\n"},
		{"state", false, func(b *bytes.Buffer, show bool) error { return WriteStateOutputs(b, outputs, show) },
			"name = \"web\"\nsecret = (sensitive value)\n"},
		{"state", true, func(b *bytes.Buffer, show bool) error { return WriteStateOutputs(b, outputs, show) },
			"name = \"web\"\nsecret = {\n    k = \"v\"\n}\n"},
	} {
		var buf bytes.Buffer
		if err := tc.write(&buf, tc.show); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, buf.String()); diff != "" {
			t.Errorf("%s, show-sensitive %v (-want +got):\n%s", tc.name, tc.show, diff)
		}
	}
}

func TestRenderStateObjectShowSensitive(t *testing.T) {
	attrs := []byte(`{"id":"x1","input":{"k":"v"},"output":{"k":"v"},"triggers_replace":null}`)
	sens := []byte(`{"input":true,"output":{"k":true}}`)
	for _, tc := range []struct {
		show bool
		want string
	}{
		{false, `resource "terraform_data" "a" {
    id     = "x1"
    input  = (sensitive value)
    output = {
        k = (sensitive value)
    }
}
`},
		{true, `resource "terraform_data" "a" {
    id     = "x1"
    input  = {
        k = "v"
    }
    output = {
        k = "v"
    }
}
`},
	} {
		var buf bytes.Buffer
		if err := RenderStateObject(&buf, builtinSchemas, "terraform.io/builtin/terraform", "managed", "terraform_data", "a", attrs, sens, tc.show); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, buf.String()); diff != "" {
			t.Errorf("show-sensitive %v (-want +got):\n%s", tc.show, diff)
		}
	}
}
