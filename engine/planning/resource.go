package planning

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/ignorechanges"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
)

// instPlan carries one resource instance object through planning.
// instanceID names an instance of a resource node: its module instance's
// address and its key.
type instanceID struct {
	mod string
	key addrs.InstanceKey
}

type instPlan struct {
	addr    addrs.AbsResourceInstance
	modID   string // addr.Module.String()
	deposed state.DeposedKey
	rep     eval.Repetition

	hasConfig       bool
	config          cty.Value // unmarked
	configSensitive []cty.Path

	priorSrc       *state.ObjectSrc
	prior          cty.Value // refreshed object, or null
	priorSensitive []cty.Path
	tainted        bool

	planned         cty.Value
	plannedPrivate  []byte
	requiresReplace []cty.Path
	hasPlanned      bool

	// readyToPlan: refreshed, evaluated and validated; ignore holds the
	// prepare stage's decision (nil: nothing ignored); importID is set when
	// an import block brought the prior object in during this plan.
	readyToPlan bool
	ignore      *rules.Preparation
	importID    string
	// prepared is the prepare stage's result even when nothing is ignored:
	// the decide stage reuses the values it presented to the rules.
	prepared *rules.Preparation

	fact rules.Instance
}

// resourceNode is what planning one resource node needs beyond the graph node.
type resourceNode struct {
	n        *graph.Node
	schema   *providers.Schema
	provider providers.Interface
	provAddr addrs.AbsProviderConfig
	mode     addrs.ResourceMode
	typ      string
	// addrStr is n.addr.String(), which facts and preparation need once
	// per instance.
	addrStr string
	// validated remembers the provider's verdict on each distinct
	// configuration of the node's instances.
	validated providercall.ValidationCache
}

// ensureProvider configures (once) the provider configuration a node uses.
func (w *planWalker) ensureProvider(ctx context.Context, addr addrs.AbsProviderConfig, pc *config.Provider) (providers.Interface, hcl.Diagnostics) {
	return nodes.ConfigureProvider(ctx, w.ps, w.ev, w.cfg, addr, pc, &w.provMu, w.provConfigs)
}

func (w *planWalker) visitResource(ctx context.Context, n *graph.Node) hcl.Diagnostics {
	ctx = providercall.WithResource(ctx, n.Addr)
	if n.Res != nil && len(n.Res.Preconditions)+len(n.Res.Postconditions) > 0 {
		w.ev.Checks.Declare(nodes.ResourceCheckable(n))
	}
	rn, diags := w.prepareResource(ctx, n)
	if diags.HasErrors() || rn == nil {
		return diags
	}
	var items []*instPlan
	// Configured instances, per module instance. Instances are found by
	// module and key rather than by address string: formatting 100,000
	// addresses several times over on one core was a tenth of a plan.
	configured := map[instanceID]bool{}
	type modExpansion struct {
		mi    addrs.ModuleInstance
		modID string
		keys  eval.InstanceKeys
	}
	var expansions []modExpansion
	total := 0 // instances over every module instance, bounded as one expansion is
	if n.Kind == graph.NodeResource && w.opts.Mode != plan.DestroyMode {
		for _, mi := range w.ev.Exp.ModuleInstances(n.Mod.Path) {
			s := &eval.Scope{Ev: w.ev, Mod: mi, Cfg: n.Mod}
			ik, d := s.Expand(n.Res.Count, n.Res.ForEach)
			diags = append(diags, d...)
			if d.HasErrors() {
				w.ev.Values.Module(mi).Set('r', n.Addr.Resource.String(), cty.DynamicVal)
				continue
			}
			total += len(ik.Keys)
			if total > eval.MaxInstances {
				diags = append(diags, eval.TooManyInstancesInAll(eval.RepetitionRange(n.Res.Count, n.Res.ForEach), eval.RepetitionName(ik.Kind)))
				return diags
			}
			expansions = append(expansions, modExpansion{mi: mi, modID: mi.String(), keys: ik})
		}
		if diags.HasErrors() {
			return diags
		}
		// Instances are made once the total is known to be bounded.
		items = make([]*instPlan, 0, total)
		for _, ex := range expansions {
			abs := n.Addr.Resource.Absolute(ex.mi)
			for i, k := range ex.keys.Keys {
				configured[instanceID{ex.modID, k}] = true
				items = append(items, &instPlan{addr: abs.Instance(k), modID: ex.modID, rep: ex.keys.Reps[i], hasConfig: true})
			}
		}
	}
	// Objects the state knows of.
	byID := make(map[instanceID]*instPlan, len(items))
	for _, it := range items {
		byID[instanceID{it.modID, it.addr.Resource.Key}] = it
	}
	for _, rs := range w.stateByResource[rn.addrStr] {
		keys := make([]addrs.InstanceKey, 0, len(rs.Instances))
		for k := range rs.Instances {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return addrs.KeyLess(keys[i], keys[j]) })
		modID := rs.Addr.Module.String()
		for _, k := range keys {
			ri := rs.Instances[k]
			addr := rs.Addr.Instance(k)
			if ri.Current != nil {
				it := byID[instanceID{modID, k}]
				if it == nil {
					it = &instPlan{addr: addr, modID: modID}
					items = append(items, it)
					byID[instanceID{modID, k}] = it
				}
				it.priorSrc = ri.Current
			}
			dkeys := make([]string, 0, len(ri.Deposed))
			for dk := range ri.Deposed {
				dkeys = append(dkeys, string(dk))
			}
			sort.Strings(dkeys)
			for _, dk := range dkeys {
				items = append(items, &instPlan{addr: addr, modID: modID, deposed: state.DeposedKey(dk), priorSrc: ri.Deposed[state.DeposedKey(dk)]})
			}
		}
	}

	// Refresh, evaluate and ask the provider, instance by instance, with
	// the ignore_changes paths the prepare stage decides per batch.
	items = w.filterTargetInstances(n, items)
	diags = append(diags, w.importInstances(ctx, rn, items)...)
	if diags.HasErrors() {
		return diags
	}
	par := w.opts.parallelism()
	diags = append(diags, providercall.EachProviderCall(rn.provider, par, len(items), func(i int) hcl.Diagnostics {
		return w.prepareInstance(ctx, rn, items[i])
	})...)
	if diags.HasErrors() {
		return diags
	}
	diags = append(diags, w.prepareIgnores(ctx, rn, items)...)
	diags = append(diags, providercall.EachProviderCall(rn.provider, par, len(items), func(i int) hcl.Diagnostics {
		if !items[i].readyToPlan {
			return nil
		}
		return w.planInstance(ctx, rn, items[i])
	})...)
	if diags.HasErrors() {
		return diags
	}

	// Decide, all instances in one batch.
	batch := make([]rules.Instance, len(items))
	providercall.EachParallel(len(items), func(i int) hcl.Diagnostics {
		batch[i] = w.facts(rn, items[i], configured)
		return nil
	})
	diags = append(diags, w.evalTriggers(ctx, rn, items, batch)...)
	if diags.HasErrors() {
		return diags
	}
	decisions, err := w.env.Rules.Decide(ctx, w.run, batch)
	if err != nil {
		return append(diags, rulesFailed(err, nodes.Range(n)))
	}

	afters := make([]cty.Value, len(items))
	diags = append(diags, providercall.EachProviderCall(rn.provider, par, len(items), func(i int) hcl.Diagnostics {
		var diags hcl.Diagnostics
		it, d := items[i], decisions[i]
		it.fact = batch[i]
		for _, f := range d.Errors {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: f.Summary, Detail: f.Detail, Subject: nodes.Range(n)})
		}
		for _, f := range d.Warnings {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: f.Summary, Detail: f.Detail, Subject: nodes.Range(n)})
		}
		after, moreDiags := w.applyDecision(ctx, rn, it, d)
		afters[i] = after
		diags = append(diags, moreDiags...)
		if !moreDiags.HasErrors() && it.hasConfig && it.deposed == state.NotDeposed && after != cty.NilVal && !after.IsNull() {
			s := &eval.Scope{Ev: w.ev, Mod: it.addr.Module, Cfg: n.Mod, Rep: it.rep}
			diags = append(diags, w.resourceConditions(s, rn, it, n.Res.Postconditions, after, eval.ResourcePostconditionFailed)...)
		}
		return diags
	})...)
	afterVals := make(map[instanceID]cty.Value, len(items))
	refreshOnly := w.opts.Mode == plan.RefreshOnlyMode && rn.mode == addrs.ManagedResourceMode
	for i, it := range items {
		if it.hasConfig && it.deposed == state.NotDeposed {
			after := afters[i]
			if refreshOnly && (after == cty.NilVal || after.IsNull()) {
				// A refresh-only plan creates nothing: an object the
				// state lacks (or that was deleted outside) is not known
				// yet, as in OpenTofu, rather than null.
				after = cty.DynamicVal
			}
			afterVals[instanceID{it.modID, it.addr.Resource.Key}] = after
		}
	}

	// The whole-resource value each module instance's expressions see.
	if n.Kind == graph.NodeResource {
		for _, ex := range expansions {
			if w.opts.FromState && w.prevRun.Resource(n.Addr.Resource.Absolute(ex.mi)) == nil {
				w.ev.Values.Module(ex.mi).Set('r', n.Addr.Resource.String(), cty.DynamicVal)
				continue
			}
			vals := make([]cty.Value, len(ex.keys.Keys))
			for i, k := range ex.keys.Keys {
				v, ok := afterVals[instanceID{ex.modID, k}]
				switch {
				case ok:
				case w.targets != nil:
					// Left out by targeting: dependents see the object as
					// it is, or nothing when there is none yet.
					v = w.untargetedValue(ctx, rn, ex.mi, k)
				default:
					v = cty.DynamicVal
				}
				vals[i] = v
			}
			w.ev.Values.Module(ex.mi).Set('r', n.Addr.Resource.String(), eval.PresentKeyedValue(ex.keys.Kind, ex.keys.Keys, vals))
		}
	}
	return diags
}

// resourceConditions evaluates an instance's preconditions or (with self)
// postconditions and records the instance's check status. Results that
// are not known yet are checked again at apply.
func (w *planWalker) resourceConditions(s *eval.Scope, rn *resourceNode, it *instPlan, rules []*config.CheckRule, self cty.Value, summary string) hcl.Diagnostics {
	if len(rules) == 0 {
		return nil
	}
	status, msgs, diags := eval.EvalConditions(s, rules, self, summary, w.ev.CondSeverity)
	w.ev.Checks.Report(nodes.ResourceCheckable(rn.n), nodes.InstanceObject(it.addr), status, msgs)
	return diags
}

// untargetedValue is the prior object of an instance targeting left
// alone, or cty.NilVal when it has none.
func (w *planWalker) untargetedValue(ctx context.Context, rn *resourceNode, mi addrs.ModuleInstance, k addrs.InstanceKey) cty.Value {
	addr := rn.n.Addr.Resource.Absolute(mi).Instance(k)
	ri := w.res.priorInstance(addr)
	if ri == nil || ri.Current == nil {
		return cty.NilVal
	}
	v, err := eval.DecodeObject(ctx, rn.provider, rn.schema, rn.typ, ri.Current)
	if err != nil {
		return cty.DynamicVal
	}
	return eval.MarkPaths(v, ri.Current.SensitivePaths)
}

// prepareResource finds the node's schema and configured provider.
func (w *planWalker) prepareResource(ctx context.Context, n *graph.Node) (*resourceNode, hcl.Diagnostics) {
	rn := &resourceNode{n: n, mode: n.Addr.Resource.Mode, typ: n.Addr.Resource.Type, addrStr: n.Addr.String()}
	if n.Kind == graph.NodeResource {
		rn.schema, rn.provAddr = n.Schema, n.Provider
		p, diags := w.ensureProvider(ctx, n.Provider, n.ProvCfg)
		rn.provider = p
		return rn, diags
	}
	// A resource only the state knows: use the provider it was made with.
	states := w.stateByResource[n.Addr.String()]
	if len(states) == 0 {
		return nil, nil
	}
	rn.provAddr = states[0].ProviderConfig
	sch, err := w.ps.ResourceSchema(ctx, rn.provAddr.Provider, rn.mode, rn.typ)
	if err != nil || sch == nil {
		detail := fmt.Sprintf("The state has objects of %s, which needs provider %s, but that provider does not offer this type.", n.Addr, rn.provAddr.Provider)
		if err != nil {
			detail = err.Error() + "."
		}
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Provider not available", Detail: detail}}
	}
	rn.schema = sch
	var pc *config.Provider
	if m := w.cfg.Descendant(rn.provAddr.Module); m != nil {
		for _, c := range m.ProviderConfigs {
			if p, _ := m.ProviderForResource(&config.Resource{Type: rn.provAddr.Provider.Type}); p == rn.provAddr.Provider && c.Alias == rn.provAddr.Alias {
				pc = c
			}
		}
	}
	p, diags := w.ensureProvider(ctx, rn.provAddr, pc)
	rn.provider = p
	return rn, diags
}

// prepareInstance refreshes the prior object, evaluates the configuration
// and asks the provider for a plan: everything the rules need as facts.
func (w *planWalker) prepareInstance(ctx context.Context, rn *resourceNode, it *instPlan) hcl.Diagnostics {
	var diags hcl.Diagnostics
	sch := rn.schema
	ty := eval.ImpliedType(sch.Block)
	it.prior = cty.NullVal(ty)
	n := rn.n

	if it.priorSrc != nil && rn.mode == addrs.ManagedResourceMode {
		v, err := eval.DecodeObject(ctx, rn.provider, sch, rn.typ, it.priorSrc)
		if err != nil {
			return hcl.Diagnostics{eval.Errorf(nil, "Invalid resource instance data in state",
				"Instance %s data could not be decoded from the state: %s.", it.addr, err)}
		}
		it.prior = v
		it.priorSensitive = it.priorSrc.SensitivePaths
		it.tainted = it.priorSrc.Status == state.ObjectTainted && it.deposed == state.NotDeposed
		if !w.opts.SkipRefresh && it.importID == "" {
			refreshed, d := w.refresh(ctx, rn, it)
			diags = append(diags, d...)
			if d.HasErrors() {
				return diags
			}
			it.prior = refreshed
		}
	}

	if !it.hasConfig || it.deposed != state.NotDeposed {
		return diags
	}
	s := &eval.Scope{Ev: w.ev, Mod: it.addr.Module, Cfg: n.Mod, Rep: it.rep}
	cfgVal, d := s.EvalBody(n.Res.Config, n.Spec, n.BodyRefs)
	diags = append(diags, d...)
	if d.HasErrors() {
		return diags
	}
	if d := eval.CheckValueDepth(cfgVal, n.Res.DeclRange.Ptr(), "The configuration of "+it.addr.String()); d.HasErrors() {
		return append(diags, d...)
	}
	it.config, it.configSensitive = eval.UnmarkPaths(cfgVal)
	d = w.resourceConditions(s, rn, it, n.Res.Preconditions, cty.NilVal, eval.ResourcePreconditionFailed)
	diags = append(diags, d...)
	if d.HasErrors() {
		return diags // a failed precondition stops this instance's plan
	}

	if rn.mode == addrs.DataResourceMode {
		return diags
	}
	if w.opts.Mode == plan.RefreshOnlyMode {
		return diags
	}
	vdiags := rn.validated.Validate(ctx, rn.provider, rn.typ, it.config)
	diags = append(diags, providercall.Diags(vdiags, n.Res.Config, it.addr.String())...)
	if vdiags.HasErrors() {
		return diags
	}
	it.readyToPlan = true
	return diags
}

// planInstance asks the provider for a plan of a prepared instance, with
// the ignored configuration paths taking their prior values.
func (w *planWalker) planInstance(ctx context.Context, rn *resourceNode, it *instPlan) hcl.Diagnostics {
	var diags hcl.Diagnostics
	sch := rn.schema
	ty := eval.ImpliedType(sch.Block)
	n := rn.n
	prior := it.prior
	var priorPrivate []byte
	if it.tainted {
		prior = cty.NullVal(ty)
	} else if it.priorSrc != nil {
		priorPrivate = it.priorSrc.Private
	}
	planConfig := ignorechanges.Apply(sch.Block, prior, it.config, it.ignore)
	proposed := objchange.ProposedNew(sch.Block, prior, planConfig)
	resp := rn.provider.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: rn.typ, PriorState: prior, ProposedNewState: proposed, Config: planConfig, PriorPrivate: priorPrivate,
	})
	diags = append(diags, providercall.Diags(resp.Diagnostics, n.Res.Config, it.addr.String())...)
	if resp.Diagnostics.HasErrors() {
		return diags
	}
	if errs := objchange.AssertObjectConforms(sch.Block, resp.PlannedState); len(errs) > 0 {
		return append(diags, providercall.InvalidPlanDiags(n.Res.DeclRange.Ptr(), rn.provAddr.Provider, it.addr, errs)...)
	}
	if errs := objchange.AssertPlanValid(sch.Block, prior, planConfig, resp.PlannedState); len(errs) > 0 {
		return append(diags, providercall.InvalidPlanDiags(n.Res.DeclRange.Ptr(), rn.provAddr.Provider, it.addr, errs)...)
	}
	it.planned, it.plannedPrivate, it.hasPlanned = resp.PlannedState, resp.PlannedPrivate, true
	if !prior.IsNull() {
		for _, p := range resp.RequiresReplace {
			if eval.PathChanged(prior, it.planned, p) {
				it.requiresReplace = append(it.requiresReplace, p)
			}
		}
	}
	return diags
}

// refresh reads the remote object and records the result in the prior state.
func (w *planWalker) refresh(ctx context.Context, rn *resourceNode, it *instPlan) (cty.Value, hcl.Diagnostics) {
	idKey, idVal := eval.ObjectID(it.prior)
	if w.env.Hooks != nil {
		w.env.Hooks.PreRefresh(it.addr, it.deposed, idKey, idVal)
	}
	resp := rn.provider.ReadResource(ctx, providers.ReadResourceRequest{TypeName: rn.typ, PriorState: it.prior, Private: it.priorSrc.Private})
	diags := providercall.Diags(resp.Diagnostics, nil, "")
	if resp.Diagnostics.HasErrors() {
		return it.prior, diags
	}
	newVal := resp.NewState
	if newVal == cty.NilVal {
		newVal = cty.NullVal(eval.ImpliedType(rn.schema.Block))
	}
	if w.env.Hooks != nil {
		w.env.Hooks.PostRefresh(it.addr, it.deposed, idKey, idVal)
	}
	if newVal.IsNull() {
		w.res.setPrior(it.addr, it.deposed, nil, rn.provAddr, driftOf(rn, it, newVal))
		return newVal, diags
	}
	if !newVal.RawEquals(it.prior) {
		obj, err := eval.EncodeObject(eval.MarkPaths(newVal, it.priorSensitive), rn.schema, it.priorSrc.Dependencies, it.priorSrc.CreateBeforeDestroy, resp.Private, it.priorSrc.Status)
		if err != nil {
			return it.prior, append(diags, eval.Errorf(nil, "Provider produced invalid object", "Provider %q returned an object for %s that does not match the schema: %s.", rn.provAddr.Provider, it.addr, err))
		}
		w.res.setPrior(it.addr, it.deposed, obj, rn.provAddr, driftOf(rn, it, newVal))
	}
	return newVal, diags
}

// driftOf is the drift entry of an object refresh found changed outside
// tenet, or nil when the plan lists none for it.
func driftOf(rn *resourceNode, it *instPlan, newVal cty.Value) *plan.ResourceInstanceChange {
	if it.deposed != state.NotDeposed || rn.mode != addrs.ManagedResourceMode {
		return nil
	}
	act := action.Update
	if newVal.IsNull() {
		act = action.Delete
	}
	return &plan.ResourceInstanceChange{
		Addr: it.addr, PrevRunAddr: it.addr, Provider: rn.provAddr, Action: act,
		Before: it.prior, After: newVal,
		BeforeSensitivePaths: it.priorSensitive, AfterSensitivePaths: it.priorSensitive,
		SchemaVersion: uint64(rn.schema.Version),
	}
}

// validateProvisioners checks the provisioner blocks of every resource
// before anything is planned, as OpenTofu's validation does: once per
// block, with every value unknown (nothing is in the value store yet),
// unknown instance keys and an unknown self.
func (w *planWalker) validateProvisioners(ctx context.Context) hcl.Diagnostics {
	var diags hcl.Diagnostics
	// An evaluator of its own, as validation's: nothing is in its store,
	// and a repeated module call is unknown rather than an empty tuple.
	var vev *eval.Evaluator
	for _, key := range w.cg.Order {
		n := w.cg.Nodes[key]
		if n.Kind != graph.NodeResource || n.Res.Managed == nil || len(n.Res.Managed.Provisioners) == 0 || n.Schema == nil {
			continue
		}
		if vev == nil {
			ev := w.ev
			vev = &eval.Evaluator{Cfg: ev.Cfg, Fsys: ev.Fsys, Values: eval.NewValueStore(), Exp: eval.NewExpansion(), RootDir: ev.RootDir, Cwd: ev.Cwd, Workspace: ev.Workspace,
				Pure: true, Validating: true, PlanTime: ev.PlanTime, Checks: &eval.CheckResults{}, CondSeverity: ev.CondSeverity, ProvFuncs: ev.ProvFuncs}
		}
		kind := byte(0)
		switch {
		case n.Res.Count != nil:
			kind = 'c'
		case n.Res.ForEach != nil:
			kind = 'e'
		}
		mi := make(addrs.ModuleInstance, 0, len(n.Mod.Path))
		for _, name := range n.Mod.Path {
			mi = mi.Child(name, addrs.NoKey)
		}
		s := &eval.Scope{Ev: vev, Mod: mi, Cfg: n.Mod, Rep: eval.UnknownRepetition(kind)}
		diags = append(diags, nodes.ValidateProvisioners(ctx, s, n.Res, cty.UnknownVal(eval.ImpliedType(n.Schema.Block)), false)...)
	}
	return diags
}
