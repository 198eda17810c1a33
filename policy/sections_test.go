package policy

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// inputFixtures are policy sets that read the input in every way the
// section analysis must see: members by name, whole, by a variable key,
// through imports, functions and `with`.
var inputFixtures = map[string]struct {
	files map[string]string
	keys  []string
	all   bool
}{
	"examples": {keys: []string{"resource_changes"}},
	"members by name and by string key": {files: map[string]string{"p.rego": `package p

deny contains "many" if count(input.resource_changes) > 3
deny_prior contains "prior" if input["prior_state"].values.root_module
warn contains sprintf("%v", [v]) if { some v in input.variables }
`}, keys: []string{"configuration", "prior_state", "resource_changes", "variables"}}, // configuration: which variables are sensitive (redact.go)
	"import": {files: map[string]string{"p.rego": `package p

import input.planned_values as pv

deny contains "planned" if pv.root_module.resources
`}, keys: []string{"planned_values"}},
	"input whole to a function": {files: map[string]string{"p.rego": `package p

deny contains "big" if count(object.keys(input)) > 5
`}, all: true},
	"variable key": {files: map[string]string{"p.rego": `package p

deny contains k if { some k; input[k]; startswith(k, "prior") }
`}, all: true},
	"helper function with input": {files: map[string]string{"p.rego": `package p

keys(x) := {k | some k, _ in x}

deny contains k if { some k in keys(input); k == "configuration" }
`}, all: true},
	"input replaced with `with`": {files: map[string]string{"p.rego": `package p

inner contains rc.address if { some rc in input.resource_changes }

deny contains a if { some a in inner with input as {"resource_changes": [{"address": "x"}]} }
`}, all: true},
	"input in a comprehension and a walk": {files: map[string]string{"p.rego": `package p

deny contains "timestamp" if { [p | walk(input, [p, _])]; input.timestamp }
`}, all: true},
	"no input at all": {files: map[string]string{"p.rego": `package p

deny contains "always" if true
`}, keys: nil},
}

func loadFixture(t *testing.T, name string) *Set {
	t.Helper()
	return loadPolicyFiles(t, inputFixtures[name].files)
}

// loadPolicyFiles loads files as a policy set, or the example policies
// when files is nil.
func loadPolicyFiles(t *testing.T, files map[string]string) *Set {
	t.Helper()
	path := "../examples/policies"
	if files != nil {
		path = writeFiles(t, files)
	}
	s, diags := Load(context.Background(), Options{Paths: []string{path}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return s
}

func TestInputSections(t *testing.T) {
	for name, fx := range inputFixtures {
		t.Run(name, func(t *testing.T) {
			keys, all := loadFixture(t, name).InputSections()
			if all != fx.all || !cmp.Equal(keys, fx.keys) {
				t.Errorf("sections %v all=%v, want %v all=%v", keys, all, fx.keys, fx.all)
			}
		})
	}
}

// TestPruningKeepsReports checks every fixture set over every plan with
// and without leaving out the members the set cannot read.
func TestPruningKeepsReports(t *testing.T) {
	var plans [][]byte
	plans = append(plans, recordedPlans(t)...)
	plans = append(plans, generatedPlan(200), []byte(`{"variables":{"a":{"value":1}},"configuration":{}}`))
	ctx := context.Background()
	for name := range inputFixtures {
		t.Run(name, func(t *testing.T) {
			s := loadFixture(t, name)
			failed := 0
			for i, plan := range plans {
				want, wantErr := s.check(ctx, plan, nil)
				got, err := s.Check(ctx, plan)
				if (err != nil) != (wantErr != nil) {
					t.Fatalf("plan %d: error %v, unpruned %v", i, err, wantErr)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("plan %d: report changed by pruning (-unpruned +pruned):\n%s", i, diff)
				}
				if want != nil && want.Blocked() {
					failed++
				}
			}
			t.Logf("%d of %d plans blocked", failed, len(plans))
		})
	}
}
