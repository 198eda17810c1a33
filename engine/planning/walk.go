package planning

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"sync"
	"time"

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
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
)

// planWalker is one plan run. What it holds is set up before the walk
// (moves, removed blocks, targeting, the graph) and only read by the
// walk's nodes; what the nodes produce goes to res, the one collector,
// and values between nodes flow through the evaluator's value store.
type planWalker struct {
	env  phase.Env
	cfg  *config.Config
	opts Opts
	ps   *providercall.Set
	ev   *eval.Evaluator
	cg   *graph.Graph
	run  rules.Run

	prevRun *state.State // as loaded (moves applied)
	// stateByResource indexes prevRun by configuration resource.
	stateByResource map[string][]*state.Resource

	forcedCBD map[string]bool
	moves     *moveState           // what the moves stage did (moves.go)
	teamMoves []rules.ComputedMove // computed moves added to it (team_moves.go)
	removed   []removedTarget      // removed blocks (removed.go)
	targets   *targetFilter        // nil without -target / -exclude

	// provMu guards provConfigs, the once-per-configuration provider
	// setup nodes.ConfigureProvider shares between nodes.
	provMu      sync.Mutex
	provConfigs map[string]*nodes.Once
	// res collects what the walk's nodes produce (results.go).
	res *walkResults
}

// Opts are the single-run options of a plan.
type Opts struct {
	Mode         plan.Mode
	SkipRefresh  bool
	Targets      []addrs.Targetable
	Excludes     []addrs.Targetable
	ForceReplace []addrs.AbsResourceInstance
	Variables    map[string]config.VariableValue
	Parallelism  int
	// Timestamp is the plan's time; rules see no other clock.
	Timestamp time.Time
	// FromState evaluates as OpenTofu's console does, from the state as
	// it is: data sources the state holds keep those values instead of
	// being read again, and a resource the state has no objects of is
	// wholly unknown, whatever its count or for_each.
	FromState bool
	// Scope, when set, is filled in with the plan's values so the caller
	// can evaluate expressions against them.
	Scope *phase.Scope
	// ValidateFirst validates the whole configuration before planning, as
	// OpenTofu's plan, apply, refresh and destroy do: errors there end
	// the operation with no plan (and no "Planning failed"), whatever the
	// mode. The engine sets Validate to do it.
	ValidateFirst bool
	Validate      func(ctx context.Context, ps *providercall.Set) hcl.Diagnostics
}

func (o Opts) parallelism() int {
	if o.Parallelism <= 0 {
		return 10
	}
	return o.Parallelism
}

// Plan computes a plan for cfg against the previous run state.
func Plan(ctx context.Context, env phase.Env, cfg *config.Config, prevRun *state.State, opts Opts) (*plan.Plan, hcl.Diagnostics) {
	if opts.Timestamp.IsZero() {
		opts.Timestamp = time.Now().UTC()
	}
	if prevRun == nil {
		prevRun = state.NewState()
	}
	w := &planWalker{
		env:             env,
		cfg:             cfg,
		opts:            opts,
		ps:              providercall.NewSet(env.Providers, env.WorkingDir),
		prevRun:         prevRun.DeepCopy(),
		provConfigs:     map[string]*nodes.Once{},
		stateByResource: map[string][]*state.Resource{},
	}
	defer w.ps.CloseAll(ctx)
	defer func() { opts.Scope.Fill(w.ev) }()
	w.run = rules.Run{Mode: modeName(opts.Mode), Timestamp: opts.Timestamp}
	if env.Rules.TeamRulesLoaded() {
		w.run.Variables = rootVariablesForRules(cfg, opts.Variables)
	}
	w.ev = &eval.Evaluator{Cfg: cfg, Fsys: env.FS, Values: eval.NewValueStore(), Exp: eval.NewExpansion(), RootDir: ".", Cwd: env.WorkingDir, Workspace: env.Workspace, Pure: true, PlanTime: opts.Timestamp,
		Checks: &eval.CheckResults{}, CondSeverity: hcl.DiagError, ProvFuncs: providercall.NewFunctions(ctx, w.ps)}
	defer w.ev.ProvFuncs.CloseAll(ctx)
	if opts.Mode != plan.NormalMode {
		// Refresh-only plans only report; a destroy must not be blocked by
		// conditions on what it removes.
		w.ev.CondSeverity = hcl.DiagWarning
	}
	if opts.ValidateFirst && opts.Validate != nil {
		// Its warnings are the plan's too, which reports them itself.
		if d := opts.Validate(ctx, w.ps); d.HasErrors() {
			return nil, d
		}
	}
	w.removed = collectRemoved(cfg, opts.Mode)
	if moveDiags := w.applyMoves(ctx); moveDiags.HasErrors() {
		return nil, moveDiags
	}
	// Moves change only the previous run's state; the refreshed state
	// starts as a copy of it and is built by the walk's nodes.
	w.res = newWalkResults(w.prevRun.DeepCopy(), usesTriggers(cfg))

	var orphans []addrs.ConfigResource
	seenOrphan := map[string]bool{}
	for _, mod := range sortedModules(w.prevRun) {
		for _, rs := range sortedResources(mod) {
			cr := rs.Addr.Config()
			key := cr.String()
			w.stateByResource[key] = append(w.stateByResource[key], rs)
			if !seenOrphan[key] && !graph.ConfigHasResource(cfg, cr) {
				seenOrphan[key] = true
				orphans = append(orphans, cr)
			}
		}
	}

	cg, diags := graph.Build(ctx, cfg, w.ps, orphans)
	if diags.HasErrors() {
		return nil, diags
	}
	w.cg = cg
	if d := w.validateProvisioners(ctx); d.HasErrors() {
		return nil, append(diags, d...)
	}

	forced, err := w.forcedCreateBeforeDestroy(ctx)
	if err != nil {
		return nil, append(diags, rulesFailed(err, nil))
	}
	w.forcedCBD = forced

	walkGraph, moreDiags := w.targetGraph()
	diags = append(diags, moreDiags...)
	if diags.HasErrors() {
		return nil, diags
	}
	res := walkGraph.Walk(ctx, opts.parallelism(), func(ctx context.Context, key string) hcl.Diagnostics {
		return w.visit(ctx, cg.Nodes[key])
	})
	diags = append(diags, res.Diagnostics...)
	// A walk cut short by ctx planned only part of the configuration:
	// the plan must not look complete.
	diags = phase.ReportHaltOnce(diags, res.Err != nil)
	diags = append(diags, w.forceReplaceWarnings()...)
	diags = w.finishMoveDiagnostics(ctx, diags)

	// An errored plan still has the changes of the outputs the walk could
	// evaluate, as OpenTofu's partial plan does.
	p := w.assemble(w.rootOutputChanges(), diags.HasErrors())
	if !p.Errored {
		// Surface apply-graph cycles at plan time.
		if _, cycleDiags := graph.BuildApply(cfg, cg, p); cycleDiags.HasErrors() {
			diags = append(diags, cycleDiags...)
			p.Errored = true
		}
	}
	return p, diags
}

func modeName(m plan.Mode) string {
	switch m {
	case plan.DestroyMode:
		return "destroy"
	case plan.RefreshOnlyMode:
		return "refresh-only"
	}
	return "normal"
}

func sortedModules(s *state.State) []*state.Module {
	out := make([]*state.Module, 0, len(s.Modules))
	for _, m := range s.Modules {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr.Less(out[j].Addr) })
	return out
}

func sortedResources(m *state.Module) []*state.Resource {
	out := make([]*state.Resource, 0, len(m.Resources))
	for _, r := range m.Resources {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr.Resource.Less(out[j].Addr.Resource) })
	return out
}

func (w *planWalker) visit(ctx context.Context, n *graph.Node) hcl.Diagnostics {
	switch n.Kind {
	case graph.NodeVariable:
		return w.visitVariable(n)
	case graph.NodeLocal:
		return w.visitLocal(n)
	case graph.NodeOutput:
		return w.visitOutput(n)
	case graph.NodeCall:
		return w.visitCall(n)
	case graph.NodeResource, graph.NodeOrphan:
		return nodes.CheckScoped(n, w.visitResource(ctx, n))
	case graph.NodeCheck:
		if w.opts.Mode == plan.DestroyMode {
			return nil
		}
		return nodes.Check(w.ev, n)
	}
	return nil
}

func (w *planWalker) forcedCreateBeforeDestroy(ctx context.Context) (map[string]bool, error) {
	g := rules.ResourceGraph{Run: w.run}
	for _, key := range w.cg.Order {
		n := w.cg.Nodes[key]
		if n.Kind != graph.NodeResource || n.Res.Managed == nil {
			continue
		}
		g.Resources = append(g.Resources, rules.GraphResource{
			Address:             n.Addr.String(),
			CreateBeforeDestroy: n.Res.Managed.CreateBeforeDestroy,
			DependsOn:           resourceAddrs(w.cg, n.ResDeps),
		})
	}
	if len(g.Resources) == 0 {
		return map[string]bool{}, nil
	}
	fired, err := w.env.Rules.ForcedCreateBeforeDestroy(ctx, g)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(fired))
	for addr := range fired {
		out[addr] = true
	}
	return out, nil
}

func resourceAddrs(cg *graph.Graph, keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, cg.Nodes[k].Addr.String())
	}
	return out
}

// assemble builds the plan from what the walk recorded and the root
// output changes computed after it.
func (w *planWalker) assemble(outputs []*plan.OutputChange, errored bool) *plan.Plan {
	r := w.res
	r.mu.Lock()
	defer r.mu.Unlock()
	sort.Slice(r.changes, func(i, j int) bool { return graph.ChangeLess(r.changes[i], r.changes[j]) })
	sort.Slice(r.drift, func(i, j int) bool { return graph.ChangeLess(r.drift[i], r.drift[j]) })
	sort.Slice(outputs, func(i, j int) bool { return outputs[i].Name < outputs[j].Name })
	vars := map[string]cty.Value{}
	root := w.ev.Values.Module(addrs.RootModuleInstance)
	for name := range w.cfg.Root.Variables {
		if v, ok := root.Get('v', name); ok {
			vars[name], _ = v.UnmarkDeep() // apply marks sensitive ones again from the configuration
		}
	}
	p := &plan.Plan{
		Mode:             w.opts.Mode,
		Timestamp:        w.opts.Timestamp,
		Changes:          r.changes,
		Drift:            r.drift,
		OutputChanges:    outputs,
		Variables:        vars,
		PrevRunState:     w.prevRun,
		PriorState:       r.prior,
		ConfigDigest:     w.cfg.Digest,
		SkipRefresh:      w.opts.SkipRefresh,
		Errored:          errored,
		Provenance:       r.provenance,
		Facts:            r.explained,
		TerraformVersion: w.env.Version,
	}
	p.RelevantAttributes = w.relevantAttributes(r.changes, r.prior, outputs)
	p.Checks = w.ev.Checks.PlanChecksJSON()
	for _, a := range w.opts.ForceReplace {
		p.ForceReplaceAddrs = append(p.ForceReplaceAddrs, a.String())
	}
	for _, t := range w.opts.Targets {
		p.TargetAddrs = append(p.TargetAddrs, t.String())
	}
	for _, t := range w.opts.Excludes {
		p.ExcludeAddrs = append(p.ExcludeAddrs, t.String())
	}
	cfg := w.cfg
	p.SetConfigurationSource(func() json.RawMessage {
		js, err := config.MarshalConfigurationJSON(cfg)
		if err != nil {
			return nil
		}
		return js
	})
	return p
}

// rulesFailed reports a failed rules evaluation. A team rule that could not
// be evaluated is reported at the rule itself (file and line), since that is
// what the user must fix; other failures at the block being planned.
func rulesFailed(err error, subject *hcl.Range) *hcl.Diagnostic {
	var re *rules.RuleError
	if errors.As(err, &re) {
		return re.Diagnostic()
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Planning rules failed", Detail: strings.TrimSuffix(err.Error(), ".") + ".", Subject: subject}
}
