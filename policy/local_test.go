package policy

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// localFixtures are policy sets with, by policy name, whether the policy
// is change-local.
var localFixtures = map[string]struct {
	files map[string]string // nil: examples/policies
	local map[string]bool
}{
	"examples": {local: map[string]bool{
		"main.deny": true, "Required tags": true, "No deletes of stateful resources": true,
		"No replacement of protected addresses": false, // glob on the address
		"terraform.blast_radius.warn":           false, // counts every change
		"terraform.blast_radius.violation":      false,
	}},
	"address in a condition": {files: regoV1(`deny contains msg if {
	some rc in input.resource_changes
	startswith(rc.address, "module.")
	msg := rc.address
}`), local: map[string]bool{"p.deny": false}},
	"address only in the message": {files: regoV1(`deny contains {"msg": m, "where": [rc.address]} if {
	some rc in input.resource_changes
	rc.type == "null_resource"
	m := concat(" ", ["bad", rc.address])
}`), local: map[string]bool{"p.deny": true}},
	"message tested": {files: regoV1(`deny contains msg if {
	some rc in input.resource_changes
	msg := sprintf("%s", [rc.address])
	endswith(msg, "]")
}`), local: map[string]bool{"p.deny": false}},
	"message compared by unification": {files: regoV1(`deny contains msg if {
	some rc in input.resource_changes
	want := "terraform_data.r[3]"
	msg := rc.address
	msg = want
}`), local: map[string]bool{"p.deny": false}},
	"position": {files: regoV1(`deny contains i if {
	some i, rc in input.resource_changes
	i > 2
	rc.type == "a"
}`), local: map[string]bool{"p.deny": false}},
	"position after a condition": {files: regoV1(`deny contains i if {
	some i, rc in input.resource_changes
	rc.type == "terraform_data"
	i > 2
}`), local: map[string]bool{"p.deny": false}},
	"address converted": {files: regoV1(`deny contains "n" if {
	some rc in input.resource_changes
	to_number(rc.address) > 0
	rc.type == "zzz"
}`), local: map[string]bool{"p.deny": false}},
	"position only in the message": {files: regoV1(`deny contains i if {
	some i, rc in input.resource_changes
	rc.type == "null_resource"
}`), local: map[string]bool{"p.deny": true}},
	"whole change": {files: regoV1(`deny contains "x" if {
	some rc in input.resource_changes
	json.marshal(rc) != ""
}`), local: map[string]bool{"p.deny": false}},
	"member by variable": {files: regoV1(`deny contains k if {
	some rc in input.resource_changes
	some k in ["type"]
	rc[k] == "null_resource"
}`), local: map[string]bool{"p.deny": false}},
	"two changes": {files: regoV1(`deny contains a.address if {
	some a in input.resource_changes
	some b in input.resource_changes
	a.type == b.type
	a.address != b.address
}`), local: map[string]bool{"p.deny": false}},
	"helper reads the address": {files: regoV1(`prod(rc) if startswith(rc.address, "prod")

deny contains "p" if {
	some rc in input.resource_changes
	prod(rc)
}`), local: map[string]bool{"p.deny": false}},
	"helper reads other members": {files: regoV1(`creates(rc) if "create" in rc.change.actions

deny contains rc.address if {
	some rc in input.resource_changes
	creates(rc)
	rc.type == "null_resource"
}`), local: map[string]bool{"p.deny": true}},
	"rule reading the input": {files: regoV1(`many if count(input.resource_changes) > 3

deny contains rc.address if {
	some rc in input.resource_changes
	many
}`), local: map[string]bool{"p.deny": false}},
	"other input": {files: regoV1(`deny contains rc.address if {
	some rc in input.resource_changes
	input.format_version == "1.2"
}`), local: map[string]bool{"p.deny": false}},
	"with": {files: regoV1(`t(x) if x.type == "a"

deny contains "w" if {
	some rc in input.resource_changes
	t(rc) with data.settings as {}
}`), local: map[string]bool{"p.deny": false}},
	"complete rule": {files: regoV1(`deny := [rc.address | some rc in input.resource_changes; rc.type == "null_resource"]`), local: map[string]bool{"p.deny": false}},
}

func loadLocalFixture(t *testing.T, name string) *Set {
	t.Helper()
	return loadPolicyFiles(t, localFixtures[name].files)
}

// TestLocalPolicies: which policies are evaluated over one change of each
// kind first.
func TestLocalPolicies(t *testing.T) {
	for name, fx := range localFixtures {
		t.Run(name, func(t *testing.T) {
			s := loadLocalFixture(t, name)
			got := map[string]bool{}
			for _, p := range s.policies {
				got[p.Name] = p.local
			}
			if diff := cmp.Diff(fx.local, got); diff != "" {
				t.Errorf("local policies (-want +got):\n%s", diff)
			}
		})
	}
}

// alikePlan is n changes alike but for their address, and odd changes
// that make one policy or another fire.
func alikePlan(n int, odd ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1.2","resource_changes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"address":"terraform_data.r[%d]","mode":"managed","type":"terraform_data","name":"r","index":%d,"change":{"actions":["no-op"],"before":{"input":"x"},"after":{"input":"x"}}}`, i, i)
	}
	for _, o := range odd {
		b.WriteByte(',')
		b.WriteString(o)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// TestLocalPoliciesKeepReports: evaluating change-local policies over one
// change of each kind first gives the reports evaluating every change
// gives, for every fixture set and plan.
func TestLocalPoliciesKeepReports(t *testing.T) {
	plans := [][]byte{
		alikePlan(50),
		alikePlan(50, `{"address":"null_resource.n","mode":"managed","type":"null_resource","name":"n","change":{"actions":["create"],"before":null,"after":{}}}`),
		alikePlan(50, `{"address":"aws_s3_bucket.b","mode":"managed","type":"aws_s3_bucket","name":"b","change":{"actions":["delete"],"before":{},"after":null}}`,
			`{"address":"aws_s3_bucket.c","mode":"managed","type":"aws_s3_bucket","name":"c","change":{"actions":["update"],"before":{},"after":{"tags":{"owner":"me"}}}}`,
			`{"address":7,"mode":"managed","type":"null_resource","change":{"actions":["create"],"after":{}}}`,
			`{"address":"module.prod.null_resource.x","mode":"managed","type":"null_resource","change":{"actions":["create"],"after":{}}}`),
		generatedPlan(300),
		// Alike but for addresses that policies reading the address in a
		// condition tell apart.
		addressedPlan("terraform_data.r[0]", "terraform_data.r[1]", "module.network.terraform_data.r[0]", "prod_x.y", "module.prod.a.b", "terraform_data.r[3]"),
		addressedPlan("terraform_data.r[0]", "terraform_data.r[3]"),
	}
	plans = append(plans, recordedPlans(t)...)
	for seed := range uint64(6) {
		plans = append(plans, randomPlan(seed, 40))
	}
	ctx := context.Background()
	sets := map[string]*Set{}
	for name := range localFixtures {
		sets["local/"+name] = loadLocalFixture(t, name)
	}
	for name := range elementFixtures {
		sets["elements/"+name] = loadElementFixture(t, name)
	}
	localSeen := 0
	for name, s := range sets {
		for _, p := range s.policies {
			if p.local {
				localSeen++
			}
		}
		t.Run(name, func(t *testing.T) {
			all := *s
			all.evalAll = true
			for i, plan := range plans {
				want, wantErr := all.Check(ctx, plan)
				got, err := s.Check(ctx, plan)
				if (err != nil) != (wantErr != nil) {
					t.Fatalf("plan %d: error %v, evaluating every change %v", i, err, wantErr)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("plan %d: report changed (-every change +one of each kind first):\n%s", i, diff)
				}
			}
		})
	}
	if localSeen < 5 {
		t.Fatalf("only %d change-local policies among the sets: the comparison proves little", localSeen)
	}
}

// addressedPlan is one replace change per address, alike but for it.
func addressedPlan(addrs ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"resource_changes":[`)
	for i, a := range addrs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"address":%q,"mode":"managed","type":"terraform_data","change":{"actions":["delete","create"],"before":{},"after":{}}}`, a)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// TestRelaxedPolicies: policies that bind one change but are not local get
// their address- and position-free conditions checked over one change of
// each kind first.
func TestRelaxedPolicies(t *testing.T) {
	for _, tt := range []struct {
		set    string
		policy string
		want   bool
	}{
		{"examples", "No replacement of protected addresses", true}, // replaced(rc) stays, the glob goes
		{"examples", "terraform.blast_radius.warn", false},          // binds no change itself
		{"position", "p.deny", false},                               // i > 2 comes first
		{"position after a condition", "p.deny", true},              // rc.type stays, i > 2 goes
		{"address converted", "p.deny", false},                      // an error there must not be skipped
		{"address in a condition", "p.deny", false},                 // nothing would stay
		{"two changes", "p.deny", false},
	} {
		t.Run(tt.set+"/"+tt.policy, func(t *testing.T) {
			s := loadLocalFixture(t, tt.set)
			for _, p := range s.policies {
				if p.Name == tt.policy {
					if got := p.relaxed != nil; got != tt.want {
						t.Errorf("relaxed: %v, want %v", got, tt.want)
					}
					return
				}
			}
			t.Fatalf("no policy %s", tt.policy)
		})
	}
}
