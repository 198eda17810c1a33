package planjson

import (
	"bytes"
	"encoding/json"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/engine/plan"
)

type member struct {
	key string
	raw json.RawMessage
}

// topLevelMembers splits a JSON object into its members, in order.
func topLevelMembers(t *testing.T, doc []byte) []member {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %v %v", tok, err)
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		out = append(out, member{tok.(string), raw})
	}
	return out
}

func joinMembers(ms []member) []byte {
	b := []byte{'{'}
	for _, m := range ms {
		b = appendKey(b, m.key)
		b = append(b, m.raw...)
	}
	return append(b, '}')
}

// TestMarshalJSONSections checks that every selection of top-level
// members is exactly those members of the full document, in order.
func TestMarshalJSONSections(t *testing.T) {
	big := plantest.BigPlan(3 * jsonChunk)
	plans := map[string]*plan.Plan{"big (encoded side by side)": big}
	for _, tc := range plantest.RecordedPlans {
		p, _ := plantest.RecordedPlan(t, tc.Name, tc.Build)
		plans[tc.Name] = p
		if big.PriorState == nil && !stateEmpty(p.PriorState) {
			big.PriorState = p.PriorState
		}
	}
	if big.PriorState == nil {
		t.Fatal("no recorded plan with a prior state")
	}
	for name, p := range plans {
		t.Run(name, func(t *testing.T) {
			full, err := Marshal(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			all, err := MarshalSections(p, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(full, all) {
				t.Fatal("MarshalSections with every section differs from Marshal")
			}
			members := topLevelMembers(t, full)
			selections := map[string]func(i int) bool{
				"even": func(i int) bool { return i%2 == 0 },
				"odd":  func(i int) bool { return i%2 == 1 },
				"none": func(int) bool { return false },
			}
			for i := range members {
				selections[members[i].key] = func(j int) bool { return i == j }
			}
			for sel, pick := range selections {
				wanted := map[string]bool{}
				var want []member
				for i, m := range members {
					if pick(i) {
						wanted[m.key] = true
						want = append(want, m)
					}
				}
				got, err := MarshalSections(p, nil, func(k string) bool { return wanted[k] })
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(joinMembers(want)), string(got)); diff != "" {
					t.Errorf("%s: (-want +got):\n%.2000s", sel, diff)
				}
			}
		})
	}
}
