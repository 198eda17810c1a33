package kit

import (
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// Planner plans resources whose arguments all force replacement except
// those listed in InPlace, and whose computed values are chosen at apply.
//
// On create every computed attribute the configuration leaves null is
// unknown. On update, if any replacing argument changed, the instance is
// replaced: computed values become unknown again, and every replacing
// attribute whose planned value now differs from the prior one (including
// optional+computed ones that became unknown) is reported in
// RequiresReplace. Otherwise computed values keep their prior values.
type Planner struct {
	Schema *providers.Block
	// Defaults are the values of optional attributes left null in
	// configuration; they are known at plan time.
	Defaults map[string]cty.Value
	// InPlace names arguments that can change without replacement.
	InPlace map[string]bool
}

// Plan implements PlanResourceChange.
func (p *Planner) Plan(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	planned := req.ProposedNewState.AsValueMap()
	config := req.Config
	configured := func(name string) bool {
		return !config.IsNull() && !config.GetAttr(name).IsNull()
	}
	for name, def := range p.Defaults {
		if !configured(name) {
			planned[name] = def
		}
	}
	computedUnknown := func() {
		for name, attr := range p.Schema.Attributes {
			if !attr.Computed || configured(name) {
				continue
			}
			if _, ok := p.Defaults[name]; ok {
				continue
			}
			planned[name] = cty.UnknownVal(attr.ImpliedType())
		}
	}
	if req.PriorState.IsNull() {
		computedUnknown()
		return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(planned)}
	}
	prior := req.PriorState
	if changedArgs(p, prior, planned, false) == nil {
		return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(planned)}
	}
	computedUnknown()
	return providers.PlanResourceChangeResponse{
		PlannedState:    cty.ObjectVal(planned),
		RequiresReplace: changedArgs(p, prior, planned, true),
	}
}

// changedArgs lists replacing arguments whose planned value differs from
// prior. Before computed values are reset only configurable arguments
// count; afterwards optional+computed ones that became unknown count too.
func changedArgs(p *Planner, prior cty.Value, planned map[string]cty.Value, includeUnknown bool) []cty.Path {
	var names []string
	for name, attr := range p.Schema.Attributes {
		if p.InPlace[name] || !(attr.Optional || attr.Required) {
			continue
		}
		v := planned[name]
		if !includeUnknown && attr.Computed && !v.IsKnown() {
			continue
		}
		if !v.RawEquals(prior.GetAttr(name)) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	paths := make([]cty.Path, len(names))
	for i, n := range names {
		paths[i] = cty.GetAttrPath(n)
	}
	return paths
}

// FillUnknown returns planned with each unknown top-level attribute
// replaced by fill(name); fill is only called for unknown attributes.
func FillUnknown(planned cty.Value, fill func(name string) cty.Value) cty.Value {
	vals := planned.AsValueMap()
	for name, v := range vals {
		if !v.IsKnown() {
			vals[name] = fill(name)
		}
	}
	return cty.ObjectVal(vals)
}
