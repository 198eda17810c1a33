package graph

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/graphsolve"
)

// ApplyGraph is the configuration graph plus one destroy node per
// resource that has deletes, with the ordering edges of semantics §11.
// Nodes are per resource (not per instance): a resource's creates run as
// one node and its deletes as another, which keeps the edge count linear
// where per-instance edges would be quadratic (every instance of B after
// every instance of A).
type ApplyGraph struct {
	G        *graphsolve.Graph[string]
	ByNode   map[string][]*plan.ResourceInstanceChange // resource node key -> changes
	cbdNodes map[string]bool                           // destroy node is create_before_destroy
}

// DestroyKey is the key of the node that runs the deletes of the resource
// node resKey.
func DestroyKey(resKey string) string { return "destroy:" + resKey[len("resource:"):] }

// BuildApply builds the apply graph of plan p over the configuration graph
// cg, refusing cycles the apply ordering would create.
func BuildApply(cfg *config.Config, cg *Graph, p *plan.Plan) (*ApplyGraph, hcl.Diagnostics) {
	ag := &ApplyGraph{G: cg.G.Clone(), ByNode: map[string][]*plan.ResourceInstanceChange{}, cbdNodes: map[string]bool{}}
	creates := map[string]bool{}
	destroys := map[string]bool{}
	dtc := map[string]bool{}
	for _, c := range p.Changes {
		key := ResourceKey(c.Addr.Config())
		ag.ByNode[key] = append(ag.ByNode[key], c)
		if c.DeposedKey != "" {
			if c.Action == action.Delete || c.Action == action.Forget {
				destroys[key] = true
				// A leftover of a create_before_destroy replacement goes
				// after the instance's new object is made, as OpenTofu.
				if c.CreateBeforeDestroy {
					ag.cbdNodes[DestroyKey(key)] = true
				}
			}
			continue
		}
		switch c.Action {
		case action.Create, action.Update, action.Read:
			creates[key] = true
		case action.DeleteThenCreate:
			creates[key], destroys[key], dtc[key] = true, true, true
		case action.CreateThenDelete:
			creates[key], destroys[key] = true, true
			ag.cbdNodes[DestroyKey(key)] = true
		case action.Delete, action.Forget:
			destroys[key] = true
			if c.CreateBeforeDestroy {
				ag.cbdNodes[DestroyKey(key)] = true
			}
		}
	}
	// Stored dependencies of the objects being destroyed.
	storedDeps := map[string]map[string]bool{}
	for key := range destroys {
		deps := map[string]bool{}
		if n := cg.Nodes[key]; n != nil {
			for _, d := range n.ResDeps {
				deps[d] = true
			}
		}
		for _, c := range ag.ByNode[key] {
			if p.PriorState == nil {
				continue
			}
			ri := p.PriorState.ResourceInstance(c.Addr)
			if ri == nil {
				continue
			}
			obj := ri.Current
			if c.DeposedKey != "" {
				obj = ri.Deposed[c.DeposedKey]
			}
			if obj == nil {
				continue
			}
			for _, d := range obj.Dependencies {
				deps[ResourceKey(d)] = true
			}
		}
		storedDeps[key] = deps
	}
	for key := range destroys {
		dk := DestroyKey(key)
		ag.G.AddVertex(dk)
	}
	// Creators wait for the destroys of what they depend on, by
	// configuration (E2) or by the dependencies stored with their current
	// objects (E4); for create_before_destroy the edge is inverted so the
	// old object goes only after its dependents moved to the new one.
	for _, key := range SortedNames(creates) {
		deps := map[string]bool{}
		if n := cg.Nodes[key]; n != nil {
			for _, d := range n.ResDeps {
				deps[d] = true
			}
		}
		for _, c := range ag.ByNode[key] {
			if c.DeposedKey != "" || p.PriorState == nil {
				continue
			}
			if ri := p.PriorState.ResourceInstance(c.Addr); ri != nil && ri.Current != nil {
				for _, d := range ri.Current.Dependencies {
					deps[ResourceKey(d)] = true
				}
			}
		}
		for _, dep := range SortedNames(deps) {
			if dep == key || !destroys[dep] {
				continue
			}
			dk := DestroyKey(dep)
			if ag.cbdNodes[dk] {
				ag.G.AddEdge(dk, key)
			} else {
				ag.G.AddEdge(key, dk)
			}
		}
	}
	for _, key := range SortedNames(destroys) {
		dk := DestroyKey(key)
		cbd := ag.cbdNodes[dk]
		// The create half of a replace (E3), inverted for create_before_destroy.
		if creates[key] {
			if cbd {
				ag.G.AddEdge(dk, key)
			} else if dtc[key] {
				ag.G.AddEdge(key, dk)
			}
		}
		// Dependents are destroyed before their dependencies (E5), and an
		// object being destroyed goes before its dependency is updated (E6).
		for _, dep := range SortedNames(storedDeps[key]) {
			if dep != key && destroys[dep] {
				ag.G.AddEdge(DestroyKey(dep), dk)
			}
		}
		for _, dep := range SortedNames(storedDeps[key]) {
			if !creates[dep] || dep == key {
				continue
			}
			if cbd {
				ag.G.AddEdge(dk, dep)
			} else {
				ag.G.AddEdge(dep, dk)
			}
		}
	}
	ag.checksLast(creates, destroys)
	var diags hcl.Diagnostics
	for _, err := range ag.G.Validate() {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: err.Error()})
	}
	return ag, diags
}

// checksLast orders the reads of check blocks' data sources after every
// other change, as OpenTofu does: the checks then verify what apply leaves
// behind. Nothing outside a check block can refer to its data sources, so
// the edges cannot make a cycle.
func (ag *ApplyGraph) checksLast(creates, destroys map[string]bool) {
	nested := map[string]bool{}
	for key, cs := range ag.ByNode {
		for _, c := range cs {
			if c.Action == action.Read && c.Reason == plan.ReasonReadBecauseCheckNested {
				nested[key] = true
			}
		}
	}
	for _, n := range SortedNames(nested) {
		for _, key := range SortedNames(creates) {
			if !nested[key] {
				ag.G.AddEdge(n, key)
			}
		}
		for _, key := range SortedNames(destroys) {
			ag.G.AddEdge(n, DestroyKey(key))
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
