package engine

import (
	"context"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/providercall"
)

// Validate checks what can be checked without variable values or state:
// every reference names something declared, every resource type exists,
// the configuration has no dependency cycle, resource arguments fit their
// schemas, and no root output exposes sensitive values undeclared.
func (e *Engine) Validate(ctx context.Context, cfg *config.Config) hcl.Diagnostics {
	ps := providercall.NewSet(e.Providers, e.WorkingDir)
	defer ps.CloseAll(ctx)
	cg, diags := graph.Build(ctx, cfg, ps, nil)
	diags = append(diags, providercall.CheckFunctionCalls(cfg)...)
	if diags.HasErrors() {
		return diags
	}
	for _, err := range cg.G.Validate() {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: err.Error()})
	}
	if diags.HasErrors() {
		return diags
	}
	ev := &eval.Evaluator{Cfg: cfg, Fsys: e.FS, Values: eval.NewValueStore(), Exp: eval.NewExpansion(), RootDir: ".", Cwd: e.WorkingDir, Workspace: "default", Pure: true, Validating: true,
		ProvFuncs: providercall.NewFunctions(ctx, ps)}
	defer ev.ProvFuncs.CloseAll(ctx)
	return append(diags, validateWalk(ctx, cg, ev)...)
}

// WriteGraphDOT writes the configuration graph, or with a plan the apply
// graph, in DOT form.
func (e *Engine) WriteGraphDOT(ctx context.Context, cfg *config.Config, p *plan.Plan, w io.Writer) hcl.Diagnostics {
	ps := providercall.NewSet(e.Providers, e.WorkingDir)
	defer ps.CloseAll(ctx)
	cg, diags := graph.Build(ctx, cfg, ps, nil)
	if diags.HasErrors() {
		return diags
	}
	g := cg.G
	title := "plan"
	if p != nil {
		ag, d := graph.BuildApply(cfg, cg, p)
		diags = append(diags, d...)
		g, title = ag.G, "apply"
	}
	if err := g.DOT(w, title); err != nil {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to write graph", Detail: err.Error()})
	}
	return diags
}
