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
func (cg *Graph) StoredDependencies(key string) []addrs.ConfigResource {
	self := cg.Nodes[key]
	var out []addrs.ConfigResource
	for _, k := range cg.G.TransitiveDependencies(key) {
		n := cg.Nodes[k]
		if n == nil || (n.Kind != NodeResource && n.Kind != NodeOrphan) || k == key {
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
