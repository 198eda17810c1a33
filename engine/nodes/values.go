package nodes

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
)

// Variable evaluates a variable in every instance of its module.
func Variable(ev *eval.Evaluator, rootVals map[string]config.VariableValue, n *graph.Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if n.Mod.Path.IsRoot() {
		vv, given := rootVals[n.Name]
		if given && vv.Value == cty.NilVal {
			given = false
		}
		val, d := eval.EvalRootVariable(ev, n.Variable, vv, given)
		diags = append(diags, d...)
		ev.Values.Module(addrs.RootModuleInstance).Set('v', n.Name, val)
		return diags
	}
	parent := n.Mod.Parent
	call := parent.ModuleCalls[n.Mod.Path[len(n.Mod.Path)-1]]
	var expr hcl.Expression
	if call != nil {
		attrs, _ := call.Config.JustAttributes()
		if a, ok := attrs[n.Name]; ok {
			expr = a.Expr
		}
	}
	for _, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
		raw := cty.NilVal
		given := false
		var rng *hcl.Range
		if expr != nil {
			s := &eval.Scope{Ev: ev, Mod: mi.Parent(), Cfg: parent, Rep: ev.Exp.RepetitionFor(mi)}
			v, d := s.EvalExpr(expr, cty.DynamicPseudoType)
			diags = append(diags, d...)
			raw, given, rng = v, true, expr.Range().Ptr()
		}
		if !given && n.Variable.Default == cty.NilVal {
			diags = append(diags, eval.Errorf(call.DeclRange.Ptr(), "Missing required argument",
				"The argument %q is required, but no definition was found.", n.Name))
			ev.Values.Module(mi).Set('v', n.Name, cty.DynamicVal)
			continue
		}
		val, d := eval.EvalVariable(ev, n.Variable, mi, raw, rng, given)
		diags = append(diags, d...)
		if n.Variable.Deprecated != "" && expr != nil && !ev.Validating {
			// After validation, as OpenTofu does; its validate does not warn.
			diags = append(diags, eval.VariableDeprecated(n.Mod, n.Variable, expr))
		}
		ev.Values.Module(mi).Set('v', n.Name, val)
	}
	return diags
}

// Local evaluates a local value in every instance of its module.
func Local(ev *eval.Evaluator, n *graph.Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
		v, d := ev.ScopeFor(mi, n.Mod).EvalExpr(n.Local.Expr, cty.DynamicPseudoType)
		diags = append(diags, d...)
		ev.Values.Module(mi).Set('l', n.Name, v)
	}
	return diags
}

// Output evaluates an output value in every instance of its module.
func Output(ev *eval.Evaluator, n *graph.Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	cfg := eval.Checkable{Kind: "output", Module: n.Mod.Path, Name: n.Name}
	if len(n.Output.Preconditions) > 0 {
		ev.Checks.Declare(cfg)
	}
	for _, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
		if len(n.Output.Preconditions) > 0 {
			status, msgs, d := eval.EvalConditions(ev.ScopeFor(mi, n.Mod), n.Output.Preconditions, cty.NilVal, eval.OutputPreconditionFailed, ev.CondSeverity)
			diags = append(diags, d...)
			ev.Checks.Report(cfg, eval.CheckedObject{Module: mi}, status, msgs)
			if d.HasErrors() {
				// The value is not evaluated: what it reads may be what
				// the precondition guards against.
				ev.Values.Module(mi).Set('o', n.Name, cty.DynamicVal)
				continue
			}
		}
		v, d := ev.ScopeFor(mi, n.Mod).EvalExpr(n.Output.Expr, cty.DynamicPseudoType)
		if !d.HasErrors() && mi.IsRoot() {
			d = append(d, eval.CheckValueDepth(v, n.Output.Expr.Range().Ptr(), "The value of output "+n.Name)...)
		}
		diags = append(diags, d...)
		if !d.HasErrors() && mi.IsRoot() {
			diags = append(diags, SensitiveOutputDiags(n, v)...)
		}
		if n.Output.Sensitive {
			v = v.Mark(eval.SensitiveMark)
		}
		ev.Values.Module(mi).Set('o', n.Name, v)
	}
	return diags
}

// SensitiveOutputDiags reports a root output that holds sensitive values
// without saying sensitive = true.
func SensitiveOutputDiags(n *graph.Node, v cty.Value) hcl.Diagnostics {
	if n.Output.Sensitive || !v.ContainsMarked() {
		return nil
	}
	return hcl.Diagnostics{eval.Errorf(n.Output.Expr.Range().Ptr(), "Output refers to sensitive values",
		"To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, tenet requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true")}
}

// Call expands a module call in every instance of the calling module.
func Call(ev *eval.Evaluator, n *graph.Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	childPath := n.Mod.Path.Child(n.Name)
	var kind byte
	var insts []addrs.ModuleInstance
	var reps []eval.Repetition
	for _, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
		ik, d := ev.ScopeFor(mi, n.Mod).Expand(n.Call.Count, n.Call.ForEach)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		kind = ik.Kind
		if len(insts)+len(ik.Keys) > eval.MaxInstances {
			return append(diags, eval.TooManyInstancesInAll(eval.RepetitionRange(n.Call.Count, n.Call.ForEach), eval.RepetitionName(ik.Kind)))
		}
		for i, k := range ik.Keys {
			insts = append(insts, mi.Child(n.Name, k))
			reps = append(reps, ik.Reps[i])
		}
	}
	if n.Call.Count != nil {
		kind = 'c'
	} else if n.Call.ForEach != nil {
		kind = 'e'
	}
	ev.Exp.AddModuleInstances(childPath, kind, insts, reps)
	return diags
}
