package cli_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/engine/plan/planfile"
)

// A saved plan is judged by the policies present when it is applied,
// never by the report stored in it (issue 16).

const replaceTF = `
variable "v" {
  type    = string
  default = "1"
}
resource "terraform_data" "x" {
  triggers_replace = var.v
}
`

// denyDelete refuses any delete (so any replacement) at the given level.
func denyDelete(level string) string {
	return `package main

# METADATA
# title: No deletes
# custom:
#   enforcement: ` + level + `
deny contains {"msg": sprintf("%s would be deleted", [rc.address]), "address": rc.address} if {
	some rc in input.resource_changes
	"delete" in rc.change.actions
}
`
}

// replaceWorkdir applies replaceTF once (no policies yet) and leaves the
// working directory with the state of that apply.
func replaceWorkdir(t *testing.T) {
	t.Helper()
	policyWorkdir(t, map[string]string{})
	if err := os.WriteFile("main.tf", []byte(replaceTF), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runPolicyTenet(t, "", "apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("first apply: exit %d\n%s%s", code, out, errOut)
	}
}

func stateBytes(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("terraform.tfstate")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// editStoredReport replaces the policy report inside a saved plan file,
// as someone with write access to the file could.
func editStoredReport(t *testing.T, file, report string) {
	t.Helper()
	p, err := planfile.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p.PolicyResults = []byte(report)
	if err := planfile.WriteFile(file, p); err != nil {
		t.Fatal(err)
	}
}

const passingReport = `{"format_version":"1","results":[{"name":"No deletes","package":"main","rule":"deny","kind":"deny","file":".tenet/policy/d.rego","line":7,"level":"hard-mandatory","status":"pass"}],"summary":{"policies":1,"passed":1,"failed":0,"warnings":0,"overridden":0,"errors":0,"blocked":false}}`

func TestApplySavedPlanRechecksPolicies(t *testing.T) {
	tests := []struct {
		name string
		// before runs between the first apply and the plan.
		before func(t *testing.T)
		// between runs between the plan and the apply.
		between   func(t *testing.T)
		planCode  int
		planArgs  []string
		applyArgs []string
		wantCode  int
		wantOut   []string
	}{
		{
			name:     "plan made without policies",
			between:  func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("hard-mandatory")) },
			planCode: 0, wantCode: 3,
			wantOut: []string{"FAIL  No deletes [hard-mandatory]", "- terraform_data.x would be deleted", "the policies present now refuse it"},
		},
		{
			name:     "stored report edited to pass",
			before:   func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("hard-mandatory")) },
			between:  func(t *testing.T) { editStoredReport(t, "p.bin", passingReport) },
			planCode: 3, wantCode: 3,
			wantOut: []string{"FAIL  No deletes [hard-mandatory]"},
		},
		{
			name:     "stored report unreadable",
			before:   func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("hard-mandatory")) },
			between:  func(t *testing.T) { editStoredReport(t, "p.bin", `{"format_version":"0"}`) },
			planCode: 3, wantCode: 3,
			wantOut: []string{"Unreadable policy results in the saved plan", "FAIL  No deletes [hard-mandatory]"},
		},
		{
			name:      "-policy at apply",
			between:   func(t *testing.T) { writeFile(t, "extra/d.rego", denyDelete("hard-mandatory")) },
			planCode:  0,
			applyArgs: []string{"-policy=extra"},
			wantCode:  3,
			wantOut:   []string{"FAIL  No deletes [hard-mandatory] (extra/d.rego:7)"},
		},
		{
			name:      "-policy at apply that cannot be read",
			between:   func(t *testing.T) {},
			planCode:  0,
			applyArgs: []string{"-policy=missing"},
			wantCode:  3,
			wantOut:   []string{"Policy source not found", "missing"},
		},
		{
			name:     "stricter policy at apply",
			before:   func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("advisory")) },
			between:  func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("hard-mandatory")) },
			planCode: 0, wantCode: 3,
			wantOut: []string{"FAIL  No deletes [hard-mandatory]", "the policies present now refuse it"},
		},
		{
			name:     "looser policy at apply",
			before:   func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("hard-mandatory")) },
			between:  func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("advisory")) },
			planCode: 3, wantCode: 0,
			wantOut: []string{"WARN  No deletes [advisory]", "Policy verdict changed since the plan", "Apply complete!"},
		},
		{
			name:     "policies removed at apply",
			before:   func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("hard-mandatory")) },
			between:  func(t *testing.T) { os.RemoveAll(".tenet") },
			planCode: 3, wantCode: 0,
			wantOut: []string{"No policies at apply", "Apply complete!"},
		},
		{
			name:   "plan-time override covers only its policies",
			before: func(t *testing.T) { writeFile(t, ".tenet/policy/d.rego", denyDelete("soft-mandatory")) },
			between: func(t *testing.T) {
				writeFile(t, ".tenet/policy/e.rego", strings.Replace(denyDelete("soft-mandatory"), "No deletes", "Still no deletes", 1))
			},
			planCode: 0, planArgs: []string{"-policy-override=CAB-9"}, wantCode: 3,
			wantOut: []string{"OVERRIDDEN No deletes [soft-mandatory]", "FAIL  Still no deletes [soft-mandatory]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			replaceWorkdir(t)
			if tt.before != nil {
				tt.before(t)
			}
			planArgs := append([]string{"plan", "-no-color", "-var", "v=2", "-out=p.bin"}, tt.planArgs...)
			if code, out, errOut := runPolicyTenet(t, "", planArgs...); code != tt.planCode {
				t.Fatalf("plan: exit %d, want %d\n%s%s", code, tt.planCode, out, errOut)
			}
			tt.between(t)
			before := stateBytes(t)
			args := append(append([]string{"apply", "-no-color"}, tt.applyArgs...), "p.bin")
			code, out, errOut := runPolicyTenet(t, "", args...)
			if code != tt.wantCode {
				t.Fatalf("apply: exit %d, want %d\n%s%s", code, tt.wantCode, out, errOut)
			}
			all := out + errOut
			for _, w := range tt.wantOut {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			if tt.wantCode != 0 {
				if diff := cmp.Diff(string(before), string(stateBytes(t))); diff != "" {
					t.Errorf("a refused apply changed the state (-before +after):\n%s", diff)
				}
			}
		})
	}
}
