package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/engine"
)

func TestReplaceTriggeredBy(t *testing.T) {
	tests := []struct {
		name     string
		before   string // terraform_data.a in the first run
		after    string // terraform_data.a in the second run
		watchers string // the resources that watch it, in both runs
		want     []string
	}{
		{
			name: "each.key picks the instance it watches",
			before: `
resource "terraform_data" "a" {
  for_each = { x = "1", y = "1" }
  input    = each.value
}`,
			after: `
resource "terraform_data" "a" {
  for_each = { x = "1", y = "2" }
  input    = each.value
}`,
			watchers: `
resource "terraform_data" "b" {
  for_each = toset(["x", "y"])
  input    = each.key
  lifecycle { replace_triggered_by = [terraform_data.a[each.key]] }
}`,
			want: []string{
				`terraform_data.a["x"]: NoOp`,
				`terraform_data.a["y"]: Update`,
				`terraform_data.b["x"]: NoOp`,
				`terraform_data.b["y"]: DeleteThenCreate (replace_by_triggers)`,
			},
		},
		{
			name:   "an attribute that changes fires",
			before: `resource "terraform_data" "a" { input = "v1" }`,
			after:  `resource "terraform_data" "a" { input = "v2" }`,
			watchers: `
resource "terraform_data" "b" {
  input = "b"
  lifecycle { replace_triggered_by = [terraform_data.a.output] }
}`,
			want: []string{"terraform_data.a: Update", "terraform_data.b: DeleteThenCreate (replace_by_triggers)"},
		},
		{
			name: "an attribute that stays does not fire although the object is updated",
			before: `
resource "terraform_data" "a" {
  input            = "v1"
  triggers_replace = "t"
}`,
			after: `
resource "terraform_data" "a" {
  input            = "v2"
  triggers_replace = "t"
}`,
			watchers: `
resource "terraform_data" "b" {
  input = "b"
  lifecycle { replace_triggered_by = [terraform_data.a.triggers_replace] }
}`,
			want: []string{"terraform_data.a: Update", "terraform_data.b: NoOp"},
		},
		{
			name: "count.index and a whole resource",
			before: `
resource "terraform_data" "a" {
  count = 2
  input = "v1"
}`,
			after: `
resource "terraform_data" "a" {
  count = 2
  input = count.index == 0 ? "v1" : "v2"
}`,
			watchers: `
resource "terraform_data" "b" {
  count = 2
  input = "b"
  lifecycle { replace_triggered_by = [terraform_data.a[count.index].input] }
}
resource "terraform_data" "c" {
  input = "c"
  lifecycle { replace_triggered_by = [terraform_data.a] }
}`,
			want: []string{
				"terraform_data.a[0]: NoOp",
				"terraform_data.a[1]: Update",
				"terraform_data.b[0]: NoOp",
				"terraform_data.b[1]: DeleteThenCreate (replace_by_triggers)",
				"terraform_data.c: DeleteThenCreate (replace_by_triggers)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newDataRun(t)
			r.run(tt.before+"\n"+tt.watchers, engine.PlanOpts{})
			p, _ := r.run(tt.after+"\n"+tt.watchers, engine.PlanOpts{})
			if diff := cmp.Diff(tt.want, actions(p)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReplaceTriggeredByErrors(t *testing.T) {
	tests := []struct {
		name        string
		watched     string // terraform_data.a, applied first and kept
		watcher     string // added in the second run
		wantErr     string
		errFragment string
	}{
		{
			name:    "count.index in a resource without count",
			watched: `resource "terraform_data" "a" { input = "v1" }`,
			watcher: `
resource "terraform_data" "b" {
  input = "b"
  lifecycle { replace_triggered_by = [terraform_data.a[count.index]] }
}`,
			wantErr: `Reference to "count" in non-counted context`,
		},
		{
			name: "a reference to an instance that has no change",
			watched: `
resource "terraform_data" "a" {
  count = 1
  input = "v1"
}`,
			watcher: `
resource "terraform_data" "b" {
  input = "b"
  lifecycle { replace_triggered_by = [terraform_data.a[3]] }
}`,
			wantErr:     "Invalid replace_triggered_by reference",
			errFragment: "terraform_data.a[3]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newDataRun(t)
			r.run(tt.watched, engine.PlanOpts{})
			_, _, diags := r.plan(tt.watched+"\n"+tt.watcher, engine.PlanOpts{})
			errs := summaries(diags, hcl.DiagError)
			if diff := cmp.Diff([]string{tt.wantErr}, errs); diff != "" {
				t.Fatalf("errors (-want +got):\n%s", diff)
			}
			if !strings.Contains(diags.Error(), tt.errFragment) {
				t.Errorf("error %q lacks %q", diags.Error(), tt.errFragment)
			}
			if diags[0].Subject == nil {
				t.Errorf("error has no source range")
			}
		})
	}
}

func TestIgnoreChangesPlans(t *testing.T) {
	tests := []struct {
		name   string
		before string
		after  string
		want   []string
		input  string // planned input of terraform_data.a, as Go-syntax cty
	}{
		{
			name:   "an ignored attribute keeps its value",
			before: ignoringData("v1", "", "[input]"),
			after:  ignoringData("v2", "", "[input]"),
			want:   []string{"terraform_data.a: NoOp"},
			input:  `cty.StringVal("v1")`,
		},
		{
			name:   "an ignored replacement trigger leaves an in-place update",
			before: ignoringData("v1", "t1", "[triggers_replace]"),
			after:  ignoringData("v2", "t2", "[triggers_replace]"),
			want:   []string{"terraform_data.a: Update"},
			input:  `cty.StringVal("v2")`,
		},
		{
			name:   "all ignores everything",
			before: ignoringData("v1", "t1", "all"),
			after:  ignoringData("v2", "t2", "all"),
			want:   []string{"terraform_data.a: NoOp"},
			input:  `cty.StringVal("v1")`,
		},
		{
			name:   "a replacement gets the real configuration",
			before: ignoringData("v1", "", "[input]"),
			after:  ignoringData("v2", "now", "[input]"),
			want:   []string{"terraform_data.a: DeleteThenCreate (replace_because_cannot_update)"},
			input:  `cty.StringVal("v2")`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newDataRun(t)
			r.run(tt.before, engine.PlanOpts{})
			p, _ := r.run(tt.after, engine.PlanOpts{})
			if diff := cmp.Diff(tt.want, actions(p)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			got := p.Changes[0].After.GetAttr("input").GoString()
			if got != tt.input {
				t.Errorf("planned input = %s, want %s", got, tt.input)
			}
		})
	}
}

func TestIgnoreChangesRedundantElement(t *testing.T) {
	r := newDataRun(t)
	_, _, diags := r.plan(`resource "terraform_data" "a" {
  input = "v1"
  lifecycle { ignore_changes = [id, input] }
}`, engine.PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if diff := cmp.Diff([]string{"Redundant ignore_changes element"}, summaries(diags, hcl.DiagWarning)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// ignoringData is terraform_data.a with the given input, triggers_replace
// (left out when "") and ignore_changes, so that a case's two runs show
// only what changes between them.
func ignoringData(input, triggersReplace, ignoreChanges string) string {
	trigger := ""
	if triggersReplace != "" {
		trigger = fmt.Sprintf("  triggers_replace = %q\n", triggersReplace)
	}
	return fmt.Sprintf("resource \"terraform_data\" \"a\" {\n  input = %q\n%s  lifecycle { ignore_changes = %s }\n}", input, trigger, ignoreChanges)
}
