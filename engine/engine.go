package engine

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/applying"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/phase"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/planning"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/engine/validating"
	"github.com/tenetplan/tenet/state"
)

// Engine plans and applies one working directory's configuration. Its
// fields are phase.Env's: the providers and rules, the working directory
// (FS, and WorkingDir, its path on disk), the Hooks, the Version written
// into plans and state, and the selected Workspace (empty means
// "default").
type Engine phase.Env

// The options and hooks of the phases, as the CLI names them.
type (
	// PlanOpts are the single-run options of a plan.
	PlanOpts = planning.Opts
	// ApplyOpts are the options of an apply.
	ApplyOpts = applying.Opts
	// StateRecorder is told about every completed resource operation as
	// it happens, so the caller can make it durable before dependents run.
	StateRecorder = applying.StateRecorder
	// Scope evaluates expressions against the values of a finished plan
	// or apply; pass one in PlanOpts.Scope or ApplyOpts.Scope.
	Scope = phase.Scope
	// Hooks lets the CLI show progress.
	Hooks = phase.Hooks
	// ImportHooks is implemented by Hooks that also show imports.
	ImportHooks = phase.ImportHooks
	// ProvisionHooks is implemented by Hooks that also show provisioners.
	ProvisionHooks = phase.ProvisionHooks
	// NoHooks ignores every event.
	NoHooks = phase.NoHooks
)

// env is what each phase is given of the engine.
func (e *Engine) env() phase.Env {
	env := phase.Env(*e)
	if env.Workspace == "" {
		env.Workspace = "default"
	}
	return env
}

// Plan computes a plan for cfg against the previous run state.
func (e *Engine) Plan(ctx context.Context, cfg *config.Config, prevRun *state.State, opts PlanOpts) (*plan.Plan, hcl.Diagnostics) {
	if diags := provisionerSchemas(cfg); diags.HasErrors() {
		return nil, diags
	}
	if opts.ValidateFirst {
		env := e.env()
		opts.Validate = func(ctx context.Context, ps *providercall.Set) hcl.Diagnostics {
			return validating.ValidateWith(ctx, env, cfg, ps)
		}
	}
	return planning.Plan(ctx, e.env(), cfg, prevRun, opts)
}

// Import brings one existing remote object under management, as the
// `import ADDR ID` command does, and returns the refreshed state holding
// it; no other change is made.
func (e *Engine) Import(ctx context.Context, cfg *config.Config, prevRun *state.State, addr addrs.AbsResourceInstance, id string, opts PlanOpts) (*state.State, hcl.Diagnostics) {
	return planning.Import(ctx, e.env(), cfg, prevRun, addr, id, opts)
}

// Apply carries out a plan. It returns the new state, which is complete
// even when some operations failed: failed creates leave tainted objects,
// failed deletes leave the object in place.
func (e *Engine) Apply(ctx context.Context, cfg *config.Config, p *plan.Plan, opts ApplyOpts, recorder StateRecorder) (*state.State, hcl.Diagnostics) {
	if diags := provisionerSchemas(cfg); diags.HasErrors() {
		return p.PriorState, diags
	}
	return applying.Apply(ctx, e.env(), cfg, p, opts, recorder)
}

// Validate checks what can be checked without variable values or state.
func (e *Engine) Validate(ctx context.Context, cfg *config.Config) hcl.Diagnostics {
	if diags := provisionersForValidate(cfg); diags.HasErrors() {
		return diags
	}
	return validating.Validate(ctx, e.env(), cfg)
}

// ResourceFromContext gives the configuration address of the resource a
// provider call is made for, when the engine made it for one. Providers
// that answer differently per resource (the test command's overrides)
// read it; ordinary providers never need it.
func ResourceFromContext(ctx context.Context) (addrs.ConfigResource, bool) {
	return providercall.ResourceFromContext(ctx)
}

// GraphMode is which of OpenTofu's graphs WriteGraphDOT draws.
type GraphMode = graph.UIMode

// The graphs, as graph -type names them (-type=apply with a destroy plan
// is GraphDestroy).
const (
	GraphPlan        = graph.UIModePlan
	GraphPlanDestroy = graph.UIModePlanDestroy
	GraphApply       = graph.UIModeApply
	GraphDestroy     = graph.UIModeDestroy
)

// GraphOptions says which graph WriteGraphDOT draws.
type GraphOptions struct {
	Mode GraphMode
	// Plan is the saved plan whose apply graph is drawn (apply modes);
	// without one, applying draws a plan with no changes.
	Plan *plan.Plan
	// State is the current state (used when there is no plan).
	State *state.State
	// Verbose also draws the nodes OpenTofu draws only with -verbose.
	Verbose bool
}

// WriteGraphDOT writes the graph OpenTofu's graph command draws in DOT
// form: planning (normally or to destroy) from the state, or applying
// a plan's changes.
func (e *Engine) WriteGraphDOT(ctx context.Context, cfg *config.Config, opts GraphOptions, w io.Writer) hcl.Diagnostics {
	ps := providercall.NewSet(e.Providers, e.WorkingDir)
	defer ps.CloseAll(ctx)
	cg, diags := graph.Build(ctx, cfg, ps, nil)
	// OpenTofu's graph command draws without evaluating anything, so a
	// block that refers to itself, an error only when it is evaluated,
	// is drawn like any other.
	diags = slices.DeleteFunc(diags, func(d *hcl.Diagnostic) bool { return d.Summary == "Self-referential block" })
	uo := graph.UIOptions{Mode: opts.Mode, State: opts.State}
	if p := opts.Plan; p != nil {
		uo.State = plannedPriorState(p)
		if opts.Mode == graph.UIModeApply || opts.Mode == graph.UIModeDestroy {
			uo.Changes = p.Changes
			uo.Targets, uo.Excludes = parseTargets(p.TargetAddrs), parseTargets(p.ExcludeAddrs)
		}
	}
	if diags.HasErrors() {
		// Planning to destroy draws no resource expansion, so a cycle
		// through resources is no cycle there.
		if opts.Mode != graph.UIModePlanDestroy || !onlyCycles(diags) {
			return graph.UICycles(diags)
		}
		if rest := cg.WithoutResourceCycles(diags); rest.HasErrors() {
			return graph.UICycles(rest)
		}
		ug := cg.UI(uo)
		if ug.Cyclic() {
			return graph.UICycles(diags)
		}
		diags = slices.DeleteFunc(diags, func(d *hcl.Diagnostic) bool { return d.Severity == hcl.DiagError })
		if err := ug.DOT(w, opts.Verbose); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to write graph", Detail: err.Error()})
		}
		return diags
	}
	if err := cg.UI(uo).DOT(w, opts.Verbose); err != nil {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to write graph", Detail: err.Error()})
	}
	return diags
}

// plannedPriorState is the prior state OpenTofu stores in a plan: without
// the data source objects the plan reads again when applying.
func plannedPriorState(p *plan.Plan) *state.State {
	st := p.PriorState
	if st == nil {
		return nil
	}
	for _, c := range p.Changes {
		if c.Action != action.Read || st.ResourceInstance(c.Addr) == nil {
			continue
		}
		if st == p.PriorState {
			st = st.DeepCopy()
		}
		st.ForgetResourceInstanceAll(c.Addr)
	}
	return st
}

// onlyCycles reports whether every error in diags is a dependency cycle.
func onlyCycles(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && !strings.HasPrefix(d.Summary, "Cycle: ") {
			return false
		}
	}
	return true
}

// parseTargets reads a plan's -target or -exclude addresses (they were
// checked when planning).
func parseTargets(strs []string) []addrs.Targetable {
	var out []addrs.Targetable
	for _, s := range strs {
		if t, d := addrs.ParseTargetStr(s); !d.HasErrors() && t != nil {
			out = append(out, t.Subject)
		}
	}
	return out
}
