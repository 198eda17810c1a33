package plan

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func decodeJSON(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not JSON: %s\n%s", err, b)
	}
	return doc
}

func TestMarshalJSONTopLevel(t *testing.T) {
	tdObj := td(cty.StringVal("x"), cty.StringVal("v"), cty.StringVal("v"), nullDyn)
	dataDelete := change(t, "data.terraform_remote_state.d", Delete, cty.NullVal(tdType), cty.NullVal(tdType))
	noopDrift := change(t, "terraform_data.moved", NoOp, tdObj, tdObj)
	noopDrift.PrevRunAddr = instAddr(t, "terraform_data.old")
	p := &Plan{
		Mode:      DestroyMode,
		Timestamp: time.Date(2026, 1, 2, 3, 4, 5, 999, time.FixedZone("X", 3600)),
		Changes: []*ResourceInstanceChange{
			dataDelete,
			change(t, "terraform_data.a", Delete, tdObj, cty.NullVal(tdType)),
		},
		Drift: []*ResourceInstanceChange{
			noopDrift,
			change(t, "terraform_data.gone", Delete, tdObj, cty.NullVal(tdType)),
		},
		OutputChanges: []*OutputChange{{Name: "o", Action: Delete, Before: cty.StringVal("v"), After: cty.NullVal(cty.String)}},
		Variables:     map[string]cty.Value{"v": cty.StringVal("x")},
		Provenance: map[string][]RuleFired{
			"terraform_data.a": {{RuleID: "destroy.mode", File: "rules/destroy.rego", Line: 3}},
		},
		PolicyResults:    json.RawMessage(`{"deny": ["no"]}`),
		TerraformVersion: "0.1.0",
	}
	out, err := MarshalJSON(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := decodeJSON(t, out)

	var changed []string
	for _, rc := range doc["resource_changes"].([]any) {
		changed = append(changed, rc.(map[string]any)["address"].(string))
	}
	if diff := cmp.Diff([]string{"terraform_data.a"}, changed); diff != "" {
		t.Errorf("resource_changes (data-source deletes must be hidden): %s", diff)
	}
	var drifted []string
	for _, rc := range doc["resource_drift"].([]any) {
		drifted = append(drifted, rc.(map[string]any)["address"].(string))
	}
	if diff := cmp.Diff([]string{"terraform_data.gone"}, drifted); diff != "" {
		t.Errorf("resource_drift (no-op moves only in refresh-only mode): %s", diff)
	}
	want := map[string]any{
		"planned_values": map[string]any{"root_module": map[string]any{}},
		"configuration":  map[string]any{},
		"timestamp":      "2026-01-02T02:04:05Z",
		"errored":        false,
		"variables":      map[string]any{"v": map[string]any{"value": "x"}},
		"output_changes": map[string]any{"o": map[string]any{
			"actions": []any{"delete"}, "before": "v", "after": nil, "after_unknown": false,
			"before_sensitive": false, "after_sensitive": false,
		}},
		"tenet": map[string]any{
			"provenance": map[string]any{"terraform_data.a": []any{map[string]any{"id": "destroy.mode", "file": "rules/destroy.rego", "line": float64(3)}}},
			"policy":     map[string]any{"deny": []any{"no"}},
		},
	}
	for key, w := range want {
		if diff := cmp.Diff(w, doc[key]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", key, diff)
		}
	}
	if _, ok := doc["prior_state"]; ok {
		t.Error("prior_state present for a plan without prior state")
	}
	if _, ok := doc["relevant_attributes"]; ok {
		t.Error("relevant_attributes present though empty")
	}
}

func TestMarshalJSONRefreshOnlyShowsMoves(t *testing.T) {
	v := td(cty.StringVal("x"), cty.StringVal("v"), cty.StringVal("v"), nullDyn)
	d := change(t, "terraform_data.b", NoOp, v, v)
	d.PrevRunAddr = instAddr(t, "terraform_data.a")
	out, err := MarshalJSON(&Plan{Mode: RefreshOnlyMode, Drift: []*ResourceInstanceChange{d}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	drift := decodeJSON(t, out)["resource_drift"].([]any)
	if len(drift) != 1 || drift[0].(map[string]any)["previous_address"] != "terraform_data.a" {
		t.Errorf("resource_drift = %v, want the move", drift)
	}
}

func TestMarshalJSONRejectsInvalidAction(t *testing.T) {
	c := change(t, "terraform_data.a", Action('?'), cty.NilVal, cty.NilVal)
	if _, err := MarshalJSON(&Plan{Changes: []*ResourceInstanceChange{c}}, nil); err == nil {
		t.Fatal("no error for an undeclared action")
	}
}

// bigPlan has n creates and n/10 module updates of terraform_data.
func bigPlan(n int) *Plan {
	p := &Plan{Timestamp: time.Unix(0, 0), TerraformVersion: "0.1.0"}
	for i := range n {
		addr := fmt.Sprintf("terraform_data.r[%d]", i)
		if i%10 == 0 {
			addr = fmt.Sprintf("module.m[%d].terraform_data.r", i)
		}
		a, _ := parseInstanceForBench(addr)
		p.Changes = append(p.Changes, &ResourceInstanceChange{
			Addr: a, PrevRunAddr: a, Provider: terraformProvider, Action: Create,
			Before: cty.NullVal(tdType),
			After: td(unkStr, cty.ObjectVal(map[string]cty.Value{
				"name": cty.StringVal(addr), "n": cty.NumberIntVal(int64(i)), "l": cty.ListVal([]cty.Value{cty.StringVal("a"), unkStr}),
			}), cty.DynamicVal, nullDyn),
		})
	}
	return p
}

func BenchmarkMarshalJSON100k(b *testing.B) {
	p := bigPlan(100_000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := MarshalJSON(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlanFileRoundTrip100k(b *testing.B) {
	p := bigPlan(100_000)
	b.ResetTimer()
	for b.Loop() {
		data, err := Encode(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
