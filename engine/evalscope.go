package engine

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
)

// Scope evaluates expressions in the root module with the values one plan
// or apply computed: planned values (unknowns where the plan cannot know)
// after a plan, the new state's values after an apply. The test command
// checks its assertions with it and the console evaluates what is typed.
//
// Pass a new Scope in PlanOpts.Scope or ApplyOpts.Scope; the run fills
// it in when it ends, and it is read-only from then on.
type Scope struct {
	ev *evaluator
}

// Ready reports whether a run filled the scope in.
func (s *Scope) Ready() bool { return s != nil && s.ev != nil }

// Eval evaluates expr in the root module. Root outputs are visible as
// output.NAME (the test language's name for them); extra adds variables
// of the caller's own (the test language's run.NAME, for instance),
// shadowing nothing the configuration names.
// The context it evaluated in is returned too, for diagnostics that show
// the values an expression saw.
func (s *Scope) Eval(expr hcl.Expression, extra map[string]cty.Value) (cty.Value, *hcl.EvalContext, hcl.Diagnostics) {
	if !s.Ready() {
		return cty.DynamicVal, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Nothing to evaluate against",
			Detail: "The plan or apply this expression depends on did not run.", Subject: expr.Range().Ptr()}}
	}
	var own []hcl.Traversal
	var outputs map[string]cty.Value
	root := s.ev.values.module(addrs.RootModuleInstance)
	for _, t := range expr.Variables() {
		name := t.RootName()
		if _, ok := extra[name]; ok {
			continue
		}
		if name == "output" {
			if outputs == nil {
				outputs = map[string]cty.Value{}
				for oname := range s.ev.cfg.Root.Outputs {
					if v, ok := root.get('o', oname); ok {
						outputs[oname] = v
					} else {
						outputs[oname] = cty.DynamicVal
					}
				}
			}
			continue
		}
		own = append(own, t)
	}
	refs, diags := addrs.References(own)
	if diags.HasErrors() {
		return cty.DynamicVal, nil, diags
	}
	sc := &scope{ev: s.ev, mod: addrs.RootModuleInstance, cfg: s.ev.cfg.Root}
	ctx, moreDiags := sc.evalContext(refs)
	diags = append(diags, moreDiags...)
	if moreDiags.HasErrors() {
		return cty.DynamicVal, nil, diags
	}
	if outputs != nil {
		ctx.Variables["output"] = cty.ObjectVal(outputs)
	}
	for name, v := range extra {
		ctx.Variables[name] = v
	}
	v, moreDiags := expr.Value(ctx)
	return v, ctx, append(diags, moreDiags...)
}

// CheckStatuses gives the status of every checkable block the run saw
// ("pass", "fail", "error" or "unknown"), keyed by its configuration
// address as expect_failures names it: var.NAME, output.NAME,
// check.NAME, TYPE.NAME, data.TYPE.NAME, each prefixed by module.NAME.
// for blocks in child modules.
func (s *Scope) CheckStatuses() map[string]string {
	out := map[string]string{}
	if !s.Ready() {
		return out
	}
	for _, c := range s.ev.checks.sorted() {
		out[c.String()] = c.status()
	}
	return out
}

// Config is the configuration the scope's run used.
func (s *Scope) Config() *config.Config {
	if !s.Ready() {
		return nil
	}
	return s.ev.cfg
}

// fillScope hands the walk's evaluator to the caller's Scope, if any.
func (w *planWalker) fillScope() {
	if w.opts.Scope != nil && w.ev != nil {
		w.opts.Scope.ev = w.ev
	}
}
