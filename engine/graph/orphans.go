package graph

import (
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
