package planjson

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"github.com/tenetplan/tenet/internal/provenance"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/engine/plan"
)

func decodeJSON(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not JSON: %s\n%s", err, b)
	}
	return doc
}

func TestMarshalJSONTopLevel(t *testing.T) {
	tdObj := plantest.TD(cty.StringVal("x"), cty.StringVal("v"), cty.StringVal("v"), plantest.NullDyn)
	dataDelete := plantest.Change(t, "data.terraform_remote_state.d", action.Delete, cty.NullVal(plantest.TDType), cty.NullVal(plantest.TDType))
	noopDrift := plantest.Change(t, "terraform_data.moved", action.NoOp, tdObj, tdObj)
	noopDrift.PrevRunAddr = plantest.InstAddr(t, "terraform_data.old")
	p := &plan.Plan{
		Mode:      plan.DestroyMode,
		Timestamp: time.Date(2026, 1, 2, 3, 4, 5, 999, time.FixedZone("X", 3600)),
		Changes: []*plan.ResourceInstanceChange{
			dataDelete,
			plantest.Change(t, "terraform_data.a", action.Delete, tdObj, cty.NullVal(plantest.TDType)),
		},
		Drift: []*plan.ResourceInstanceChange{
			noopDrift,
			plantest.Change(t, "terraform_data.gone", action.Delete, tdObj, cty.NullVal(plantest.TDType)),
		},
		OutputChanges: []*plan.OutputChange{{Name: "o", Action: action.Delete, Before: cty.StringVal("v"), After: cty.NullVal(cty.String)}},
		Variables:     map[string]cty.Value{"v": cty.StringVal("x")},
		Provenance: map[string][]provenance.Rule{
			"terraform_data.a": {{RuleID: "destroy.mode", File: "rules/destroy.rego", Line: 3}},
		},
		PolicyResults:    json.RawMessage(`{"deny": ["no"]}`),
		TerraformVersion: "0.1.0",
	}
	out, err := Marshal(p, nil)
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
	v := plantest.TD(cty.StringVal("x"), cty.StringVal("v"), cty.StringVal("v"), plantest.NullDyn)
	d := plantest.Change(t, "terraform_data.b", action.NoOp, v, v)
	d.PrevRunAddr = plantest.InstAddr(t, "terraform_data.a")
	out, err := Marshal(&plan.Plan{Mode: plan.RefreshOnlyMode, Drift: []*plan.ResourceInstanceChange{d}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	drift := decodeJSON(t, out)["resource_drift"].([]any)
	if len(drift) != 1 || drift[0].(map[string]any)["previous_address"] != "terraform_data.a" {
		t.Errorf("resource_drift = %v, want the move", drift)
	}
}

func TestMarshalJSONRejectsInvalidAction(t *testing.T) {
	c := plantest.Change(t, "terraform_data.a", action.Forget+1, cty.NilVal, cty.NilVal)
	if _, err := Marshal(&plan.Plan{Changes: []*plan.ResourceInstanceChange{c}}, nil); err == nil {
		t.Fatal("no error for an undeclared action")
	}
}

// BenchmarkMarshalJSON100k times the hand-written writer on a plan of
// 100,000 changes; BenchmarkMarshalJSONStd100k is its reference.
func BenchmarkMarshalJSON100k(b *testing.B) {
	p := plantest.BigPlan(100_000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Marshal(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalJSONStd100k times encoding/json writing the same
// document given as decoded JSON (maps, slices, float64s), so without
// turning the plan into values first: the least a reflecting writer would
// cost.
func BenchmarkMarshalJSONStd100k(b *testing.B) {
	out, err := Marshal(plantest.BigPlan(100_000), nil)
	if err != nil {
		b.Fatal(err)
	}
	doc := decodeJSON(b, out)
	for b.Loop() {
		if _, err := json.Marshal(doc); err != nil {
			b.Fatal(err)
		}
	}
}
