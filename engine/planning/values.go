package planning

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// rootOutputChanges compares root outputs with the prior state.
func (w *planWalker) rootOutputChanges() []*plan.OutputChange {
	var outputs []*plan.OutputChange
	root := w.ev.Values.Module(addrs.RootModuleInstance)
	seen := map[string]bool{}
	for name, out := range w.cfg.Root.Outputs {
		seen[name] = true
		after, ok := root.Get('o', name)
		if !ok || w.res.failedOutputs[name] {
			continue // not evaluated, or in error: no change to plan
		}
		oc := &plan.OutputChange{Name: name, Sensitive: out.Sensitive || after.ContainsMarked()}
		after, _ = after.UnmarkDeep()
		oc.After = after
		prev := w.prevRun.Outputs[name]
		if w.opts.Mode == plan.DestroyMode {
			if prev == nil {
				continue
			}
			// As OpenTofu, whose destroy plan starts from a refresh that
			// evaluates the outputs anew: an output removed by the destroy
			// had the value the configuration gives it now, when known.
			oc.Before = prev.Value
			if after.IsWhollyKnown() && !after.IsNull() {
				oc.Before = after
			}
			oc.After, oc.Action = cty.NullVal(cty.DynamicPseudoType), action.Delete
			oc.Sensitive = oc.Sensitive || prev.Sensitive
			outputs = append(outputs, oc)
			continue
		}
		switch {
		case prev == nil:
			oc.Before = cty.NullVal(cty.DynamicPseudoType)
			oc.Action = action.Create
			if after.IsNull() {
				oc.Action = action.NoOp
			}
		default:
			oc.Before = prev.Value
			oc.Sensitive = oc.Sensitive || prev.Sensitive
			if after.IsWhollyKnown() && prev.Value.Type().Equals(after.Type()) && prev.Value.RawEquals(after) && prev.Sensitive == (out.Sensitive || oc.Sensitive) {
				oc.Action = action.NoOp
			} else if after.IsWhollyKnown() && valuesEqual(prev.Value, after) && prev.Sensitive == oc.Sensitive {
				oc.Action = action.NoOp
			} else {
				oc.Action = action.Update
			}
		}
		outputs = append(outputs, oc)
	}
	for name, prev := range w.prevRun.Outputs {
		if seen[name] {
			continue
		}
		outputs = append(outputs, &plan.OutputChange{Name: name, Action: action.Delete, Before: prev.Value, After: cty.NullVal(cty.DynamicPseudoType), Sensitive: prev.Sensitive})
	}
	return outputs
}

// valuesEqual compares two known values semantically (types may differ
// in ways JSON cannot tell apart, e.g. tuple vs list from state).
func valuesEqual(a, b cty.Value) bool {
	if !a.IsWhollyKnown() || !b.IsWhollyKnown() {
		return false
	}
	ja, err1 := eval.MarshalDynamic(a)
	jb, err2 := eval.MarshalDynamic(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

func (w *planWalker) visitVariable(n *graph.Node) hcl.Diagnostics {
	return nodes.Variable(w.ev, w.opts.Variables, n)
}

func (w *planWalker) visitLocal(n *graph.Node) hcl.Diagnostics {
	return nodes.Local(w.ev, n)
}

func (w *planWalker) visitOutput(n *graph.Node) hcl.Diagnostics {
	diags := nodes.Output(w.ev, n)
	if diags.HasErrors() && n.Mod.Path.IsRoot() {
		w.res.outputFailed(n.Name)
	}
	return diags
}

func (w *planWalker) visitCall(n *graph.Node) hcl.Diagnostics {
	return nodes.Call(w.ev, n)
}
