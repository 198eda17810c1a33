package engine

import (
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/graphsolve"
)

// applyGraph is the configuration graph plus one destroy node per
// resource that has deletes, with the ordering edges of semantics §11.
// Nodes are per resource (not per instance): a resource's creates run as
// one node and its deletes as another, which keeps the edge count linear
// where per-instance edges would be quadratic (every instance of B after
// every instance of A).
type applyGraph struct {
	g        *graphsolve.Graph[string]
	byNode   map[string][]*plan.ResourceInstanceChange // resource node key -> changes
	cbdNodes map[string]bool                           // destroy node is create_before_destroy
}

func destroyKey(resKey string) string { return "destroy:" + resKey[len("resource:"):] }

func buildApplyGraph(cfg *config.Config, cg *configGraph, p *plan.Plan) (*applyGraph, hcl.Diagnostics) {
	ag := &applyGraph{g: cg.g.Clone(), byNode: map[string][]*plan.ResourceInstanceChange{}, cbdNodes: map[string]bool{}}
	creates := map[string]bool{}
	destroys := map[string]bool{}
	dtc := map[string]bool{}
	for _, c := range p.Changes {
		key := resourceKey(c.Addr.Config())
		ag.byNode[key] = append(ag.byNode[key], c)
		if c.DeposedKey != "" {
			if c.Action == plan.Delete || c.Action == plan.Forget {
				destroys[key] = true
			}
			continue
		}
		switch c.Action {
		case plan.Create, plan.Update, plan.Read:
			creates[key] = true
		case plan.DeleteThenCreate:
			creates[key], destroys[key], dtc[key] = true, true, true
		case plan.CreateThenDelete:
			creates[key], destroys[key] = true, true
			ag.cbdNodes[destroyKey(key)] = true
		case plan.Delete, plan.Forget:
			destroys[key] = true
			if c.CreateBeforeDestroy {
				ag.cbdNodes[destroyKey(key)] = true
			}
		}
	}
	// Stored dependencies of the objects being destroyed.
	storedDeps := map[string]map[string]bool{}
	for key := range destroys {
		deps := map[string]bool{}
		if n := cg.nodes[key]; n != nil {
			for _, d := range n.resDeps {
				deps[d] = true
			}
		}
		for _, c := range ag.byNode[key] {
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
				deps[resourceKey(d)] = true
			}
		}
		storedDeps[key] = deps
	}
	for key := range destroys {
		dk := destroyKey(key)
		ag.g.AddVertex(dk)
	}
	// Creators wait for the destroys of what they depend on, by
	// configuration (E2) or by the dependencies stored with their current
	// objects (E4); for create_before_destroy the edge is inverted so the
	// old object goes only after its dependents moved to the new one.
	for _, key := range sortedKeys(creates) {
		deps := map[string]bool{}
		if n := cg.nodes[key]; n != nil {
			for _, d := range n.resDeps {
				deps[d] = true
			}
		}
		for _, c := range ag.byNode[key] {
			if c.DeposedKey != "" || p.PriorState == nil {
				continue
			}
			if ri := p.PriorState.ResourceInstance(c.Addr); ri != nil && ri.Current != nil {
				for _, d := range ri.Current.Dependencies {
					deps[resourceKey(d)] = true
				}
			}
		}
		for _, dep := range sortedKeys(deps) {
			if dep == key || !destroys[dep] {
				continue
			}
			dk := destroyKey(dep)
			if ag.cbdNodes[dk] {
				ag.g.AddEdge(dk, key)
			} else {
				ag.g.AddEdge(key, dk)
			}
		}
	}
	for _, key := range sortedKeys(destroys) {
		dk := destroyKey(key)
		cbd := ag.cbdNodes[dk]
		// The create half of a replace (E3), inverted for create_before_destroy.
		if creates[key] {
			if cbd {
				ag.g.AddEdge(dk, key)
			} else if dtc[key] {
				ag.g.AddEdge(key, dk)
			}
		}
		// Dependents are destroyed before their dependencies (E5), and an
		// object being destroyed goes before its dependency is updated (E6).
		for _, dep := range sortedKeys(storedDeps[key]) {
			if dep != key && destroys[dep] {
				ag.g.AddEdge(destroyKey(dep), dk)
			}
		}
		for _, dep := range sortedKeys(storedDeps[key]) {
			if !creates[dep] || dep == key {
				continue
			}
			if cbd {
				ag.g.AddEdge(dk, dep)
			} else {
				ag.g.AddEdge(dep, dk)
			}
		}
	}
	var diags hcl.Diagnostics
	for _, err := range ag.g.Validate() {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: err.Error()})
	}
	return ag, diags
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
