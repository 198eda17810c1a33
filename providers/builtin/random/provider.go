package random

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// Provider is the built-in random provider.
type Provider struct {
	kit.Base
}

var _ providers.Interface = (*Provider)(nil)

// New starts a random provider.
func New() providers.Interface {
	return &Provider{Base: kit.Base{
		Name:   "random",
		Config: providers.Schema{Block: &providers.Block{}},
		Resources: map[string]*kit.Resource{
			"random_id":       resource(idSchema, nil, validateID, applyID),
			"random_string":   versioned(resource(stringSchema(false), stringDefaults, validateString, applyString(false)), stringSchemaVersion),
			"random_password": versioned(resource(stringSchema(true), stringDefaults, validateString, applyString(true)), passwordSchemaVersion),
			"random_integer":  resource(integerSchema, nil, validateInteger, applyInteger),
			"random_pet":      resource(petSchema, petDefaults, validatePet, applyPet),
		},
	}}
}

// generator fills the unknown attributes of a planned object.
type generator func(planned cty.Value) (cty.Value, providers.Diagnostics)

func resource(schema *providers.Block, defaults map[string]cty.Value, validate func(cty.Value) providers.Diagnostics, generate generator) *kit.Resource {
	planner := &kit.Planner{Schema: schema, Defaults: defaults}
	return &kit.Resource{
		Schema:   providers.Schema{Block: schema},
		Validate: validate,
		Plan: func(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
			return planner.Plan(req)
		},
		Apply: func(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
			if req.PlannedState.IsNull() || req.PlannedState.IsWhollyKnown() {
				return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
			}
			v, diags := generate(req.PlannedState)
			return providers.ApplyResourceChangeResponse{NewState: v, Diagnostics: diags}
		},
	}
}

var keepersAttribute = &providers.Attribute{
	Type: cty.Map(cty.String), Optional: true,
	Description: "Arbitrary values; any change chooses a new random value.",
}

func randomFailed(err error) providers.Diagnostics {
	var diags providers.Diagnostics
	return diags.Errorf(nil, "Cannot generate a random value", "Reading random bytes failed: "+err.Error()+". Try again.")
}

// withValues returns planned with the given attributes replaced.
func withValues(planned cty.Value, vals map[string]cty.Value) cty.Value {
	m := planned.AsValueMap()
	for k, v := range vals {
		m[k] = v
	}
	return cty.ObjectVal(m)
}
