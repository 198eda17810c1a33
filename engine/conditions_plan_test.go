package engine_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
)

// Conditions are checked where OpenTofu checks them: preconditions before
// planning an instance, postconditions after planning it (or at apply when
// they need values only the apply knows), output preconditions with the
// output, check blocks as warnings.
func TestConditionsPlanAndApply(t *testing.T) {
	// The same failing precondition stops a normal plan and only warns in a
	// refresh-only one.
	const failingPrecondition = `
variable "limit" {
  default = 1
}
resource "test_thing" "a" {
  name = "x"
  lifecycle {
    precondition {
      condition     = var.limit > 2
      error_message = "never."
    }
  }
}`
	cases := []struct {
		name      string
		config    string
		mode      plan.Mode
		wantPlan  []string // "severity: summary", sorted
		wantApply []string // nil when the plan fails
		wantState bool     // test_thing.a exists after apply
	}{
		{
			name:     "failing precondition stops the plan",
			config:   failingPrecondition,
			wantPlan: []string{"error: Resource precondition failed"},
		},
		{
			name: "postcondition on an unknown id waits for apply and fails there",
			config: `
resource "test_thing" "a" {
  name = "x"
  lifecycle {
    postcondition {
      condition     = self.id == "not-this"
      error_message = "id is ${self.id}."
    }
  }
}`,
			wantPlan:  nil,
			wantApply: []string{"error: Resource postcondition failed"},
			wantState: true,
		},
		{
			name: "postcondition on a known value fails the plan",
			config: `
resource "test_thing" "a" {
  name = "x"
  lifecycle {
    postcondition {
      condition     = self.name == "y"
      error_message = "name is ${self.name}."
    }
  }
}`,
			wantPlan: []string{"error: Resource postcondition failed"},
		},
		{
			name: "output precondition",
			config: `
resource "test_thing" "a" {
  name = "x"
}
output "o" {
  value = test_thing.a.name
  precondition {
    condition     = test_thing.a.name == "y"
    error_message = "not y."
  }
}`,
			wantPlan: []string{"error: Module output value precondition failed"},
		},
		{
			name: "check assertion only warns",
			config: `
resource "test_thing" "a" {
  name = "x"
}
check "named" {
  assert {
    condition     = test_thing.a.name == "y"
    error_message = "not y."
  }
}`,
			wantPlan:  []string{"warning: Check block assertion failed"},
			wantApply: []string{"warning: Check block assertion failed"},
			wantState: true,
		},
		{
			name:      "refresh-only plans only warn",
			mode:      plan.RefreshOnlyMode,
			config:    failingPrecondition,
			wantPlan:  []string{"warning: Resource precondition failed"},
			wantApply: []string{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, newFake(), tc.config)
			p, diags := h.plan(engine.PlanOpts{Mode: tc.mode})
			if diff := cmp.Diff(tc.wantPlan, diagSummaries(diags)); diff != "" {
				t.Fatalf("plan diagnostics (-want +got):\n%s", diff)
			}
			if tc.wantApply == nil {
				if !diags.HasErrors() {
					t.Fatal("plan succeeded, want it to fail")
				}
				return
			}
			diags = h.apply(p, nil)
			if diff := cmp.Diff(tc.wantApply, diagSummaries(diags), cmpNilEmpty); diff != "" {
				t.Errorf("apply diagnostics (-want +got):\n%s", diff)
			}
			if got, _ := h.current("test_thing.a"); (got != cty.NilVal) != tc.wantState {
				t.Errorf("test_thing.a in state: %v, want %v", got != cty.NilVal, tc.wantState)
			}
		})
	}
}

func diagSummaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		out = append(out, sev+": "+d.Summary)
	}
	sort.Strings(out)
	return out
}

var cmpNilEmpty = cmp.Comparer(func(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") })
