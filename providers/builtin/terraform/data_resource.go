package terraform

import (
	"context"

	uuid "github.com/hashicorp/go-uuid"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

var dataResourceSchema = &providers.Block{
	Description: "Holds a value in state and reports its changes, so other resources can be replaced or updated when it changes.",
	Attributes: map[string]*providers.Attribute{
		"id": {
			Type:        cty.String,
			Computed:    true,
			Description: "A random identifier chosen when the resource is created.",
		},
		"input": {
			Type:        cty.DynamicPseudoType,
			Optional:    true,
			Description: "Any value to store. A change updates the resource in place and makes output unknown until apply.",
		},
		"output": {
			Type:        cty.DynamicPseudoType,
			Computed:    true,
			Description: "The value of input as of the last apply.",
		},
		"triggers_replace": {
			Type:        cty.DynamicPseudoType,
			Optional:    true,
			Description: "Any value; a change replaces the resource.",
		},
	},
}

func planDataResource(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	proposed := req.ProposedNewState
	if proposed.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: proposed}
	}
	input := proposed.GetAttr("input")
	// output takes input's type; a null input means a null output right
	// away, since nothing is left to learn at apply.
	outputAfterApply := input
	if !input.IsNull() {
		outputAfterApply = cty.UnknownVal(input.Type())
	}
	var resp providers.PlanResourceChangeResponse
	id := proposed.GetAttr("id")
	output := proposed.GetAttr("output")
	switch prior := req.PriorState; {
	case prior.IsNull():
		id, output = cty.UnknownVal(cty.String).RefineNotNull(), outputAfterApply
	case !prior.GetAttr("triggers_replace").RawEquals(proposed.GetAttr("triggers_replace")):
		resp.RequiresReplace = []cty.Path{cty.GetAttrPath("triggers_replace")}
		id, output = cty.UnknownVal(cty.String).RefineNotNull(), outputAfterApply
	case !prior.GetAttr("input").RawEquals(input):
		output = cty.UnknownVal(input.Type())
	default:
		// Nothing changes: the proposed object is the plan.
		resp.PlannedState = proposed
		return resp
	}
	resp.PlannedState = dataResourceObject(id, input, output, proposed.GetAttr("triggers_replace"))
	return resp
}

// dataResourceObject builds a terraform_data object from its attributes.
func dataResourceObject(id, input, output, triggersReplace cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id":               id,
		"input":            input,
		"output":           output,
		"triggers_replace": triggersReplace,
	})
}

func applyDataResource(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	planned := req.PlannedState
	if planned.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: planned}
	}
	id, input, output := planned.GetAttr("id"), planned.GetAttr("input"), planned.GetAttr("output")
	if id.IsKnown() && output.IsKnown() {
		return providers.ApplyResourceChangeResponse{NewState: planned}
	}
	if !id.IsKnown() {
		s, err := uuid.GenerateUUID()
		if err != nil {
			var diags providers.Diagnostics
			return providers.ApplyResourceChangeResponse{Diagnostics: diags.Errorf(nil,
				"Cannot generate an identifier", "Reading random bytes failed: "+err.Error()+". Try again.")}
		}
		id = cty.StringVal(s)
	}
	if !output.IsKnown() {
		output = input
	}
	return providers.ApplyResourceChangeResponse{NewState: dataResourceObject(id, input, output, planned.GetAttr("triggers_replace"))}
}

func importDataResource(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{
		TypeName: req.TypeName,
		State: cty.ObjectVal(map[string]cty.Value{
			"id":               cty.StringVal(req.ID),
			"input":            cty.NullVal(cty.DynamicPseudoType),
			"output":           cty.NullVal(cty.DynamicPseudoType),
			"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
		}),
	}}}
}
