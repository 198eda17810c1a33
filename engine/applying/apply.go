package applying

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/phase"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/state"
)

// StateRecorder is told about every completed resource operation as it
// happens, so the caller can make it durable before dependents run.
type StateRecorder interface {
	RecordObject(addr addrs.AbsResourceInstance, deposed state.DeposedKey, obj *state.ObjectSrc, provider addrs.AbsProviderConfig) error
}

// applyWalker holds what one apply run shares between graph nodes.
type applyWalker struct {
	env      phase.Env
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

// Opts are the options of an apply.
type Opts struct {
	Parallelism int
	// Stop, when it ends, stops the apply gracefully: no further
	// operation starts, the providers are asked to stop the ones in
	// flight (StopProvider), and Apply returns once those have returned,
	// with every completed operation recorded and an "execution halted"
	// error. The ctx given to Apply is the hard stop: it also cancels the
	// provider calls in flight. Nil means only ctx stops the apply.
	Stop context.Context
	// Scope, when set, is filled in with the applied values.
	Scope *phase.Scope
}

// Apply carries out a plan. It returns the new state, which is complete
// even when some operations failed: failed creates leave tainted objects,
// failed deletes leave the object in place.
func Apply(ctx context.Context, env phase.Env, cfg *config.Config, p *plan.Plan, opts Opts, recorder StateRecorder) (*state.State, hcl.Diagnostics) {
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
		env: env, cfg: cfg, p: p,
		sched:       sched,
		ps:          providercall.NewSet(env.Providers, env.WorkingDir),
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
	w.ev = &eval.Evaluator{Cfg: cfg, Fsys: env.FS, Values: eval.NewValueStore(), Exp: eval.NewExpansion(), RootDir: ".", Cwd: env.WorkingDir, Workspace: env.Workspace, PlanTime: p.Timestamp,
		Checks: &eval.CheckResults{}, CondSeverity: hcl.DiagError, ProvFuncs: providercall.NewFunctions(ctx, w.ps)}
	defer w.ev.ProvFuncs.CloseAll(ctx)
	opts.Scope.Fill(w.ev)

	var orphans []addrs.ConfigResource
	seen := map[string]bool{}
	for _, c := range p.Changes {
		cr := c.Addr.Config()
		if !seen[cr.String()] && !graph.ConfigHasResource(cfg, cr) {
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
	if h, ok := env.Hooks.(phase.ImportHooks); ok {
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
	diags = phase.ReportHaltOnce(diags, res.Err != nil || (opts.Stop != nil && opts.Stop.Err() != nil))
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
			w.working.Outputs[name] = &state.OutputValue{Value: uv, Sensitive: out.Sensitive || v.ContainsMarked(), Deprecated: out.Deprecated}
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
		diags = append(diags, phase.HaltedDiag())
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
