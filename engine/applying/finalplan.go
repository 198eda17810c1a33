package applying

import (
	"errors"

	"github.com/hashicorp/hcl/v2"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
	"github.com/zclconf/go-cty/cty"
)

// checkFinalPlan holds the plan made at apply, with the now-known
// configuration, to the rules of a plan and to the plan the user approved.
func (w *applyWalker) checkFinalPlan(n *graph.Node, sch *providers.Schema, c *plan.ResourceInstanceChange, prior, config cty.Value, resp providers.PlanResourceChangeResponse) hcl.Diagnostics {
	rng, provider := nodes.Range(n), c.Provider.Provider
	final := resp.PlannedState
	if errs := objchange.AssertObjectConforms(sch.Block, final); len(errs) > 0 {
		return providercall.InvalidPlanDiags(rng, provider, c.Addr, errs)
	}
	if errs := objchange.AssertPlanValid(sch.Block, prior, config, final); len(errs) > 0 {
		return providercall.InvalidPlanDiags(rng, provider, c.Addr, errs)
	}
	if c.Action == action.Update {
		var replace []cty.Path
		for _, p := range resp.RequiresReplace {
			if eval.PathChanged(prior, final, p) {
				replace = append(replace, p)
			}
		}
		if len(replace) > 0 {
			return hcl.Diagnostics{providercall.FinalActionDiag(rng, provider, c.Addr, c.Action, action.DeleteThenCreate, replace)}
		}
	}
	if errs := objchange.AssertObjectCompatible(sch.Block, c.After, final); len(errs) > 0 {
		return providercall.InconsistentFinalPlanDiags(rng, provider, c.Addr, errs)
	}
	return nil
}

// checkApplyResult holds an applied object to the final plan. It returns
// the object to save (null when nothing usable came back, unknowns made
// null) and the problems found.
func checkApplyResult(rng *hcl.Range, sch *providers.Schema, c *plan.ResourceInstanceChange, final cty.Value, resp providers.ApplyResourceChangeResponse) (cty.Value, hcl.Diagnostics) {
	provider := c.Provider.Provider
	ty := eval.ImpliedType(sch.Block)
	v := resp.NewState
	failed := resp.Diagnostics.HasErrors()
	if v == cty.NilVal {
		if failed {
			return cty.NullVal(ty), nil
		}
		return cty.NullVal(ty), providercall.InvalidObjectDiags(rng, provider, c.Addr, "after apply", []error{errors.New("the provider returned no object and no error")})
	}
	if errs := objchange.AssertObjectConforms(sch.Block, v); len(errs) > 0 {
		// The object cannot be stored; what the provider made is lost to
		// tenet, so say so even when the provider reported an error too.
		return cty.NullVal(ty), providercall.InvalidObjectDiags(rng, provider, c.Addr, "after apply", errs)
	}
	if failed {
		return objchange.NullUnknowns(v), nil
	}
	if v.IsNull() {
		return v, hcl.Diagnostics{eval.Errorf(rng, "Provider returned invalid result object after apply",
			"After the apply operation, provider %q returned a null object for %s, although the planned action was %s, not a delete."+providercall.BugNote, provider, c.Addr, c.Action)}
	}
	if paths := objchange.UnknownPaths(v); len(paths) > 0 {
		return objchange.NullUnknowns(v), providercall.UnknownResultDiags(rng, provider, c.Addr, paths)
	}
	if errs := objchange.AssertObjectCompatible(sch.Block, final, v); len(errs) > 0 {
		return v, providercall.InconsistentResultDiags(rng, provider, c.Addr, errs)
	}
	return v, nil
}

// finalPlanIsNoOp reports whether an update's final plan leaves the
// object as it is: the provider planned the prior object itself.
// OpenTofu then applies nothing and says nothing, keeping the object and
// its private data as they were, and so does tenet.
func finalPlanIsNoOp(prior, planned cty.Value) bool {
	if !planned.IsWhollyKnown() {
		return false
	}
	p, _ := prior.UnmarkDeep()
	n, _ := planned.UnmarkDeep()
	eq := p.Equals(n)
	return eq.IsKnown() && eq.True()
}
