package validating

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/ignorechanges"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
)

// validateWalk evaluates the configuration without variable values or
// state, as validate must: every input variable is unknown (sensitive
// when declared so), every resource an unknown object whose attributes
// the schema marks sensitive are sensitive, and each module has one
// instance. It reports resource arguments the provider's schema does not
// accept (or lacks, or cannot convert) and root outputs that would expose
// sensitive values. Only what holds for every possible value is reported:
// what plan would find with the real values it leaves to plan.
func validateWalk(ctx context.Context, cg *graph.Graph, ev *eval.Evaluator, ps *providercall.Set) hcl.Diagnostics {
	res := cg.G.Walk(ctx, 1, func(ctx context.Context, key string) hcl.Diagnostics {
		n := cg.Nodes[key]
		if n == nil {
			return nil
		}
		switch n.Kind {
		case graph.NodeVariable:
			validateVariableNode(ev, n)
		case graph.NodeLocal:
			nodes.Local(ev, n) // only for the values: plan reports its errors
		case graph.NodeCall:
			for _, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
				var key addrs.InstanceKey = addrs.NoKey
				kind := byte(0)
				switch {
				case n.Call.Count != nil:
					key, kind = addrs.IntKey(0), 'c'
				case n.Call.ForEach != nil:
					key, kind = addrs.StringKey(""), 'e'
				}
				ev.Exp.AddModuleInstances(n.Mod.Path.Child(n.Name), kind, []addrs.ModuleInstance{mi.Child(n.Name, key)}, []eval.Repetition{eval.UnknownRepetition(kind)})
			}
		case graph.NodeResource:
			return validateResourceNode(ctx, ev, ps, n)
		case graph.NodeOutput:
			return validateOutputNode(ev, n)
		}
		return nil
	})
	return res.Diagnostics
}

func validateVariableNode(ev *eval.Evaluator, n *graph.Node) {
	v := n.Variable
	want := v.ConstraintType
	if want == cty.NilType {
		want = cty.DynamicPseudoType
	}
	for _, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
		val := cty.UnknownVal(want)
		if !mi.IsRoot() {
			// A child's input is what its call passes, or the default.
			if call := n.Mod.Parent.ModuleCalls[n.Mod.Path[len(n.Mod.Path)-1]]; call != nil {
				raw := v.Default
				if attrs, _ := call.Config.JustAttributes(); attrs[n.Name] != nil {
					s := &eval.Scope{Ev: ev, Mod: mi.Parent(), Cfg: n.Mod.Parent, Rep: ev.Exp.RepetitionFor(mi)}
					raw, _ = s.EvalExpr(attrs[n.Name].Expr, cty.DynamicPseudoType)
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
		ev.Values.Module(mi).Set('v', n.Name, val)
	}
}

func validateResourceNode(ctx context.Context, ev *eval.Evaluator, ps *providercall.Set, n *graph.Node) hcl.Diagnostics {
	if n.Schema == nil {
		return nil
	}
	kind := byte(0)
	switch {
	case n.Res.Count != nil:
		kind = 'c'
	case n.Res.ForEach != nil:
		kind = 'e'
	}
	var diags hcl.Diagnostics
	for i, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
		s := &eval.Scope{Ev: ev, Mod: mi, Cfg: n.Mod, Rep: eval.UnknownRepetition(kind)}
		ectx, d := s.EvalContext(n.BodyRefs)
		// count.index is unknown here, unless the reference was wrong and
		// already reported (count then stands for an unknown value).
		if v, ok := ectx.Variables["count"]; kind == 'c' && ok && v.Type().IsObjectType() {
			ectx.Variables["count"] = cty.ObjectVal(map[string]cty.Value{"index": cty.UnknownVal(cty.Number)})
		}
		if i == 0 {
			// Every instance has the same body: report it once.
			body := dynblock.Expand(n.Res.Config, ectx)
			val, moreDiags := hcldec.Decode(body, n.Spec, ectx)
			diags = append(diags, d...)
			diags = append(diags, moreDiags...)
			if !d.HasErrors() && !moreDiags.HasErrors() {
				diags = append(diags, providerValidation(ctx, ps, n, val)...)
			}
			diags = append(diags, nodes.ValidateProvisioners(ctx, s, n.Res, cty.UnknownVal(eval.ImpliedType(n.Schema.Block)), diags.HasErrors())...)
		}
		v := cty.DynamicVal
		if kind == 0 {
			v = unknownSchemaObject(n)
		}
		ev.Values.Module(mi).Set('r', n.Addr.Resource.String(), v)
	}
	return append(diags, ignorechanges.CheckAgainstSchema(n.Res, n.Schema)...)
}

// unknownSchemaObject is an unknown object of the resource's type with
// the attributes its schema marks sensitive marked.
func unknownSchemaObject(n *graph.Node) cty.Value {
	ty := eval.ImpliedType(n.Schema.Block)
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, at := range ty.AttributeTypes() {
		v := cty.UnknownVal(at)
		if a := n.Schema.Block.Attributes[name]; a != nil && a.Sensitive {
			v = v.Mark(eval.SensitiveMark)
		}
		attrs[name] = v
	}
	return cty.ObjectVal(attrs)
}

func validateOutputNode(ev *eval.Evaluator, n *graph.Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
		v, d := ev.ScopeFor(mi, n.Mod).EvalExpr(n.Output.Expr, cty.DynamicPseudoType)
		if d.HasErrors() {
			v = cty.DynamicVal
			// As OpenTofu's validate: references that name nothing,
			// functions called wrongly (with every value unknown).
			diags = append(diags, d...)
		}
		if mi.IsRoot() && !d.HasErrors() {
			diags = append(diags, nodes.SensitiveOutputDiags(n, v)...)
		}
		if n.Output.Sensitive {
			v = v.Mark(eval.SensitiveMark)
		}
		ev.Values.Module(mi).Set('o', n.Name, v)
	}
	return diags
}

// providerValidation asks the resource's provider, not configured yet, to
// validate the configuration (values from elsewhere unknown), as
// OpenTofu's validate does: a provider's own checks (allowed values,
// conflicting arguments) fail validate, not only plan.
func providerValidation(ctx context.Context, ps *providercall.Set, n *graph.Node, config cty.Value) hcl.Diagnostics {
	inst, err := ps.Unconfigured(ctx, n.Provider.Provider)
	if err != nil || inst == nil {
		return nil // graph building reported a provider it cannot start
	}
	config, _ = config.UnmarkDeep()
	var pd providers.Diagnostics
	if n.Addr.Resource.Mode == addrs.DataResourceMode {
		pd = inst.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: n.Addr.Resource.Type, Config: config}).Diagnostics
	} else {
		pd = inst.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: n.Addr.Resource.Type, Config: config}).Diagnostics
	}
	return providercall.Diags(pd, n.Res.Config, n.Addr.String())
}
