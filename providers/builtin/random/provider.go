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
			"random_id":       importable(resource(idSchema, nil, validateID, applyID), "random_id", importID),
			"random_string":   importable(syncNumber(versioned(resource(stringSchema(false), stringDefaults, validateString, applyString(false)), stringSchemaVersion)), "random_string", importString(false)),
			"random_password": importable(syncNumber(versioned(resource(stringSchema(true), stringDefaults, validateString, applyString(true)), passwordSchemaVersion)), "random_password", importString(true)),
			"random_integer":  importable(resource(integerSchema, nil, validateInteger, applyInteger), "random_integer", importInteger),
			"random_pet":      resource(petSchema, petDefaults, validatePet, applyPet),
			"random_shuffle":  resource(shuffleSchema, nil, validateShuffle, applyShuffle),
			"random_uuid":     importable(resource(uuidSchema, nil, nil, applyUUID), "random_uuid", importUUID),
			"random_bytes":    importable(resource(bytesSchema, nil, validateBytes, applyBytes), "random_bytes", importBytes),
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
			resp := planner.Plan(req)
			if len(resp.RequiresReplace) == 1 && resp.RequiresReplace[0].Equals(cty.GetAttrPath("keepers")) &&
				sameKeepers(req.PriorState.GetAttr("keepers"), req.ProposedNewState.GetAttr("keepers")) {
				// Only null entries (or an empty map against none)
				// differ: hashicorp/random updates keepers in place.
				m := req.PriorState.AsValueMap()
				m["keepers"] = req.ProposedNewState.GetAttr("keepers")
				return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(m)}
			}
			return resp
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

// sameKeepers reports whether two keepers maps hold the same non-null
// entries; a null map counts as empty.
func sameKeepers(a, b cty.Value) bool {
	entries := func(v cty.Value) map[string]cty.Value {
		out := map[string]cty.Value{}
		if v.IsNull() || !v.IsKnown() {
			return out
		}
		for k, e := range v.AsValueMap() {
			if !e.IsNull() {
				out[k] = e
			}
		}
		return out
	}
	if !a.IsWhollyKnown() || !b.IsWhollyKnown() {
		return false
	}
	ea, eb := entries(a), entries(b)
	if len(ea) != len(eb) {
		return false
	}
	for k, v := range ea {
		if w, ok := eb[k]; !ok || !v.RawEquals(w) {
			return false
		}
	}
	return true
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
