package rules

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/internal/regokit"
)

// TestRegoUnitTests runs the *_test.rego files next to the default rules.
func TestRegoUnitTests(t *testing.T) {
	modules, err := defaultTestModules()
	if err != nil {
		t.Fatal(err)
	}
	results, err := runRegoTests(context.Background(), modules)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatal("no Rego tests ran")
	}
	for _, r := range results {
		t.Run(r.Package+"/"+r.Name, func(t *testing.T) {
			if r.Status != regokit.TestPass {
				t.Errorf("%s:%d: %s %s: %s", r.File, r.Line, r.Name, r.Status, r.Message)
			}
		})
	}
}

func TestRunTestsTeamRules(t *testing.T) {
	fsys := fstest.MapFS{
		"keep.rego": {Data: []byte(`package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, inst in input.instances
	inst.type == "db"
}
`)},
		"keep_test.rego": {Data: []byte(`package acme_test

import data.tenet.decide

inst(type) := {"address": "x", "type": type, "mode": "managed", "deposed": "", "has_config": false, "has_prior": true,
	"removed": null, "lifecycle": {"prevent_destroy": false, "create_before_destroy": false},
	"orphan": {"resource_in_config": false, "moved": false}}

test_db_is_kept if {
	errs := decide.errors with input as {"run": {"mode": "normal"}, "instances": [inst("db")]}
	count(errs) == 1
}

test_other_is_not_kept if {
	errs := decide.errors with input as {"run": {"mode": "normal"}, "instances": [inst("vm")]}
	count(errs) == 1
}
`)},
	}
	results, diags := RunTests(context.Background(), []Source{{Name: "team", FS: fsys}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got := map[string]bool{}
	for _, r := range results {
		if strings.HasPrefix(r.File, "team/") {
			got[r.Name] = r.Status == regokit.TestPass
		}
	}
	want := map[string]bool{"test_db_is_kept": true, "test_other_is_not_kept": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("test results (-want +got):\n%s", diff)
	}
}

// TestRunTestsEmptyRuleFile: an empty team file is the author's mistake,
// reported as an invalid rule file with its name (it was once reported
// as a bug in tenet, since OPA gives that one error on its own).
func TestRunTestsEmptyRuleFile(t *testing.T) {
	fsys := fstest.MapFS{"empty.rego": {Data: []byte("# nothing yet\n")}}
	_, diags := RunTests(context.Background(), []Source{{Name: "team", FS: fsys}})
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary+": "+d.Detail)
	}
	want := []string{"Invalid rule file: team/empty.rego:0: rego_parse_error: empty module."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
