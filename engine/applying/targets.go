package applying

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/graphsolve"
)

// targetingApplyWarning is the warning an apply of a targeted plan gives.
func targetingApplyWarning(p *plan.Plan) hcl.Diagnostics {
	if len(p.TargetAddrs) == 0 && len(p.ExcludeAddrs) == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Applied changes may be incomplete",
		Detail:   "The plan was created with the -target or the -exclude option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    tenet plan\n\t\nNote that the -target and -exclude options are not suitable for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when tenet specifically suggests to use it as part of an error message.",
	}}
}

// targetedApplyGraph limits the apply walk of a plan made with -target or
// -exclude to the resources with changes, what they depend on, and the root
// outputs the plan has changes for, with what they depend on: the rest of
// the configuration may refer to objects the plan left out, and an output
// the plan left out keeps its value in the state.
func targetedApplyGraph(ag *graph.ApplyGraph, cg *graph.Graph, p *plan.Plan) *graphsolve.Graph[string] {
	if len(p.TargetAddrs) == 0 && len(p.ExcludeAddrs) == 0 {
		return ag.G
	}
	seeds := make([]string, 0, 2*len(ag.ByNode)+len(p.OutputChanges))
	for key := range ag.ByNode {
		seeds = append(seeds, key)
		if dk := graph.DestroyKey(key); ag.G.HasVertex(dk) {
			seeds = append(seeds, dk)
		}
	}
	if p.Mode != plan.DestroyMode {
		// A destroy removes the outputs; evaluating them could read
		// objects already destroyed.
		for _, oc := range p.OutputChanges {
			if key := graph.ModKey(addrs.RootModule, "output", oc.Name); cg.Nodes[key] != nil && ag.G.HasVertex(key) {
				seeds = append(seeds, key)
			}
		}
	}
	walk := make(map[string]bool, len(seeds))
	for _, keys := range [][]string{seeds, ag.G.TransitiveDependencies(seeds...)} {
		for _, k := range keys {
			walk[k] = true
		}
	}
	return ag.G.Subgraph(func(k string) bool { return walk[k] })
}
