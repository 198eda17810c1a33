package engine

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/eval"
)

// validateWalk evaluates the configuration without variable values or
// state, as validate must: every input variable is unknown (sensitive
// when declared so), every resource an unknown object whose attributes
// the schema marks sensitive are sensitive, and each module has one
// instance. It reports resource arguments the provider's schema does not
// accept (or lacks, or cannot convert) and root outputs that would expose
// sensitive values. Only what holds for every possible value is reported:
// what plan would find with the real values it leaves to plan.
func validateWalk(ctx context.Context, cg *configGraph, ev *eval.Evaluator) hcl.Diagnostics {
	res := cg.g.Walk(ctx, 1, func(ctx context.Context, key string) hcl.Diagnostics {
		n := cg.nodes[key]
		if n == nil {
			return nil
		}
		switch n.kind {
		case nodeVariable:
			validateVariableNode(ev, n)
		case nodeLocal:
			visitLocal(ev, n) // only for the values: plan reports its errors
		case nodeCall:
			for _, mi := range ev.Exp.ModuleInstances(n.mod.Path) {
				var key addrs.InstanceKey = addrs.NoKey
				kind := byte(0)
				switch {
				case n.call.Count != nil:
					key, kind = addrs.IntKey(0), 'c'
				case n.call.ForEach != nil:
					key, kind = addrs.StringKey(""), 'e'
				}
				ev.Exp.AddModuleInstances(n.mod.Path.Child(n.name), kind, []addrs.ModuleInstance{mi.Child(n.name, key)}, []eval.Repetition{unknownRepetition(kind)})
			}
		case nodeResource:
			return validateResourceNode(ev, n)
		case nodeOutput:
			return validateOutputNode(ev, n)
		}
		return nil
	})
	return res.Diagnostics
}

// unknownRepetition is count.index or each.* of an instance not known yet.
func unknownRepetition(kind byte) eval.Repetition {
	switch kind {
	case 'c':
		return eval.Repetition{Kind: 'c'}
	case 'e':
		return eval.Repetition{Kind: 'e', Key: cty.UnknownVal(cty.String), Value: cty.DynamicVal}
	}
	return eval.Repetition{}
}

func validateVariableNode(ev *eval.Evaluator, n *gnode) {
	v := n.variable
	want := v.ConstraintType
	if want == cty.NilType {
		want = cty.DynamicPseudoType
	}
	for _, mi := range ev.Exp.ModuleInstances(n.mod.Path) {
		val := cty.UnknownVal(want)
		if !mi.IsRoot() {
			// A child's input is what its call passes, or the default.
			if call := n.mod.Parent.ModuleCalls[n.mod.Path[len(n.mod.Path)-1]]; call != nil {
				raw := v.Default
				if attrs, _ := call.Config.JustAttributes(); attrs[n.name] != nil {
					s := &eval.Scope{Ev: ev, Mod: mi.Parent(), Cfg: n.mod.Parent, Rep: ev.Exp.RepetitionFor(mi)}
					raw, _ = s.EvalExpr(attrs[n.name].Expr, cty.DynamicPseudoType)
				}
				if raw != cty.NilVal {
					if cv, err := eval.ConvertVariable(v, raw); err == nil {
						val = cv
					}
				}
			}
		}
		if v.Sensitive {
			val = val.Mark(eval.SensitiveMark)
		}
		ev.Values.Module(mi).Set('v', n.name, val)
	}
}

func validateResourceNode(ev *eval.Evaluator, n *gnode) hcl.Diagnostics {
	if n.schema == nil {
		return nil
	}
	kind := byte(0)
	switch {
	case n.res.Count != nil:
		kind = 'c'
	case n.res.ForEach != nil:
		kind = 'e'
	}
	var diags hcl.Diagnostics
	for i, mi := range ev.Exp.ModuleInstances(n.mod.Path) {
		s := &eval.Scope{Ev: ev, Mod: mi, Cfg: n.mod, Rep: unknownRepetition(kind)}
		ctx, d := s.EvalContext(n.bodyRefs)
		if kind == 'c' {
			ctx.Variables["count"] = cty.ObjectVal(map[string]cty.Value{"index": cty.UnknownVal(cty.Number)})
		}
		if i == 0 {
			// Every instance has the same body: report it once.
			body := dynblock.Expand(n.res.Config, ctx)
			_, moreDiags := hcldec.Decode(body, n.spec, ctx)
			diags = append(diags, d...)
			diags = append(diags, moreDiags...)
		}
		v := cty.DynamicVal
		if kind == 0 {
			v = unknownSchemaObject(n)
		}
		ev.Values.Module(mi).Set('r', n.addr.Resource.String(), v)
	}
	return diags
}

// unknownSchemaObject is an unknown object of the resource's type with
// the attributes its schema marks sensitive marked.
func unknownSchemaObject(n *gnode) cty.Value {
	ty := eval.ImpliedType(n.schema.Block)
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, at := range ty.AttributeTypes() {
		v := cty.UnknownVal(at)
		if a := n.schema.Block.Attributes[name]; a != nil && a.Sensitive {
			v = v.Mark(eval.SensitiveMark)
		}
		attrs[name] = v
	}
	return cty.ObjectVal(attrs)
}

func validateOutputNode(ev *eval.Evaluator, n *gnode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, mi := range ev.Exp.ModuleInstances(n.mod.Path) {
		v, d := ev.ScopeFor(mi, n.mod).EvalExpr(n.output.Expr, cty.DynamicPseudoType)
		if d.HasErrors() {
			v = cty.DynamicVal
		}
		if mi.IsRoot() && !d.HasErrors() {
			diags = append(diags, sensitiveOutputDiags(n, v)...)
		}
		if n.output.Sensitive {
			v = v.Mark(eval.SensitiveMark)
		}
		ev.Values.Module(mi).Set('o', n.name, v)
	}
	return diags
}
