package state

import (
	"cmp"
	"slices"

	"github.com/tenetplan/tenet/addrs"
)

// InstanceRef is one object of the state with its full address.
type InstanceRef struct {
	Addr     addrs.AbsResourceInstance
	Deposed  DeposedKey // NotDeposed for the current object
	Object   *ObjectSrc
	Provider addrs.AbsProviderConfig
}

// SortedModules returns the module instances in state-file order: by their
// address string, lexically (so module.a[10] precedes module.a[2], as
// OpenTofu writes them).
func (s *State) SortedModules() []*Module {
	out := make([]*Module, 0, len(s.Modules))
	for _, m := range s.Modules {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *Module) int { return cmp.Compare(a.Addr.String(), b.Addr.String()) })
	return out
}

// SortedResources returns the module's resources in state-file order:
// mode name ("data" before "managed"), type, then name.
func (m *Module) SortedResources() []*Resource {
	out := make([]*Resource, 0, len(m.Resources))
	for _, r := range m.Resources {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *Resource) int { return CompareResource(a.Addr.Resource, b.Addr.Resource) })
	return out
}

// CompareResource orders resources as the state file lists them.
func CompareResource(a, b addrs.Resource) int {
	if a.Mode != b.Mode {
		return cmp.Compare(a.Mode.String(), b.Mode.String())
	}
	if c := cmp.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// SortedKeys returns the resource's instance keys: no key, then integer
// keys numerically, then string keys lexically.
func (r *Resource) SortedKeys() []addrs.InstanceKey {
	out := make([]addrs.InstanceKey, 0, len(r.Instances))
	for k := range r.Instances {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b addrs.InstanceKey) int {
		switch {
		case addrs.KeyLess(a, b):
			return -1
		case addrs.KeyLess(b, a):
			return 1
		}
		return 0
	})
	return out
}

// SortedDeposedKeys returns the deposed keys in lexical order.
func (is *ResourceInstance) SortedDeposedKeys() []DeposedKey {
	out := make([]DeposedKey, 0, len(is.Deposed))
	for k := range is.Deposed {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// AllResourceInstances lists every object in state-file order: by module
// address string, mode, type, name, key; the current object before the
// deposed ones, which follow in key order.
func (s *State) AllResourceInstances() []InstanceRef {
	if s == nil {
		return nil
	}
	var out []InstanceRef
	for _, m := range s.SortedModules() {
		for _, r := range m.SortedResources() {
			for _, k := range r.SortedKeys() {
				is := r.Instances[k]
				addr := r.Addr.Instance(k)
				if is.Current != nil {
					out = append(out, InstanceRef{Addr: addr, Object: is.Current, Provider: r.ProviderConfig})
				}
				for _, dk := range is.SortedDeposedKeys() {
					out = append(out, InstanceRef{Addr: addr, Deposed: dk, Object: is.Deposed[dk], Provider: r.ProviderConfig})
				}
			}
		}
	}
	return out
}
