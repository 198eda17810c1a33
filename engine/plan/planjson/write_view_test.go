package planjson

import (
	"encoding/json"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMarshalViewJSONIsFullJSONForViews checks, on every recorded plan,
// that the renderer's JSON is the full JSON with only what the views do not
// read left out: the same drift, output changes, relevant attributes and
// errored flag, and the resource changes that act, move or import.
func TestMarshalViewJSONIsFullJSONForViews(t *testing.T) {
	for _, tc := range plantest.RecordedPlans {
		t.Run(tc.Name, func(t *testing.T) {
			p, _ := plantest.RecordedPlan(t, tc.Name, tc.Build)
			full, err := Marshal(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			view, err := MarshalView(p)
			if err != nil {
				t.Fatal(err)
			}
			want := decodeJSON(t, full)
			for _, key := range []string{"terraform_version", "variables", "planned_values", "prior_state", "configuration", "timestamp", "tenet"} {
				delete(want, key)
			}
			if rcs, ok := want["resource_changes"].([]any); ok {
				var shown []any
				for _, rc := range rcs {
					m := rc.(map[string]any)
					ch := m["change"].(map[string]any)
					acts, _ := json.Marshal(ch["actions"])
					_, moved := m["previous_address"]
					_, importing := ch["importing"]
					if string(acts) != `["no-op"]` || moved || importing {
						shown = append(shown, rc)
					}
				}
				delete(want, "resource_changes")
				if len(shown) > 0 {
					want["resource_changes"] = shown
				}
			}
			if diff := cmp.Diff(want, decodeJSON(t, view)); diff != "" {
				t.Errorf("view JSON (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLargePlanJSONMatchesSerialEncoding checks that a plan big enough to
// be encoded on several goroutines comes out as one goroutine writes it.
func TestLargePlanJSONMatchesSerialEncoding(t *testing.T) {
	p := plantest.BigPlan(3*jsonChunk + 17)
	var want []byte
	want = append(want, '[')
	for _, c := range p.Changes {
		want = appendComma(want)
		want = appendResourceChange(want, c, allChangeFields)
	}
	want = append(want, ']')
	if got := appendResourceChanges(nil, p.Changes, allChangeFields); string(got) != string(want) {
		t.Fatalf("parallel encoding differs from serial (%d vs %d bytes)", len(got), len(want))
	}
	if _, err := MarshalView(p); err != nil {
		t.Fatal(err)
	}
}
