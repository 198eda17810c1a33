package applying

import (
	"context"
	"sort"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
	"github.com/tenetplan/tenet/state"
	"github.com/zclconf/go-cty/cty"
)

// visitResource performs a resource's creates, updates, reads and the
// create halves of its replacements, then publishes its values.
func (w *applyWalker) visitResource(ctx context.Context, n *graph.Node) hcl.Diagnostics {
	ctx = providercall.WithResource(ctx, n.Addr)
	var diags hcl.Diagnostics
	var todo []*plan.ResourceInstanceChange
	for _, c := range w.ag.ByNode[n.Key] {
		if c.DeposedKey != state.NotDeposed {
			continue
		}
		switch c.Action {
		case action.Create, action.Update, action.Read, action.DeleteThenCreate, action.CreateThenDelete:
			todo = append(todo, c)
		}
	}
	// Expansion at apply time gives each instance its count/each values.
	reps := map[string]eval.Repetition{}
	type modKeys struct {
		mi   addrs.ModuleInstance
		keys eval.InstanceKeys
	}
	var exps []modKeys
	for _, mi := range w.ev.Exp.ModuleInstances(n.Mod.Path) {
		s := &eval.Scope{Ev: w.ev, Mod: mi, Cfg: n.Mod}
		ik, d := s.Expand(n.Res.Count, n.Res.ForEach)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		exps = append(exps, modKeys{mi, ik})
		for i, k := range ik.Keys {
			reps[n.Addr.Resource.Absolute(mi).Instance(k).String()] = ik.Reps[i]
		}
	}
	if diags.HasErrors() {
		return diags
	}
	applied := make([]cty.Value, len(todo))
	var provider providers.Interface
	var sch *providers.Schema
	if len(todo) > 0 {
		var d hcl.Diagnostics
		provider, sch, d = w.nodeProvider(ctx, n, nil)
		if d.HasErrors() {
			return append(diags, d...)
		}
		index := map[*plan.ResourceInstanceChange]int{}
		for i, c := range todo {
			index[c] = i
		}
		diags = append(diags, w.forEachChange(ctx, todo, func(c *plan.ResourceInstanceChange) hcl.Diagnostics {
			v, d := w.applyInstance(ctx, n, provider, sch, c, reps[c.Addr.String()])
			applied[index[c]] = v
			return d
		})...)
	}
	if diags.HasErrors() {
		return diags
	}
	diags = append(diags, w.unchangedConditions(ctx, n, reps)...)
	if diags.HasErrors() {
		return diags
	}
	// Publish the resource's values for dependents.
	byAddr := map[string]cty.Value{}
	for i, c := range todo {
		if applied[i] != cty.NilVal {
			byAddr[c.Addr.String()] = applied[i]
		}
	}
	if sch == nil {
		sch = n.Schema
	}
	targeted := len(w.p.TargetAddrs) > 0 || len(w.p.ExcludeAddrs) > 0
	for _, ex := range exps {
		vals := make([]cty.Value, len(ex.keys.Keys))
		for i, k := range ex.keys.Keys {
			addr := n.Addr.Resource.Absolute(ex.mi).Instance(k)
			if v, ok := byAddr[addr.String()]; ok {
				vals[i] = v
				continue
			}
			vals[i] = w.currentValue(ctx, n, sch, addr)
			if vals[i].IsNull() && targeted {
				// Targeting left this instance uncreated: leave it out
				// rather than show dependents a null object.
				vals[i] = cty.NilVal
			}
		}
		w.ev.Values.Module(ex.mi).Set('r', n.Addr.Resource.String(), eval.PresentKeyedValue(ex.keys.Kind, ex.keys.Keys, vals))
	}
	return diags
}

// resourceConditions evaluates an instance's preconditions or (with
// self) postconditions at apply, when every value is known.
func (w *applyWalker) resourceConditions(s *eval.Scope, n *graph.Node, c *plan.ResourceInstanceChange, rules []*config.CheckRule, self cty.Value, summary string) hcl.Diagnostics {
	if len(rules) == 0 {
		return nil
	}
	status, msgs, diags := eval.EvalConditions(s, rules, self, summary, hcl.DiagError)
	w.ev.Checks.Report(nodes.ResourceCheckable(n), nodes.InstanceObject(c.Addr), status, msgs)
	return diags
}

// unchangedConditions checks the conditions of the instances the plan
// leaves as they are: their results may have been unknown while planning,
// when they referred to objects this apply creates.
func (w *applyWalker) unchangedConditions(ctx context.Context, n *graph.Node, reps map[string]eval.Repetition) hcl.Diagnostics {
	if len(n.Res.Preconditions)+len(n.Res.Postconditions) == 0 {
		return nil
	}
	w.ev.Checks.Declare(nodes.ResourceCheckable(n))
	var diags hcl.Diagnostics
	for _, c := range w.ag.ByNode[n.Key] {
		if c.DeposedKey != state.NotDeposed || c.Action != action.NoOp {
			continue
		}
		s := &eval.Scope{Ev: w.ev, Mod: c.Addr.Module, Cfg: n.Mod, Rep: reps[c.Addr.String()]}
		d := w.resourceConditions(s, n, c, n.Res.Preconditions, cty.NilVal, eval.ResourcePreconditionFailed)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		self := w.currentValue(ctx, n, n.Schema, c.Addr)
		diags = append(diags, w.resourceConditions(s, n, c, n.Res.Postconditions, self, eval.ResourcePostconditionFailed)...)
	}
	return diags
}

// currentValue decodes an instance's current object from the working state.
func (w *applyWalker) currentValue(ctx context.Context, n *graph.Node, sch *providers.Schema, addr addrs.AbsResourceInstance) cty.Value {
	w.mu.Lock()
	ri := w.working.ResourceInstance(addr)
	var obj *state.ObjectSrc
	if ri != nil {
		obj = ri.Current
	}
	w.mu.Unlock()
	if obj == nil {
		return cty.NullVal(eval.ImpliedType(sch.Block))
	}
	v, err := eval.DecodeObject(ctx, nil, sch, n.Addr.Resource.Type, obj)
	if err != nil {
		return cty.DynamicVal
	}
	return eval.MarkPaths(v, obj.SensitivePaths)
}

// applyInstance re-plans one instance with its now-known configuration,
// checks the result against the saved plan, applies it and records it.
func (w *applyWalker) applyInstance(ctx context.Context, n *graph.Node, p providers.Interface, sch *providers.Schema, c *plan.ResourceInstanceChange, rep eval.Repetition) (cty.Value, hcl.Diagnostics) {
	ty := eval.ImpliedType(sch.Block)
	s := &eval.Scope{Ev: w.ev, Mod: c.Addr.Module, Cfg: n.Mod, Rep: rep}
	cfgVal, diags := s.EvalBody(n.Res.Config, n.Spec, n.BodyRefs)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	config, cfgSensitive := eval.UnmarkPaths(cfgVal)
	if !config.IsWhollyKnown() {
		return cty.NilVal, hcl.Diagnostics{eval.Errorf(nodes.Range(n), "Configuration contains unknown value",
			"The configuration of %s still has unknown values at apply time. This is a bug in tenet.", c.Addr)}
	}
	pre := w.resourceConditions(s, n, c, n.Res.Preconditions, cty.NilVal, eval.ResourcePreconditionFailed)
	diags = append(diags, pre...)
	if pre.HasErrors() {
		return cty.NilVal, diags
	}
	if c.Action == action.Read {
		v, d := w.applyRead(ctx, n, p, sch, c, config, cfgSensitive)
		diags = append(diags, d...)
		if !d.HasErrors() {
			diags = append(diags, w.resourceConditions(s, n, c, n.Res.Postconditions, v, eval.ResourcePostconditionFailed)...)
		}
		return v, diags
	}
	deps := w.cg.StoredDependencies(n.Key)
	prior := cty.NullVal(ty)
	var priorPrivate []byte
	if c.Action == action.Update {
		prior = c.Before
		w.mu.Lock()
		if ri := w.working.ResourceInstance(c.Addr); ri != nil && ri.Current != nil {
			priorPrivate = ri.Current.Private
		}
		w.mu.Unlock()
	}
	if c.Action == action.CreateThenDelete {
		w.mu.Lock()
		key := w.working.DeposeResourceInstanceObject(c.Addr)
		w.deposedKeys[c.ChangeKey()] = key
		w.mu.Unlock()
	}
	// The final plan comes before any apply message: an update whose
	// final plan equals the prior object is not applied at all.
	config = w.ignoreForApply(ctx, n, sch, c, prior, config)
	proposed := objchange.ProposedNew(sch.Block, prior, config)
	presp := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: prior, ProposedNewState: proposed, Config: config, PriorPrivate: priorPrivate,
	})
	diags = append(diags, providercall.Diags(presp.Diagnostics, n.Res.Config, c.Addr.String())...)
	if presp.Diagnostics.HasErrors() {
		w.restoreDeposed(c)
		return cty.NilVal, diags
	}
	if d := w.checkFinalPlan(n, sch, c, prior, config, presp); d.HasErrors() {
		w.restoreDeposed(c)
		return cty.NilVal, append(diags, d...)
	}
	if c.Action == action.Update && finalPlanIsNoOp(prior, presp.PlannedState) {
		sens := eval.MergePaths(cfgSensitive, eval.SchemaSensitivePaths(sch.Block, prior))
		diags = append(diags, w.resourceConditions(s, n, c, n.Res.Postconditions, eval.MarkPaths(prior, sens), eval.ResourcePostconditionFailed)...)
		return eval.MarkPaths(prior, sens), diags
	}

	hookAction := action.Create
	if c.Action == action.Update {
		hookAction = action.Update
	}
	idKey, idVal := eval.ObjectID(prior)
	if w.env.Hooks != nil {
		w.env.Hooks.PreApply(c.Addr, state.NotDeposed, hookAction, idKey, idVal)
	}
	start := time.Now()
	fail := func(d hcl.Diagnostics) (cty.Value, hcl.Diagnostics) {
		if w.env.Hooks != nil {
			w.env.Hooks.PostApply(c.Addr, state.NotDeposed, hookAction, "", "", time.Since(start), true)
		}
		w.restoreDeposed(c)
		return cty.NilVal, d
	}
	final := presp.PlannedState
	aresp := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: prior, PlannedState: final, Config: config, PlannedPrivate: presp.PlannedPrivate,
	})
	diags = append(diags, providercall.Diags(aresp.Diagnostics, n.Res.Config, c.Addr.String())...)
	newVal, d := checkApplyResult(nodes.Range(n), sch, c, final, aresp)
	diags = append(diags, d...)
	failed := diags.HasErrors()
	if newVal == cty.NilVal || newVal.IsNull() {
		// Nothing was created (or the result was unusable): the prior
		// object, if any, is still what exists.
		return fail(diags)
	}
	status := state.ObjectReady
	if failed && c.Action != action.Update {
		status = state.ObjectTainted
	}
	sens := eval.MergePaths(cfgSensitive, eval.SchemaSensitivePaths(sch.Block, newVal))
	obj, err := eval.EncodeObject(eval.MarkPaths(newVal, sens), sch, deps, c.CreateBeforeDestroy, aresp.Private, status)
	if err != nil {
		return fail(append(diags, eval.Errorf(nodes.Range(n), "Provider returned invalid result object after apply", "Provider %q returned an object for %s that does not fit its schema: %s.", c.Provider.Provider, c.Addr, err)))
	}
	w.record(c.Addr, state.NotDeposed, obj, c.Provider)
	// Creation-time provisioners run once the new object is recorded, and
	// only for a new object the provider made without error: a failure
	// taints it, recorded like any other completed operation, and the
	// operation fails (its completion line comes after them).
	if provs := createProvisioners(n.Res); len(provs) > 0 && !failed && hookAction == action.Create {
		self := eval.MarkPaths(newVal, sens)
		if n.Res.Count == nil && n.Res.ForEach == nil {
			// The provisioners may name the resource itself (the graph
			// allows it): its one object is this one. Nothing else reads
			// the value before the node publishes it.
			w.ev.Values.Module(c.Addr.Module).Set('r', n.Addr.Resource.String(), self)
		}
		pd := w.provision(w.sched, provisioning{addr: c.Addr, scope: s, conn: n.Res.Managed.Connection, provs: provs, self: self})
		diags = append(diags, pd...)
		if pd.HasErrors() {
			failed = true
			tainted := *obj
			tainted.Status = state.ObjectTainted
			w.record(c.Addr, state.NotDeposed, &tainted, c.Provider)
		}
	}
	if w.env.Hooks != nil {
		k, v := eval.ObjectID(newVal)
		w.env.Hooks.PostApply(c.Addr, state.NotDeposed, hookAction, k, v, time.Since(start), failed)
	}
	if !failed {
		// The object exists and is recorded; a failing postcondition
		// stops its dependents, not its own state.
		diags = append(diags, w.resourceConditions(s, n, c, n.Res.Postconditions, eval.MarkPaths(newVal, sens), eval.ResourcePostconditionFailed)...)
	}
	return eval.MarkPaths(newVal, sens), diags
}

// restoreDeposed puts back the object a failed create_before_destroy
// replacement had deposed, if no new object took its place.
func (w *applyWalker) restoreDeposed(c *plan.ResourceInstanceChange) {
	if c.Action != action.CreateThenDelete {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	key, ok := w.deposedKeys[c.ChangeKey()]
	if !ok {
		return
	}
	if w.working.MaybeRestoreResourceInstanceDeposed(c.Addr, key) {
		delete(w.deposedKeys, c.ChangeKey())
	}
}

// applyRead reads a data source whose read was deferred to apply.
func (w *applyWalker) applyRead(ctx context.Context, n *graph.Node, p providers.Interface, sch *providers.Schema, c *plan.ResourceInstanceChange, config cty.Value, cfgSensitive []cty.Path) (cty.Value, hcl.Diagnostics) {
	if w.env.Hooks != nil {
		w.env.Hooks.PreApply(c.Addr, state.NotDeposed, action.Read, "", "")
	}
	start := time.Now()
	resp := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: c.Addr.Resource.Resource.Type, Config: config, Address: c.Addr.String()})
	diags := providercall.Diags(resp.Diagnostics, n.Res.Config, c.Addr.String())
	v := resp.State
	if !diags.HasErrors() {
		switch {
		case v == cty.NilVal || v.IsNull():
			diags = append(diags, eval.Errorf(nodes.Range(n), "Provider produced null object", "Provider %q produced a null value for %s."+providercall.BugNote, c.Provider.Provider, c.Addr))
		case len(objchange.AssertObjectConforms(sch.Block, v)) > 0:
			diags = append(diags, providercall.InvalidObjectDiags(nodes.Range(n), c.Provider.Provider, c.Addr, "when reading the data source", objchange.AssertObjectConforms(sch.Block, v))...)
		case !v.IsWhollyKnown():
			for _, p := range objchange.UnknownPaths(v) {
				diags = append(diags, eval.Errorf(nodes.Range(n), "Provider produced invalid object", "Provider %q produced a value for %s that is not wholly known: %s is unknown."+providercall.BugNote, c.Provider.Provider, c.Addr, providercall.ContractPath(c.Addr, p)))
			}
		}
	}
	if w.env.Hooks != nil {
		k, id := eval.ObjectID(v)
		w.env.Hooks.PostApply(c.Addr, state.NotDeposed, action.Read, k, id, time.Since(start), diags.HasErrors())
	}
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	sens := eval.MergePaths(cfgSensitive, eval.SchemaSensitivePaths(sch.Block, v))
	obj, err := eval.EncodeObject(eval.MarkPaths(v, sens), sch, nil, false, nil, state.ObjectReady)
	if err != nil {
		return cty.NilVal, append(diags, eval.Errorf(nodes.Range(n), "Provider produced invalid object", "%s", err))
	}
	w.record(c.Addr, state.NotDeposed, obj, c.Provider)
	return eval.MarkPaths(v, sens), diags
}

// visitDestroy performs a resource's deletes and forgets.
func (w *applyWalker) visitDestroy(ctx context.Context, resKey string) hcl.Diagnostics {
	n := w.cg.Nodes[resKey]
	if n != nil {
		ctx = providercall.WithResource(ctx, n.Addr)
	}
	var todo []*plan.ResourceInstanceChange
	for _, c := range w.ag.ByNode[resKey] {
		switch c.Action {
		case action.Delete, action.Forget, action.DeleteThenCreate, action.CreateThenDelete:
			todo = append(todo, c)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	sort.SliceStable(todo, func(i, j int) bool { return graph.ChangeLess(todo[i], todo[j]) })
	p, sch, diags := w.nodeProvider(ctx, n, todo[0])
	if diags.HasErrors() {
		return diags
	}
	return append(diags, w.forEachChange(ctx, todo, func(c *plan.ResourceInstanceChange) hcl.Diagnostics {
		return w.destroyInstance(ctx, n, p, sch, c)
	})...)
}

func (w *applyWalker) destroyInstance(ctx context.Context, n *graph.Node, p providers.Interface, sch *providers.Schema, c *plan.ResourceInstanceChange) hcl.Diagnostics {
	deposed := c.DeposedKey
	if c.Action == action.CreateThenDelete {
		w.mu.Lock()
		key, ok := w.deposedKeys[c.ChangeKey()]
		w.mu.Unlock()
		if !ok {
			return nil // the create half failed and restored the old object
		}
		deposed = key
	}
	if c.Action == action.Forget {
		if w.env.Hooks != nil {
			w.env.Hooks.PreApply(c.Addr, deposed, action.Forget, "", "")
		}
		w.record(c.Addr, deposed, nil, c.Provider)
		if w.env.Hooks != nil {
			w.env.Hooks.PostApply(c.Addr, deposed, action.Forget, "", "", 0, false)
		}
		return nil
	}
	if c.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
		w.record(c.Addr, deposed, nil, c.Provider)
		return nil
	}
	prior := c.Before
	var private []byte
	var sensitive []cty.Path
	tainted := false
	w.mu.Lock()
	if ri := w.working.ResourceInstance(c.Addr); ri != nil {
		obj := ri.Current
		if deposed != state.NotDeposed {
			obj = ri.Deposed[deposed]
		}
		if obj != nil {
			private = obj.Private
			sensitive = obj.SensitivePaths
			tainted = obj.Status == state.ObjectTainted
			if v, err := eval.DecodeObject(ctx, nil, sch, c.Addr.Resource.Resource.Type, obj); err == nil {
				prior = v
			}
		}
	}
	w.mu.Unlock()
	idKey, idVal := eval.ObjectID(prior)
	if w.env.Hooks != nil {
		w.env.Hooks.PreApply(c.Addr, deposed, action.Delete, idKey, idVal)
	}
	start := time.Now()
	var diags hcl.Diagnostics
	// Destroy-time provisioners run before the current object (never a
	// deposed one) is destroyed, unless it is tainted; if one fails the
	// object is kept.
	if deposed == state.NotDeposed && !tainted {
		if pr, ok := w.destroyProvisioning(n, c, eval.MarkPaths(prior, sensitive)); ok {
			diags = w.provision(w.sched, pr)
			if diags.HasErrors() {
				if w.env.Hooks != nil {
					w.env.Hooks.PostApply(c.Addr, deposed, action.Delete, "", "", time.Since(start), true)
				}
				return diags
			}
		}
	}
	resp := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: prior, PlannedState: cty.NullVal(eval.ImpliedType(sch.Block)),
		Config: cty.NullVal(eval.ImpliedType(sch.Block)), PlannedPrivate: private,
	})
	var body hcl.Body
	if n != nil && n.Res != nil {
		body = n.Res.Config
	}
	diags = append(diags, providercall.Diags(resp.Diagnostics, body, "")...)
	if !diags.HasErrors() && resp.NewState != cty.NilVal && !resp.NewState.IsNull() {
		diags = append(diags, eval.Errorf(nil, "Provider returned invalid result object after apply",
			"After deleting %s, provider %q returned a non-null object. This is a bug in the provider.", c.Addr, c.Provider.Provider))
	}
	if w.env.Hooks != nil {
		w.env.Hooks.PostApply(c.Addr, deposed, action.Delete, "", "", time.Since(start), diags.HasErrors())
	}
	if diags.HasErrors() {
		return diags
	}
	w.record(c.Addr, deposed, nil, c.Provider)
	return diags
}
