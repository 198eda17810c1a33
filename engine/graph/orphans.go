package graph

import (
	"sort"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/plan"
)

// ConfigHasResource reports whether cfg declares the resource: one the
// state or a plan names but cfg does not is an orphan, given to Build.
func ConfigHasResource(cfg *config.Config, cr addrs.ConfigResource) bool {
	m := cfg.Descendant(cr.Module)
	if m == nil {
		return false
	}
	if cr.Resource.Mode == addrs.DataResourceMode {
		_, ok := m.DataResources[cr.Resource.String()]
		return ok
	}
	_, ok := m.ManagedResources[cr.Resource.String()]
	return ok
}

// ChangeLess is the order a plan lists its changes in, and the apply
// walk performs one node's deletes in: by address, then deposed key.
func ChangeLess(a, b *plan.ResourceInstanceChange) bool {
	if !a.Addr.Equal(b.Addr) {
		return a.Addr.Less(b.Addr)
	}
	return a.DeposedKey < b.DeposedKey
}

// StoredDependencies gives the resources an object of the resource node
// key is recorded in state as depending on: as in OpenTofu, every
// resource the node waits for, directly or not (through values, module
// calls, depends_on, data sources), other than itself, sorted by address.
// A reference to a whole module (module.m, depends_on = [module.m])
// waits for everything in it.
func (cg *Graph) StoredDependencies(key string) []addrs.ConfigResource {
	self := cg.Nodes[key]
	seen := map[string]bool{key: true}
	queue := []string{key}
	push := func(k string) {
		if !seen[k] {
			seen[k] = true
			queue = append(queue, k)
		}
	}
	var out []addrs.ConfigResource
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, d := range cg.G.DependenciesOf(k) {
			push(d)
		}
		for _, m := range cg.WholeModuleRefs[k] {
			for _, inner := range cg.nodesWithin(m) {
				push(inner)
			}
		}
		n := cg.Nodes[k]
		if k == key || n == nil || (n.Kind != NodeResource && n.Kind != NodeOrphan) {
			continue
		}
		if self != nil && n.Addr.Equal(self.Addr) {
			continue
		}
		out = append(out, n.Addr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// nodesWithin lists the keys of the nodes in module m and the modules
// under it.
func (cg *Graph) nodesWithin(m addrs.Module) []string {
	cg.byModuleOnce.Do(func() {
		cg.byModule = map[string][]string{}
		for _, k := range cg.Order {
			n := cg.Nodes[k]
			if n.Mod == nil {
				continue
			}
			for p := n.Mod.Path; ; p = p.Parent() {
				cg.byModule[p.String()] = append(cg.byModule[p.String()], k)
				if p.IsRoot() {
					break
				}
			}
		}
	})
	return cg.byModule[m.String()]
}
