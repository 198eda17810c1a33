package terraform

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
)

// BenchmarkDataResourceCreate measures what the engine does per
// terraform_data instance on create: propose, plan, check, apply, check.
func BenchmarkDataResourceCreate(b *testing.B) {
	p := New()
	ctx := context.Background()
	schema := dataResourceSchema
	null := cty.NullVal(schema.ImpliedType())
	config := cty.ObjectVal(map[string]cty.Value{
		"id": cty.NullVal(cty.String), "input": cty.StringVal("v"),
		"output": cty.NullVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
	b.ReportAllocs()
	for b.Loop() {
		proposed := objchange.ProposedNew(schema, null, config)
		plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "terraform_data", PriorState: null, ProposedNewState: proposed, Config: config})
		if errs := objchange.AssertPlanValid(schema, null, config, plan.PlannedState); len(errs) > 0 {
			b.Fatal(errs)
		}
		applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "terraform_data", PriorState: null, PlannedState: plan.PlannedState, Config: config})
		if errs := objchange.AssertObjectCompatible(schema, plan.PlannedState, applied.NewState); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
