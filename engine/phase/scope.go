package phase

import (
	"fmt"
	"maps"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/config/funcs"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
)

// Scope evaluates expressions in the root module with the values one plan
// or apply computed: planned values (unknowns where the plan cannot know)
// after a plan, the new state's values after an apply. The test command
// checks its assertions with it and the console evaluates what is typed.
//
// Pass a new Scope in the options of a plan or an apply (their Scope field); the run fills
// it in when it ends, and it is read-only from then on.
type Scope struct {
	ev *eval.Evaluator
	// Impure makes timestamp(), uuid() and bcrypt() return fresh values,
	// as the console has them, where a plan's values leave them unknown.
	Impure bool
	// UnknownOutputsAsNull makes a root output whose value is wholly
	// unknown read as null: the test language's plan runs see outputs so,
	// as OpenTofu's planned state keeps no such value.
	UnknownOutputsAsNull bool
	// NoOutputs leaves out output.NAME, which only the test language
	// has: in the console, as in OpenTofu's, "output" is a resource type.
	NoOutputs bool
	// Functions changes the function table expressions see: each entry
	// adds or replaces a function, and a zero Function removes the name
	// (the console's own type() and its missing plantimestamp()).
	Functions map[string]function.Function
	funcs     map[string]function.Function
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
	root := s.ev.Values.Module(addrs.RootModuleInstance)
	for _, t := range expr.Variables() {
		name := t.RootName()
		if _, ok := extra[name]; ok {
			continue
		}
		if name == "output" && !s.NoOutputs {
			if outputs == nil {
				outputs = map[string]cty.Value{}
				for oname := range s.ev.Cfg.Root.Outputs {
					if v, ok := root.Get('o', oname); ok {
						if s.UnknownOutputsAsNull && !v.IsKnown() {
							v = cty.NullVal(cty.DynamicPseudoType)
						}
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
	diags = append(diags, declaredInRoot(s.ev.Cfg.Root, refs)...)
	if outputs != nil {
		diags = append(diags, declaredOutputs(s.ev.Cfg.Root, expr)...)
	}
	if diags.HasErrors() {
		return cty.DynamicVal, nil, diags
	}
	sc := &eval.Scope{Ev: s.ev, Mod: addrs.RootModuleInstance, Cfg: s.ev.Cfg.Root}
	ctx, moreDiags := sc.EvalContext(refs)
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
	if s.Impure || s.Functions != nil {
		if s.funcs == nil {
			s.funcs = s.functionTable(ctx.Functions)
		}
		ctx.Functions = s.funcs
	}
	v, moreDiags := expr.Value(ctx)
	return v, ctx, append(diags, moreDiags...)
}

// functionTable builds the scope's own function table once, over a copy
// of the run's table (which other scopes share): the impure functions'
// fresh values, then Functions' changes.
func (s *Scope) functionTable(run map[string]function.Function) map[string]function.Function {
	table := maps.Clone(run)
	if s.Impure {
		// The built-in functions afresh; provider-defined ones stay.
		maps.Copy(table, funcs.Table(funcs.Options{FS: s.ev.Fsys, HostDir: s.ev.Cwd, PlanTimestamp: s.ev.PlanTime}))
	}
	for name, f := range s.Functions {
		if f == (function.Function{}) {
			delete(table, name)
		} else {
			table[name] = f
		}
	}
	return table
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
	for _, c := range s.ev.Checks.Sorted() {
		out[c.String()] = c.Status()
	}
	return out
}

// Config is the configuration the scope's run used.
func (s *Scope) Config() *config.Config {
	if !s.Ready() {
		return nil
	}
	return s.ev.Cfg
}

// Fill hands a run's evaluator to the scope, once the run has made it;
// the phases call it, the caller only reads.
func (s *Scope) Fill(ev *eval.Evaluator) {
	if s != nil && ev != nil {
		s.ev = ev
	}
}

// declaredInRoot reports references to what the root module does not
// declare: the walk's values would only say "unknown" for them.
func declaredInRoot(m *config.Module, refs []*addrs.Reference) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, ref := range refs {
		if d := graph.UndeclaredReference(m, ref); d != nil {
			diags = append(diags, d)
		}
	}
	return diags
}

// declaredOutputs reports output.NAME references to undeclared outputs.
func declaredOutputs(m *config.Module, expr hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		if t.RootName() != "output" || len(t) < 2 {
			continue
		}
		a, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		if _, ok := m.Outputs[a.Name]; !ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared output value",
				Detail: fmt.Sprintf("An output value with the name %q has not been declared.", a.Name), Subject: t.SourceRange().Ptr()})
		}
	}
	return diags
}
