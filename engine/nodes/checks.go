package nodes

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
)

// Check evaluates a check block's assertions in every instance of its
// module. Failures only warn: a check never stops a plan or an apply.
func Check(ev *eval.Evaluator, n *graph.Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	cfg := eval.Checkable{Kind: "check", Module: n.Mod.Path, Name: n.Name}
	ev.Checks.Declare(cfg)
	for _, mi := range ev.Exp.ModuleInstances(n.Mod.Path) {
		status, msgs, d := eval.EvalConditions(ev.ScopeFor(mi, n.Mod), n.Check.Asserts, cty.NilVal, eval.CheckAssertionFailed, hcl.DiagWarning)
		diags = append(diags, eval.MarkFromCheckBlock(d)...)
		ev.Checks.Report(cfg, eval.CheckedObject{Module: mi}, status, msgs)
	}
	return diags
}

// CheckScoped downgrades the errors of a data source declared in a check
// block to warnings (it exists only for the check, which never blocks) and
// marks its diagnostics as the check block's.
func CheckScoped(n *graph.Node, diags hcl.Diagnostics) hcl.Diagnostics {
	if n.Res == nil || n.Res.CheckName == "" {
		return diags
	}
	return eval.MarkFromCheckBlock(eval.Downgrade(diags, hcl.DiagWarning))
}

// ResourceCheckable is the check-results entry of a resource node.
func ResourceCheckable(n *graph.Node) eval.Checkable {
	return eval.Checkable{Kind: "resource", Module: n.Addr.Module, Name: n.Addr.Resource.Name, Res: n.Addr.Resource}
}

// InstanceObject is the check-results object of one resource instance.
func InstanceObject(addr addrs.AbsResourceInstance) eval.CheckedObject {
	return eval.CheckedObject{Module: addr.Module, Key: addr.Resource.Key}
}
