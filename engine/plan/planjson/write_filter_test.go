package planjson

import (
	"encoding/json"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/engine/plan"
)

// memberTree is a ChangeMembers for tests: a nil node is read whole.
type memberTree map[string]memberTree

func (m memberTree) node(path []string) (memberTree, bool) {
	n := m
	for _, p := range path {
		if n == nil {
			return nil, true
		}
		next, ok := n[p]
		if !ok {
			return nil, false
		}
		n = next
	}
	return n, true
}

func (m memberTree) ReadsChangeMember(path ...string) bool {
	_, ok := m.node(path)
	return ok
}

func (m memberTree) ReadsChangeWhole(path ...string) bool {
	n, ok := m.node(path)
	return ok && n == nil
}

// prune keeps of v what tree can read: objects keep their read members,
// anything else is kept whole.
func (m memberTree) prune(v any) any {
	obj, ok := v.(map[string]any)
	if !ok || m == nil {
		return v
	}
	out := map[string]any{}
	for k, sub := range m {
		if val, ok := obj[k]; ok {
			out[k] = sub.prune(val)
		}
	}
	return out
}

// TestMarshalJSONFiltered: what a reader of the chosen members sees of each
// change is the same in the filtered document as in the full one, and the
// members it cannot read are left out.
func TestMarshalJSONFiltered(t *testing.T) {
	plans := map[string]*plan.Plan{"big (encoded side by side)": plantest.BigPlan(3 * jsonChunk)}
	for _, tc := range plantest.RecordedPlans {
		p, _ := plantest.RecordedPlan(t, tc.Name, tc.Build)
		plans[tc.Name] = p
	}
	trees := map[string]memberTree{
		"typical policy":  {"address": nil, "type": nil, "mode": nil, "change": {"actions": nil, "after": {"tags": nil}}},
		"attribute paths": {"change": {"before": {"input": {"a": nil}}, "after": {"input": nil, "id": nil}, "after_unknown": nil}},
		"identity only":   {"address": nil, "module_address": nil, "name": nil, "index": nil, "previous_address": nil, "deposed": nil, "action_reason": nil, "provider_name": nil},
		"change whole":    {"change": nil},
		"nothing":         {},
	}
	for name, p := range plans {
		full, err := Marshal(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		var fullDoc map[string]any
		if err := json.Unmarshal(full, &fullDoc); err != nil {
			t.Fatal(err)
		}
		for treeName, tree := range trees {
			t.Run(name+"/"+treeName, func(t *testing.T) {
				js, err := MarshalFiltered(p, nil, nil, tree)
				if err != nil {
					t.Fatal(err)
				}
				var doc map[string]any
				if err := json.Unmarshal(js, &doc); err != nil {
					t.Fatalf("invalid JSON: %v", err)
				}
				if diff := cmp.Diff(fullDoc["resource_drift"], doc["resource_drift"]); diff != "" {
					t.Fatalf("resource_drift is not whole (-full +filtered):\n%s", diff)
				}
				for _, section := range []string{"resource_changes"} {
					got, _ := doc[section].([]any)
					want, _ := fullDoc[section].([]any)
					if len(got) != len(want) {
						t.Fatalf("%s: %d elements, want %d", section, len(got), len(want))
					}
					for i := range got {
						if diff := cmp.Diff(tree.prune(want[i]), tree.prune(got[i])); diff != "" {
							t.Fatalf("%s[%d] as the reader sees it (-full +filtered):\n%s", section, i, diff)
						}
						el := got[i].(map[string]any)
						for k := range el {
							if !tree.ReadsChangeMember(k) {
								t.Errorf("%s[%d] has %q, which cannot be read", section, i, k)
							}
						}
						if change, ok := el["change"].(map[string]any); ok {
							for k := range change {
								if !tree.ReadsChangeMember("change", k) {
									t.Errorf("%s[%d].change has %q, which cannot be read", section, i, k)
								}
							}
							for _, value := range []string{"before", "after"} {
								obj, _ := change[value].(map[string]any)
								for attr := range obj {
									if !tree.ReadsChangeMember("change", value, attr) {
										t.Errorf("%s[%d].change.%s has %q, which cannot be read", section, i, value, attr)
									}
								}
							}
						}
					}
				}
				// Everything else is as Marshal writes it.
				delete(doc, "resource_changes")
				delete(doc, "resource_drift")
				rest := map[string]any{}
				for k, v := range fullDoc {
					if !strings.HasPrefix(k, "resource_") {
						rest[k] = v
					}
				}
				if diff := cmp.Diff(rest, doc); diff != "" {
					t.Fatalf("other members differ (-full +filtered):\n%s", diff)
				}
			})
		}
	}
}
