package validating

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/phase"
	"github.com/tenetplan/tenet/engine/providercall"
)

// Validate checks what can be checked without variable values or state:
// every reference names something declared, every resource type exists,
// the configuration has no dependency cycle, resource arguments fit their
// schemas, and no root output exposes sensitive values undeclared.
func Validate(ctx context.Context, env phase.Env, cfg *config.Config) hcl.Diagnostics {
	ps := providercall.NewSet(env.Providers, env.WorkingDir)
	defer ps.CloseAll(ctx)
	return ValidateWith(ctx, env, cfg, ps)
}

// ValidateWith is Validate with the providers of ps, so that an
// operation validating before it plans (as OpenTofu's do) starts each
// provider once: the instance that answered validation is the one the
// plan configures.
func ValidateWith(ctx context.Context, env phase.Env, cfg *config.Config, ps *providercall.Set) hcl.Diagnostics {
	cg, diags := graph.Build(ctx, cfg, ps, nil)
	diags = append(diags, providercall.CheckFunctionCalls(cfg)...)
	if diags.HasErrors() {
		return diags
	}
	ev := &eval.Evaluator{Cfg: cfg, Fsys: env.FS, Values: eval.NewValueStore(), Exp: eval.NewExpansion(), RootDir: ".", Cwd: env.WorkingDir, Workspace: "default", Pure: true, Validating: true,
		ProvFuncs: providercall.NewFunctions(ctx, ps)}
	defer ev.ProvFuncs.CloseAll(ctx)
	return append(diags, validateWalk(ctx, cg, ev, ps)...)
}
