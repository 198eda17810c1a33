package engine_test

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// setFiles loads a configuration of several files (modules included).
func (h *harness) setFiles(files map[string]string) {
	h.t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	cfg, diags := config.Load(fsys, ".")
	if diags.HasErrors() {
		h.t.Fatalf("loading configuration: %s", diags.Error())
	}
	h.cfg = cfg
	h.eng.FS = fsys
}

// summary renders a plan's changes as "addr action [<- previous]".
func summary(p *plan.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		s := c.Addr.String() + " " + c.Action.String()
		if c.Moved() {
			s += " <- " + c.PrevRunAddr.String()
		}
		out = append(out, s)
	}
	return out
}

// moved is a moved block from one address to another, four lines long so
// that a case can count the line a diagnostic points at.
func moved(from, to string) string {
	return "moved {\n  from = " + from + "\n  to   = " + to + "\n}\n"
}

func warningSummaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			out = append(out, d.Summary)
		}
	}
	return out
}

func TestMovesRebindStateBeforePlanning(t *testing.T) {
	tests := []struct {
		name     string
		first    map[string]string
		second   map[string]string
		want     []string
		warnings []string
	}{
		{
			name:  "chain collapses to the original address",
			first: map[string]string{"main.tf": `resource "test_thing" "a" { name = "x" }`},
			second: map[string]string{"main.tf": `
resource "test_thing" "c" { name = "x" }
` + moved("test_thing.b", "test_thing.c") + moved("test_thing.a", "test_thing.b")},
			want: []string{"test_thing.c NoOp <- test_thing.a"},
		},
		{
			name:  "implied move when count is added",
			first: map[string]string{"main.tf": `resource "test_thing" "a" { name = "x" }`},
			second: map[string]string{"main.tf": `
resource "test_thing" "a" {
  count = 2
  name  = "x"
}`},
			want: []string{"test_thing.a[0] NoOp <- test_thing.a", "test_thing.a[1] Create"},
		},
		{
			name:  "blocked move leaves the object and warns",
			first: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }` + "\n" + `resource "test_thing" "b" { name = "b" }`},
			second: map[string]string{"main.tf": `
resource "test_thing" "b" { name = "b" }
` + moved("test_thing.a", "test_thing.b")},
			want:     []string{"test_thing.a Delete", "test_thing.b NoOp"},
			warnings: []string{"Unresolved resource instance address changes"},
		},
		{
			name: "module instance re-keyed",
			first: map[string]string{
				"main.tf": `
module "m" {
  source = "./mod"
  count  = 1
}`,
				"mod/main.tf": `resource "test_thing" "a" { name = "m" }`,
			},
			second: map[string]string{
				"main.tf": `
module "m" {
  source   = "./mod"
  for_each = toset(["k"])
}
` + moved("module.m[0]", `module.m["k"]`),
				"mod/main.tf": `resource "test_thing" "a" { name = "m" }`,
			},
			want: []string{`module.m["k"].test_thing.a NoOp <- module.m[0].test_thing.a`},
		},
		{
			name:  "into a module",
			first: map[string]string{"main.tf": `resource "test_thing" "a" { name = "m" }`},
			second: map[string]string{
				"main.tf": `
module "m" { source = "./mod" }
` + moved("test_thing.a", "module.m.test_thing.a"),
				"mod/main.tf": `resource "test_thing" "a" { name = "m" }`,
			},
			want: []string{"module.m.test_thing.a NoOp <- test_thing.a"},
		},
		{
			name:  "removed block forgets",
			first: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`},
			second: map[string]string{"main.tf": `
removed {
  from = test_thing.a
  lifecycle {
    destroy = false
  }
}`},
			want:     []string{"test_thing.a Forget"},
			warnings: []string{"Resource going to be removed from the state"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, newFake(), "")
			h.setFiles(tt.first)
			h.mustApply(h.mustPlan(engine.PlanOpts{}))
			h.setFiles(tt.second)
			p, diags := h.plan(engine.PlanOpts{})
			if diags.HasErrors() {
				t.Fatalf("plan failed: %s", diagText(diags))
			}
			if diff := cmp.Diff(tt.want, summary(p)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, warningSummaries(diags)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if !p.CanApply() {
				t.Errorf("plan with moves is not applyable")
			}
			h.mustApply(p)
			again := h.mustPlan(engine.PlanOpts{})
			for _, c := range again.Changes {
				if c.Action != action.NoOp || c.Moved() {
					t.Errorf("second plan after apply still has %s %s", c.Addr, c.Action)
				}
			}
		})
	}
}

func TestMoveValidationErrorsReplaceOtherDiagnostics(t *testing.T) {
	tests := []struct {
		name     string
		second   string
		summary  string
		wantLine int // line of the moved block reported
	}{
		{
			name: "from still declared",
			second: `resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }
` + moved("test_thing.a", "test_thing.b"),
			summary:  "Moved object still exists",
			wantLine: 3,
		},
		{
			name: "cycle",
			second: `resource "test_thing" "other" { name = "o" }
` + moved("test_thing.a", "test_thing.b") + moved("test_thing.b", "test_thing.a"),
			summary:  "Cyclic dependency in move statements",
			wantLine: 2,
		},
		{
			name: "ambiguous",
			second: `resource "test_thing" "b" { name = "b" }
resource "test_thing" "c" { name = "c" }
` + moved("test_thing.a", "test_thing.b") + moved("test_thing.a", "test_thing.c"),
			summary:  "Ambiguous move statements",
			wantLine: 7,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, newFake(), `resource "test_thing" "a" { name = "a" }`)
			h.mustApply(h.mustPlan(engine.PlanOpts{}))
			h.setConfig(tt.second)
			p, diags := h.plan(engine.PlanOpts{})
			if len(diags) != 1 || diags[0].Summary != tt.summary {
				t.Fatalf("want only %q; got:\n%s", tt.summary, diagText(diags))
			}
			if d := diags[0]; d.Subject == nil || d.Subject.Start.Line != tt.wantLine {
				t.Errorf("error subject %v, want line %d", d.Subject, tt.wantLine)
			}
			if p != nil && !p.Errored {
				t.Errorf("plan not marked errored")
			}
		})
	}
}
