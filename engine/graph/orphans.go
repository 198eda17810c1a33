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
	in := map[string]bool{}
	starts := []string{key}
	for len(starts) > 0 {
		var next []string
		for _, k := range append(starts, cg.G.TransitiveDependencies(starts...)...) {
			if in[k] {
				continue
			}
			in[k] = true
			for _, m := range cg.WholeModuleRefs[k] {
				for _, inner := range cg.nodesWithin(m) {
					if !in[inner] {
						next = append(next, inner)
					}
				}
			}
		}
		starts = next
	}
	self := cg.Nodes[key]
	var out []addrs.ConfigResource
	for _, k := range cg.resourcesByAddress() {
		n := cg.Nodes[k]
		if !in[k] || k == key || (self != nil && n.Addr.Equal(self.Addr)) {
			continue
		}
		out = append(out, n.Addr)
	}
	return out
}

// resourcesByAddress lists the keys of the resource nodes sorted by
// address, computed once.
func (cg *Graph) resourcesByAddress() []string {
	cg.byAddressOnce.Do(func() {
		names := map[string]string{}
		for _, k := range cg.Order {
			if n := cg.Nodes[k]; n.Kind == NodeResource || n.Kind == NodeOrphan {
				cg.byAddress = append(cg.byAddress, k)
				names[k] = n.Addr.String()
			}
		}
		sort.Slice(cg.byAddress, func(i, j int) bool { return names[cg.byAddress[i]] < names[cg.byAddress[j]] })
	})
	return cg.byAddress
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
