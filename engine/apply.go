package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
	"github.com/tenetplan/tenet/state"
)

// StateRecorder is told about every completed resource operation as it
// happens, so the caller can make it durable before dependents run.
type StateRecorder interface {
	RecordObject(addr addrs.AbsResourceInstance, deposed state.DeposedKey, obj *state.ObjectSrc, provider addrs.AbsProviderConfig) error
}

// applyWalker holds what one apply run shares between graph nodes.
type applyWalker struct {
	e        *Engine
	cfg      *config.Config
	p        *plan.Plan
	ps       *providercall.Set
	ev       *eval.Evaluator
	cg       *graph.Graph
	ag       *graph.ApplyGraph
	recorder StateRecorder
	sem      chan struct{}
	// sched ends when no further operation may start: on ApplyOpts.Stop
	// or the end of Apply's ctx. Provider calls get ctx, which only the
	// hard stop cancels.
	sched context.Context

	mu          sync.Mutex
	working     *state.State
	provConfigs map[string]*nodes.Once
	deposedKeys map[string]state.DeposedKey // change key -> key the create half deposed to
	recordErr   error
	// recordFailing is recordErr != nil, readable without taking mu, which
	// every apply worker checks per operation.
	recordFailing atomic.Bool
}

// Apply carries out a plan. It returns the new state, which is complete
// even when some operations failed: failed creates leave tainted objects,
// failed deletes leave the object in place.
func (e *Engine) Apply(ctx context.Context, cfg *config.Config, p *plan.Plan, opts ApplyOpts, recorder StateRecorder) (*state.State, hcl.Diagnostics) {
	if p.Errored {
		return p.PriorState, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot apply failed plan",
			Detail: "The given plan is incomplete due to errors during planning, and so it cannot be applied."}}
	}
	par := opts.Parallelism
	if par <= 0 {
		par = 10
	}
	// Two contexts, stopped in this order by an interrupt: sched stops
	// scheduling (the walk starts no node, a node no operation) and asks
	// the providers to stop what they are doing; ctx, the hard stop,
	// cancels the provider calls themselves. Operations that complete
	// are recorded either way, so the state written after Apply returns
	// holds everything that happened.
	sched, stopScheduling := context.WithCancel(ctx)
	defer stopScheduling()
	if opts.Stop != nil {
		defer context.AfterFunc(opts.Stop, stopScheduling)()
	}
	w := &applyWalker{
		e: e, cfg: cfg, p: p,
		sched:       sched,
		ps:          providercall.NewSet(e.Providers, e.WorkingDir),
		recorder:    recorder,
		sem:         make(chan struct{}, par),
		working:     p.PriorState.DeepCopy(),
		provConfigs: map[string]*nodes.Once{},
		deposedKeys: map[string]state.DeposedKey{},
	}
	defer w.ps.CloseAll(ctx)
	// Registered after stopScheduling's defer, so it is unregistered
	// before the normal end of Apply cancels sched.
	defer context.AfterFunc(sched, func() { w.ps.StopAll(ctx) })()
	w.ev = &eval.Evaluator{Cfg: cfg, Fsys: e.FS, Values: eval.NewValueStore(), Exp: eval.NewExpansion(), RootDir: ".", Cwd: e.WorkingDir, Workspace: e.workspaceName(), PlanTime: p.Timestamp,
		Checks: &eval.CheckResults{}, CondSeverity: hcl.DiagError, ProvFuncs: providercall.NewFunctions(ctx, w.ps)}
	defer w.ev.ProvFuncs.CloseAll(ctx)
	if opts.Scope != nil {
		opts.Scope.ev = w.ev
	}

	var orphans []addrs.ConfigResource
	seen := map[string]bool{}
	for _, c := range p.Changes {
		cr := c.Addr.Config()
		if !seen[cr.String()] && !configHasResource(cfg, cr) {
			seen[cr.String()] = true
			orphans = append(orphans, cr)
		}
	}
	cg, diags := graph.Build(ctx, cfg, w.ps, orphans)
	if diags.HasErrors() {
		return w.working, diags
	}
	w.cg = cg
	ag, d := graph.BuildApply(cfg, cg, p)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return w.working, diags
	}
	w.ag = ag
	// The plan already read the imported objects: applying takes them in.
	if h, ok := e.Hooks.(ImportHooks); ok {
		for _, c := range p.Changes {
			if c.Importing != nil && c.DeposedKey == state.NotDeposed {
				h.ImportStart(c.Addr, c.Importing.ID)
				h.ImportComplete(c.Addr, c.Importing.ID)
			}
		}
	}
	res := targetedApplyGraph(ag, cg, p).Walk(sched, par, func(_ context.Context, key string) hcl.Diagnostics {
		return w.visit(ctx, key)
	})
	diags = append(diags, res.Diagnostics...)
	diags = reportHaltOnce(diags, res.Err != nil || (opts.Stop != nil && opts.Stop.Err() != nil))
	diags = append(diags, targetingApplyWarning(p)...)

	// Root outputs are saved from the final values.
	root := w.ev.Values.Module(addrs.RootModuleInstance)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.working.Outputs == nil {
		w.working.Outputs = map[string]*state.OutputValue{}
	}
	if p.Mode == plan.DestroyMode {
		w.working.Outputs = map[string]*state.OutputValue{}
	} else {
		for name := range w.working.Outputs {
			if _, ok := cfg.Root.Outputs[name]; !ok {
				delete(w.working.Outputs, name)
			}
		}
		for name, out := range cfg.Root.Outputs {
			v, ok := root.Get('o', name)
			if !ok || !v.IsWhollyKnown() {
				continue
			}
			uv, _ := v.UnmarkDeep()
			if uv.IsNull() {
				delete(w.working.Outputs, name)
				continue
			}
			w.working.Outputs[name] = &state.OutputValue{Value: uv, Sensitive: out.Sensitive || v.ContainsMarked()}
		}
	}
	if p.Mode != plan.DestroyMode {
		w.working.CheckResults = w.ev.Checks.StateCheckResultsJSON()
	} else {
		w.working.CheckResults = nil
	}
	if w.recordErr != nil {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to persist state", Detail: w.recordErr.Error()})
	}
	return w.working, diags
}

func (w *applyWalker) visit(ctx context.Context, key string) hcl.Diagnostics {
	if strings.HasPrefix(key, "destroy:") {
		return w.visitDestroy(ctx, "resource:"+key[len("destroy:"):])
	}
	n := w.cg.Nodes[key]
	if n == nil {
		return nil
	}
	switch n.Kind {
	case graph.NodeVariable:
		if n.Mod.Path.IsRoot() {
			v, ok := w.p.Variables[n.Name]
			if !ok {
				v = cty.DynamicVal
			}
			if n.Variable.Sensitive {
				v = v.Mark(eval.SensitiveMark)
			}
			w.ev.Values.Module(addrs.RootModuleInstance).Set('v', n.Name, v)
			return nil
		}
		return w.quietInDestroy(nodes.Variable(w.ev, nil, n))
	case graph.NodeLocal:
		return w.quietInDestroy(nodes.Local(w.ev, n))
	case graph.NodeOutput:
		if w.p.Mode == plan.DestroyMode {
			// Outputs are removed by a destroy, never evaluated: what they
			// read may already be gone.
			return nil
		}
		return nodes.Output(w.ev, n)
	case graph.NodeCall:
		return nodes.Call(w.ev, n)
	case graph.NodeResource:
		return nodes.CheckScoped(n, w.visitResource(ctx, n))
	case graph.NodeCheck:
		if w.p.Mode == plan.DestroyMode {
			return nil
		}
		return nodes.Check(w.ev, n)
	}
	return nil
}

// quietInDestroy drops evaluation errors during a destroy: values are
// only evaluated there to configure providers, and may refer to objects
// (data sources, destroyed resources) that no longer exist.
func (w *applyWalker) quietInDestroy(diags hcl.Diagnostics) hcl.Diagnostics {
	if w.p.Mode == plan.DestroyMode {
		return nil
	}
	return diags
}

// record updates the working state and tells the recorder.
func (w *applyWalker) record(addr addrs.AbsResourceInstance, deposed state.DeposedKey, obj *state.ObjectSrc, provider addrs.AbsProviderConfig) {
	w.mu.Lock()
	if deposed == state.NotDeposed {
		w.working.SetResourceInstanceCurrent(addr, obj, provider)
	} else {
		w.working.SetResourceInstanceDeposed(addr, deposed, obj, provider)
	}
	w.mu.Unlock()
	// The recorder (the state journal) serialises its own writes. It runs
	// outside mu, which the other workers need: holding mu while encoding
	// and writing each entry made the apply of 100k instances use one core.
	// Entries of one object are still recorded in order, because one
	// object's operations run one after another.
	if w.recorder == nil || w.recordFailing.Load() {
		return
	}
	if err := w.recorder.RecordObject(addr, deposed, obj, provider); err != nil {
		w.mu.Lock()
		if w.recordErr == nil {
			w.recordErr = err
		}
		w.mu.Unlock()
		w.recordFailing.Store(true)
	}
}

// acquire takes an operation slot; false when scheduling has stopped.
func (w *applyWalker) acquire() bool {
	if w.sched.Err() != nil {
		return false
	}
	select {
	case w.sem <- struct{}{}:
		return true
	case <-w.sched.Done():
		return false
	}
}

func (w *applyWalker) release() { <-w.sem }

// forEachChange runs fn for each change, at most the apply's parallelism
// at once, and collects diagnostics in change order.
func (w *applyWalker) forEachChange(ctx context.Context, changes []*plan.ResourceInstanceChange, fn func(*plan.ResourceInstanceChange) hcl.Diagnostics) hcl.Diagnostics {
	out := make([]hcl.Diagnostics, len(changes))
	// A fixed pool of workers, each taking a slot of the run-wide
	// semaphore per operation: never a goroutine per change.
	var next atomic.Int64
	var skipped atomic.Bool
	var wg sync.WaitGroup
	for range min(cap(w.sem), len(changes)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(changes) {
					return
				}
				c := changes[i]
				if w.recordFailed() {
					out[i] = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Operation skipped", Detail: fmt.Sprintf("%s was not changed because the state could not be saved.", c.Addr)}}
					continue
				}
				if !w.acquire() {
					skipped.Store(true)
					continue
				}
				out[i] = fn(c)
				w.release()
			}
		})
	}
	wg.Wait()
	var diags hcl.Diagnostics
	for _, d := range out {
		diags = append(diags, d...)
	}
	if skipped.Load() {
		// The node fails, so nothing treats the skipped instances as
		// applied; Apply reports the halt once.
		diags = append(diags, haltedDiag())
	}
	return diags
}

func (w *applyWalker) recordFailed() bool { return w.recordFailing.Load() }

// nodeProvider configures the provider of a resource node.
func (w *applyWalker) nodeProvider(ctx context.Context, n *graph.Node, c *plan.ResourceInstanceChange) (providers.Interface, *providers.Schema, hcl.Diagnostics) {
	if n != nil && n.Kind == graph.NodeResource {
		p, diags := nodes.ConfigureProvider(ctx, w.ps, w.ev, w.cfg, n.Provider, n.ProvCfg, &w.mu, w.provConfigs)
		return p, n.Schema, diags
	}
	sch, err := w.ps.ResourceSchema(ctx, c.Provider.Provider, c.Addr.Resource.Resource.Mode, c.Addr.Resource.Resource.Type)
	if err != nil || sch == nil {
		return nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Provider not available", Detail: fmt.Sprintf("No provider offers %s.", c.Addr.Resource.Resource.Type)}}
	}
	var pc *config.Provider
	if m := w.cfg.Descendant(c.Provider.Module); m != nil {
		for _, cand := range m.ProviderConfigs {
			if cand.Name == c.Provider.Provider.Type && cand.Alias == c.Provider.Alias {
				pc = cand
			}
		}
	}
	p, diags := nodes.ConfigureProvider(ctx, w.ps, w.ev, w.cfg, c.Provider, pc, &w.mu, w.provConfigs)
	return p, sch, diags
}

// visitResource performs a resource's creates, updates, reads and the
// create halves of its replacements, then publishes its values.
func (w *applyWalker) visitResource(ctx context.Context, n *graph.Node) hcl.Diagnostics {
	ctx = withResource(ctx, n.Addr)
	var diags hcl.Diagnostics
	var todo []*plan.ResourceInstanceChange
	for _, c := range w.ag.ByNode[n.Key] {
		if c.DeposedKey != state.NotDeposed {
			continue
		}
		switch c.Action {
		case plan.Create, plan.Update, plan.Read, plan.DeleteThenCreate, plan.CreateThenDelete:
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
		if c.DeposedKey != state.NotDeposed || c.Action != plan.NoOp {
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
	if c.Action == plan.Read {
		v, d := w.applyRead(ctx, n, p, sch, c, config, cfgSensitive)
		diags = append(diags, d...)
		if !d.HasErrors() {
			diags = append(diags, w.resourceConditions(s, n, c, n.Res.Postconditions, v, eval.ResourcePostconditionFailed)...)
		}
		return v, diags
	}
	deps := make([]addrs.ConfigResource, 0, len(n.ResDeps))
	for _, k := range n.ResDeps {
		deps = append(deps, w.cg.Nodes[k].Addr)
	}
	prior := cty.NullVal(ty)
	var priorPrivate []byte
	if c.Action == plan.Update {
		prior = c.Before
		w.mu.Lock()
		if ri := w.working.ResourceInstance(c.Addr); ri != nil && ri.Current != nil {
			priorPrivate = ri.Current.Private
		}
		w.mu.Unlock()
	}
	if c.Action == plan.CreateThenDelete {
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
	diags = append(diags, providercall.Diags(presp.Diagnostics, n.Res.Config)...)
	if presp.Diagnostics.HasErrors() {
		w.restoreDeposed(c)
		return cty.NilVal, diags
	}
	if d := w.checkFinalPlan(n, sch, c, prior, config, presp); d.HasErrors() {
		w.restoreDeposed(c)
		return cty.NilVal, append(diags, d...)
	}
	if c.Action == plan.Update && finalPlanIsNoOp(prior, presp.PlannedState) {
		sens := eval.MergePaths(cfgSensitive, eval.SchemaSensitivePaths(sch.Block, prior))
		diags = append(diags, w.resourceConditions(s, n, c, n.Res.Postconditions, eval.MarkPaths(prior, sens), eval.ResourcePostconditionFailed)...)
		return eval.MarkPaths(prior, sens), diags
	}

	hookAction := HookCreate
	if c.Action == plan.Update {
		hookAction = HookUpdate
	}
	idKey, idVal := eval.ObjectID(prior)
	if w.e.Hooks != nil {
		w.e.Hooks.PreApply(c.Addr, state.NotDeposed, hookAction, idKey, idVal)
	}
	start := time.Now()
	fail := func(d hcl.Diagnostics) (cty.Value, hcl.Diagnostics) {
		if w.e.Hooks != nil {
			w.e.Hooks.PostApply(c.Addr, state.NotDeposed, hookAction, "", "", time.Since(start), true)
		}
		w.restoreDeposed(c)
		return cty.NilVal, d
	}
	final := presp.PlannedState
	aresp := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: prior, PlannedState: final, Config: config, PlannedPrivate: presp.PlannedPrivate,
	})
	diags = append(diags, providercall.Diags(aresp.Diagnostics, n.Res.Config)...)
	newVal, d := checkApplyResult(nodes.Range(n), sch, c, final, aresp)
	diags = append(diags, d...)
	failed := diags.HasErrors()
	if newVal == cty.NilVal || newVal.IsNull() {
		// Nothing was created (or the result was unusable): the prior
		// object, if any, is still what exists.
		return fail(diags)
	}
	status := state.ObjectReady
	if failed && c.Action != plan.Update {
		status = state.ObjectTainted
	}
	sens := eval.MergePaths(cfgSensitive, eval.SchemaSensitivePaths(sch.Block, newVal))
	obj, err := eval.EncodeObject(eval.MarkPaths(newVal, sens), sch, deps, c.CreateBeforeDestroy, aresp.Private, status)
	if err != nil {
		return fail(append(diags, eval.Errorf(nodes.Range(n), "Provider returned invalid result object after apply", "Provider %q returned an object for %s that does not fit its schema: %s.", c.Provider.Provider, c.Addr, err)))
	}
	w.record(c.Addr, state.NotDeposed, obj, c.Provider)
	if w.e.Hooks != nil {
		k, v := eval.ObjectID(newVal)
		w.e.Hooks.PostApply(c.Addr, state.NotDeposed, hookAction, k, v, time.Since(start), failed)
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
	if c.Action != plan.CreateThenDelete {
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
	if w.e.Hooks != nil {
		w.e.Hooks.PreApply(c.Addr, state.NotDeposed, HookRead, "", "")
	}
	start := time.Now()
	resp := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: c.Addr.Resource.Resource.Type, Config: config})
	diags := providercall.Diags(resp.Diagnostics, n.Res.Config)
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
	if w.e.Hooks != nil {
		k, id := eval.ObjectID(v)
		w.e.Hooks.PostApply(c.Addr, state.NotDeposed, HookRead, k, id, time.Since(start), diags.HasErrors())
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
		ctx = withResource(ctx, n.Addr)
	}
	var todo []*plan.ResourceInstanceChange
	for _, c := range w.ag.ByNode[resKey] {
		switch c.Action {
		case plan.Delete, plan.Forget, plan.DeleteThenCreate, plan.CreateThenDelete:
			todo = append(todo, c)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	sort.SliceStable(todo, func(i, j int) bool { return changeLess(todo[i], todo[j]) })
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
	if c.Action == plan.CreateThenDelete {
		w.mu.Lock()
		key, ok := w.deposedKeys[c.ChangeKey()]
		w.mu.Unlock()
		if !ok {
			return nil // the create half failed and restored the old object
		}
		deposed = key
	}
	if c.Action == plan.Forget {
		if w.e.Hooks != nil {
			w.e.Hooks.PreApply(c.Addr, deposed, HookForget, "", "")
		}
		w.record(c.Addr, deposed, nil, c.Provider)
		if w.e.Hooks != nil {
			w.e.Hooks.PostApply(c.Addr, deposed, HookForget, "", "", 0, false)
		}
		return nil
	}
	if c.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
		w.record(c.Addr, deposed, nil, c.Provider)
		return nil
	}
	prior := c.Before
	var private []byte
	w.mu.Lock()
	if ri := w.working.ResourceInstance(c.Addr); ri != nil {
		obj := ri.Current
		if deposed != state.NotDeposed {
			obj = ri.Deposed[deposed]
		}
		if obj != nil {
			private = obj.Private
			if v, err := eval.DecodeObject(ctx, nil, sch, c.Addr.Resource.Resource.Type, obj); err == nil {
				prior = v
			}
		}
	}
	w.mu.Unlock()
	idKey, idVal := eval.ObjectID(prior)
	if w.e.Hooks != nil {
		w.e.Hooks.PreApply(c.Addr, deposed, HookDelete, idKey, idVal)
	}
	start := time.Now()
	resp := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: prior, PlannedState: cty.NullVal(eval.ImpliedType(sch.Block)),
		Config: cty.NullVal(eval.ImpliedType(sch.Block)), PlannedPrivate: private,
	})
	var body hcl.Body
	if n != nil && n.Res != nil {
		body = n.Res.Config
	}
	diags := providercall.Diags(resp.Diagnostics, body)
	if !diags.HasErrors() && resp.NewState != cty.NilVal && !resp.NewState.IsNull() {
		diags = append(diags, eval.Errorf(nil, "Provider returned invalid result object after apply",
			"After deleting %s, provider %q returned a non-null object. This is a bug in the provider.", c.Addr, c.Provider.Provider))
	}
	if w.e.Hooks != nil {
		w.e.Hooks.PostApply(c.Addr, deposed, HookDelete, "", "", time.Since(start), diags.HasErrors())
	}
	if diags.HasErrors() {
		return diags
	}
	w.record(c.Addr, deposed, nil, c.Provider)
	return nil
}

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
	if c.Action == plan.Update {
		var replace []cty.Path
		for _, p := range resp.RequiresReplace {
			if eval.PathChanged(prior, final, p) {
				replace = append(replace, p)
			}
		}
		if len(replace) > 0 {
			return hcl.Diagnostics{providercall.FinalActionDiag(rng, provider, c.Addr, c.Action, plan.DeleteThenCreate, replace)}
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
