package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCarryOverride(t *testing.T) {
	result := func(name string, level Level, st Status) Result {
		return Result{Policy: Policy{Name: name, File: "p.rego", Line: 3, Level: level}, Status: st}
	}
	tests := []struct {
		name       string
		results    []Result
		prev       *Override
		wantStatus []Status
		wantNames  []string // the override's policies; nil: no override
	}{
		{
			"the same soft-mandatory policy",
			[]Result{result("a", SoftMandatory, StatusFail)},
			&Override{Reason: "r", Policies: []string{"a (p.rego:3)"}},
			[]Status{StatusOverridden}, []string{"a (p.rego:3)"},
		},
		{
			"a policy the override did not name",
			[]Result{result("a", SoftMandatory, StatusFail), result("b", SoftMandatory, StatusFail)},
			&Override{Reason: "r", Policies: []string{"a (p.rego:3)"}},
			[]Status{StatusOverridden, StatusFail}, []string{"a (p.rego:3)"},
		},
		{
			"now hard-mandatory",
			[]Result{result("a", HardMandatory, StatusFail)},
			&Override{Reason: "r", Policies: []string{"a (p.rego:3)"}},
			[]Status{StatusFail}, nil,
		},
		{
			"an error",
			[]Result{result("a", SoftMandatory, StatusError)},
			&Override{Reason: "r", Policies: []string{"a (p.rego:3)"}},
			[]Status{StatusError}, nil,
		},
		{
			"no override",
			[]Result{result("a", SoftMandatory, StatusFail)},
			nil,
			[]Status{StatusFail}, nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Results: tt.results}
			r.CarryOverride(tt.prev)
			var got []Status
			for _, res := range r.Results {
				got = append(got, res.Status)
			}
			if diff := cmp.Diff(tt.wantStatus, got); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
			var names []string
			if r.Override != nil {
				names = r.Override.Policies
				if r.Override.Reason != tt.prev.Reason {
					t.Errorf("reason %q, want %q", r.Override.Reason, tt.prev.Reason)
				}
			}
			if diff := cmp.Diff(tt.wantNames, names); diff != "" {
				t.Errorf("overridden policies (-want +got):\n%s", diff)
			}
		})
	}
}
