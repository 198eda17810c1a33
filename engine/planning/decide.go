package planning

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
)

// facts describes one instance object to the rules.
func (w *planWalker) facts(rn *resourceNode, it *instPlan, configured map[instanceID]bool) rules.Instance {
	n := rn.n
	f := rules.Instance{
		Address:  it.addr.String(),
		Resource: rn.addrStr,
		Module:   it.modID,
		Mode:     rn.mode.String(),
		Type:     rn.typ,
		Name:     n.Addr.Resource.Name,
		Deposed:  string(it.deposed),
	}
	switch k := it.addr.Resource.Key.(type) {
	case addrs.IntKey:
		f.Key = int(k)
	case addrs.StringKey:
		f.Key = string(k)
	}
	ty := eval.ImpliedType(rn.schema.Block)
	f.Prior = it.prior
	f.HasPrior = it.priorSrc != nil && !it.prior.IsNull()
	f.Tainted = it.tainted
	if it.hasConfig && it.deposed == state.NotDeposed && w.opts.Mode != plan.DestroyMode {
		f.HasConfig = true
		f.Config = eval.MarkPaths(it.config, it.configSensitive)
		f.ConfigKnown = it.config.IsWhollyKnown()
		f.Prepared = it.prepared // the same configuration and prior object
	}
	if it.hasPlanned {
		f.HasPlanned = true
		f.Planned = it.planned
		prior := it.prior
		if it.tainted {
			prior = cty.NullVal(ty)
		}
		if !prior.IsNull() && it.planned.IsWhollyKnown() {
			// RawEquals is much cheaper and settles the common no-change case.
			f.PlannedEqualsPrior = it.planned.RawEquals(prior)
			if !f.PlannedEqualsPrior {
				eq := it.planned.Equals(prior)
				f.PlannedEqualsPrior = eq.IsKnown() && eq.True()
			}
		}
		for _, p := range it.requiresReplace {
			f.RequiresReplace = append(f.RequiresReplace, attrpath.KeysAsNames(p))
		}
	}
	if n.Res != nil && n.Res.Managed != nil {
		f.Lifecycle.PreventDestroy = n.Res.Managed.PreventDestroy
		f.Lifecycle.CreateBeforeDestroy = n.Res.Managed.CreateBeforeDestroy || w.forcedCBD[rn.addrStr]
	} else if it.priorSrc != nil {
		f.Lifecycle.CreateBeforeDestroy = it.priorSrc.CreateBeforeDestroy
	}
	for _, a := range w.opts.ForceReplace {
		if a.Equal(it.addr) {
			f.ForceReplace = true
		}
	}
	if rn.mode == addrs.DataResourceMode && f.HasConfig {
		f.DependencyPending = w.res.hasPendingChanges(append(append([]string(nil), n.ResDeps...), n.DependsOn...))
		f.InCheck = n.Res != nil && n.Res.CheckName != ""
	}
	if !f.HasConfig {
		f.Orphan = rules.Orphan{
			ResourceInConfig: n.Kind == graph.NodeResource,
			ModuleDeclared:   w.ev.Exp.IsDeclared(it.addr.Module),
			InExpansion:      configured[instanceID{it.modID, it.addr.Resource.Key}],
			Repetition:       "none",
		}
		_, f.Orphan.Moved = w.moves.previousAddr(it.addr)
		f.Removed = w.removedFor(it.addr)
		if n.Res != nil {
			if n.Res.Count != nil {
				f.Orphan.Repetition = "count"
			} else if n.Res.ForEach != nil {
				f.Orphan.Repetition = "for_each"
			}
		}
	}
	return f
}

// applyDecision turns a rule decision into a recorded change and returns
// the value downstream expressions see for the instance.
func (w *planWalker) applyDecision(ctx context.Context, rn *resourceNode, it *instPlan, d rules.Decision) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	n := rn.n
	sch := rn.schema
	ty := eval.ImpliedType(sch.Block)

	if rn.mode == addrs.DataResourceMode {
		return w.applyDataDecision(ctx, rn, it, d)
	}
	if d.Action == rules.ActionNone {
		// Nothing to do: refresh-only, or an object that is already gone.
		if it.hasConfig && !it.prior.IsNull() {
			return eval.MarkPaths(it.prior, it.priorSensitive), nil
		}
		return cty.NullVal(ty), nil
	}
	act, ok := action.FromRuleName(d.Action)
	if !ok {
		return cty.DynamicVal, hcl.Diagnostics{eval.Errorf(nodes.Range(n), "Invalid planning decision", "The planning rules chose the unknown action %q for %s.", d.Action, it.addr)}
	}
	c := &plan.ResourceInstanceChange{
		Addr: it.addr, PrevRunAddr: it.addr, DeposedKey: it.deposed, Provider: rn.provAddr,
		Action: act, Reason: plan.Reason(d.Reason), SchemaVersion: uint64(sch.Version),
		Before: it.prior, After: cty.NullVal(ty),
	}
	if it.importID != "" {
		c.Importing = &plan.Importing{ID: it.importID}
	}
	if it.priorSrc == nil || it.prior.IsNull() {
		c.Before = cty.NullVal(ty)
	} else {
		c.BeforeSensitivePaths = eval.MergePaths(it.priorSensitive, eval.SchemaSensitivePaths(sch.Block, it.prior))
	}
	if n.Res != nil && n.Res.Managed != nil {
		c.CreateBeforeDestroy = n.Res.Managed.CreateBeforeDestroy || w.forcedCBD[rn.addrStr]
	} else if it.priorSrc != nil {
		c.CreateBeforeDestroy = it.priorSrc.CreateBeforeDestroy
	}
	switch act {
	case action.Create, action.Update, action.NoOp:
		c.After = it.planned
		c.Private = it.plannedPrivate
	case action.DeleteThenCreate, action.CreateThenDelete:
		c.RequiredReplace = it.requiresReplace
		if it.tainted {
			c.After, c.Private = it.planned, it.plannedPrivate
		} else {
			proposed := objchange.ProposedNew(sch.Block, cty.NullVal(ty), it.config)
			resp := rn.provider.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: rn.typ, PriorState: cty.NullVal(ty), ProposedNewState: proposed, Config: it.config, PriorPrivate: it.plannedPrivate,
			})
			diags = append(diags, providercall.Diags(resp.Diagnostics, n.Res.Config, it.addr.String())...)
			if resp.Diagnostics.HasErrors() {
				return cty.DynamicVal, diags
			}
			c.After, c.Private = resp.PlannedState, resp.PlannedPrivate
		}
	}
	if !c.After.IsNull() {
		c.AfterSensitivePaths = eval.MergePaths(it.configSensitive, eval.SchemaSensitivePaths(sch.Block, c.After))
	}
	w.res.addChange(n.Key, c, d.Provenance)
	w.recordExplanation(c, it)
	if act == action.Delete || act == action.Forget {
		return cty.NullVal(ty), diags
	}
	return eval.MarkPaths(c.After, c.AfterSensitivePaths), diags
}

// applyDataDecision reads a data source now or plans the read for apply.
func (w *planWalker) applyDataDecision(ctx context.Context, rn *resourceNode, it *instPlan, d rules.Decision) (cty.Value, hcl.Diagnostics) {
	n := rn.n
	sch := rn.schema
	ty := eval.ImpliedType(sch.Block)
	act, _ := action.FromRuleName(d.Action) // NoOp for rules.ActionNone
	if !it.hasConfig {
		// Orphaned data instances leave the state silently.
		if it.deposed == state.NotDeposed {
			w.res.setPrior(it.addr, state.NotDeposed, nil, rn.provAddr, nil)
		}
		if act == action.Delete && w.opts.Mode == plan.DestroyMode {
			w.res.addChange(n.Key, &plan.ResourceInstanceChange{
				Addr: it.addr, PrevRunAddr: it.addr, Provider: rn.provAddr, Action: action.Delete,
				Before: it.prior, After: cty.NullVal(ty), SchemaVersion: uint64(sch.Version),
			}, d.Provenance)
		}
		return cty.NullVal(ty), nil
	}
	switch {
	case act == action.Read && plan.Reason(d.Reason) == plan.ReasonReadBecauseCheckNested:
		return w.readCheckNested(ctx, rn, it, d)
	case act == action.Read:
		return w.recordRead(rn, it, d, objchange.PlannedDataResourceObject(sch.Block, it.config), it.configSensitive), nil
	case d.Action == rules.ActionNone:
		if w.opts.Mode == plan.DestroyMode {
			return cty.NullVal(ty), nil
		}
		return w.readDataNow(ctx, rn, it)
	}
	return cty.NullVal(ty), nil
}

// readCheckNested reads a data source of a check block now, so the check
// sees its value, and records a read so that apply reads it again. A read
// that fails leaves the value unknown: the check, not the plan, reports it.
func (w *planWalker) readCheckNested(ctx context.Context, rn *resourceNode, it *instPlan, d rules.Decision) (cty.Value, hcl.Diagnostics) {
	v, diags := w.readDataNow(ctx, rn, it)
	if diags.HasErrors() || !v.IsKnown() {
		return w.recordRead(rn, it, d, objchange.PlannedDataResourceObject(rn.schema.Block, it.config), it.configSensitive), diags
	}
	after, sens := eval.UnmarkPaths(v)
	return w.recordRead(rn, it, d, after, sens), diags
}

// recordRead records a planned read of a data instance whose value is
// after (unmarked, sensitive at sens) and returns the value dependents see.
func (w *planWalker) recordRead(rn *resourceNode, it *instPlan, d rules.Decision, after cty.Value, sens []cty.Path) cty.Value {
	c := &plan.ResourceInstanceChange{
		Addr: it.addr, PrevRunAddr: it.addr, Provider: rn.provAddr, Action: action.Read,
		Reason: plan.Reason(d.Reason), Before: cty.NullVal(eval.ImpliedType(rn.schema.Block)), After: after,
		AfterSensitivePaths: sens, SchemaVersion: uint64(rn.schema.Version),
	}
	w.res.addChange(rn.n.Key, c, d.Provenance)
	w.recordExplanation(c, it)
	return eval.MarkPaths(after, sens)
}

// readDataNow reads a data source during planning and stores the result
// in the prior state.
func (w *planWalker) readDataNow(ctx context.Context, rn *resourceNode, it *instPlan) (cty.Value, hcl.Diagnostics) {
	n := rn.n
	if w.opts.FromState && it.priorSrc != nil {
		if v, err := eval.DecodeObject(ctx, rn.provider, rn.schema, rn.typ, it.priorSrc); err == nil {
			return eval.MarkPaths(v, it.priorSrc.SensitivePaths), nil
		}
	}
	vresp := rn.provider.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: rn.typ, Config: it.config})
	diags := providercall.Diags(vresp.Diagnostics, n.Res.Config, it.addr.String())
	if vresp.Diagnostics.HasErrors() {
		return cty.DynamicVal, diags
	}
	if w.env.Hooks != nil {
		w.env.Hooks.PreApply(it.addr, state.NotDeposed, action.Read, "", "")
	}
	resp := rn.provider.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: rn.typ, Config: it.config, Address: it.addr.String()})
	diags = append(diags, providercall.Diags(resp.Diagnostics, n.Res.Config, it.addr.String())...)
	if w.env.Hooks != nil {
		idKey, idVal := eval.ObjectID(resp.State)
		w.env.Hooks.PostApply(it.addr, state.NotDeposed, action.Read, idKey, idVal, 0, resp.Diagnostics.HasErrors())
	}
	if resp.Diagnostics.HasErrors() {
		return cty.DynamicVal, diags
	}
	v := resp.State
	if v == cty.NilVal || v.IsNull() {
		return cty.DynamicVal, append(diags, eval.Errorf(nodes.Range(n), "Provider produced null object", "Provider %q produced a null value for %s. This is a bug in the provider.", rn.provAddr.Provider, it.addr))
	}
	if !v.IsWhollyKnown() {
		return cty.DynamicVal, append(diags, eval.Errorf(nodes.Range(n), "Provider produced invalid object", "Provider %q produced a value for %s that is not wholly known. This is a bug in the provider.", rn.provAddr.Provider, it.addr))
	}
	sens := eval.MergePaths(it.configSensitive, eval.SchemaSensitivePaths(rn.schema.Block, v))
	obj, err := eval.EncodeObject(eval.MarkPaths(v, sens), rn.schema, nil, false, nil, state.ObjectReady)
	if err != nil {
		return cty.DynamicVal, append(diags, eval.Errorf(nodes.Range(n), "Provider produced invalid object", "Provider %q produced an invalid value for %s: %s.", rn.provAddr.Provider, it.addr, err))
	}
	w.res.setPrior(it.addr, state.NotDeposed, obj, rn.provAddr, nil)
	return eval.MarkPaths(v, sens), diags
}
