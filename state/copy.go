package state

import (
	"bytes"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// DeepCopy returns a copy sharing no mutable memory with s.
func (s *State) DeepCopy() *State {
	if s == nil {
		return nil
	}
	out := &State{
		Modules:      make(map[string]*Module, len(s.Modules)),
		Outputs:      make(map[string]*OutputValue, len(s.Outputs)),
		CheckResults: bytes.Clone(s.CheckResults),
	}
	for k, m := range s.Modules {
		out.Modules[k] = m.DeepCopy()
	}
	for k, o := range s.Outputs {
		c := *o
		out.Outputs[k] = &c
	}
	return out
}

// DeepCopy returns a copy sharing no mutable memory with m.
func (m *Module) DeepCopy() *Module {
	out := &Module{Addr: m.Addr, Resources: make(map[string]*Resource, len(m.Resources))}
	for k, r := range m.Resources {
		out.Resources[k] = r.DeepCopy()
	}
	return out
}

// DeepCopy returns a copy sharing no mutable memory with r.
func (r *Resource) DeepCopy() *Resource {
	out := &Resource{Addr: r.Addr, ProviderConfig: r.ProviderConfig, Instances: make(map[addrs.InstanceKey]*ResourceInstance, len(r.Instances))}
	for k, is := range r.Instances {
		out.Instances[k] = is.DeepCopy()
	}
	return out
}

// DeepCopy returns a copy sharing no mutable memory with is.
func (is *ResourceInstance) DeepCopy() *ResourceInstance {
	out := &ResourceInstance{Current: is.Current.DeepCopy()}
	if len(is.Deposed) > 0 {
		out.Deposed = make(map[DeposedKey]*ObjectSrc, len(is.Deposed))
		for k, o := range is.Deposed {
			out.Deposed[k] = o.DeepCopy()
		}
	}
	return out
}

// DeepCopy returns a copy sharing no mutable memory with o (nil for nil).
// Paths are copied element by element; cty values inside them are immutable.
func (o *ObjectSrc) DeepCopy() *ObjectSrc {
	if o == nil {
		return nil
	}
	out := *o
	out.AttrsJSON = bytes.Clone(o.AttrsJSON)
	out.Private = bytes.Clone(o.Private)
	out.Dependencies = slices.Clone(o.Dependencies)
	if o.SensitivePaths != nil {
		out.SensitivePaths = make([]cty.Path, len(o.SensitivePaths))
		for i, p := range o.SensitivePaths {
			out.SensitivePaths[i] = p.Copy()
		}
	}
	return &out
}

// Equal reports whether two states have the same content: the same
// objects, outputs and check results. Metadata (serial, lineage, versions)
// lives in the file, not here; empty modules do not count.
func (s *State) Equal(o *State) bool {
	if s.Empty() && o.Empty() {
		return bytes.Equal(s.checkResults(), o.checkResults())
	}
	if s == nil || o == nil {
		return false
	}
	if !bytes.Equal(s.CheckResults, o.CheckResults) || len(s.Outputs) != len(o.Outputs) {
		return false
	}
	for k, v := range s.Outputs {
		w, ok := o.Outputs[k]
		if !ok || v.Sensitive != w.Sensitive || v.Deprecated != w.Deprecated || !v.Value.RawEquals(w.Value) {
			return false
		}
	}
	if s.nonEmptyModules() != o.nonEmptyModules() {
		return false
	}
	for k, m := range s.Modules {
		if len(m.Resources) == 0 {
			continue
		}
		om := o.Modules[k]
		if om == nil || !m.Equal(om) {
			return false
		}
	}
	return true
}

func (s *State) checkResults() []byte {
	if s == nil {
		return nil
	}
	return s.CheckResults
}

func (s *State) nonEmptyModules() int {
	n := 0
	for _, m := range s.Modules {
		if len(m.Resources) > 0 {
			n++
		}
	}
	return n
}

// Equal reports whether two module instances hold the same resources.
func (m *Module) Equal(o *Module) bool {
	return maps.EqualFunc(m.Resources, o.Resources, func(r, or *Resource) bool { return or != nil && r.Equal(or) })
}

// Equal reports whether two resources have the same provider and objects.
func (r *Resource) Equal(o *Resource) bool {
	return r.Addr.Equal(o.Addr) && providerEqual(r.ProviderConfig, o.ProviderConfig) &&
		maps.EqualFunc(r.Instances, o.Instances, func(is, ois *ResourceInstance) bool { return ois != nil && is.Equal(ois) })
}

func providerEqual(a, b addrs.AbsProviderConfig) bool {
	return a.Provider == b.Provider && a.Alias == b.Alias && a.Module.Equal(b.Module)
}

// Equal reports whether two instances have the same objects.
func (is *ResourceInstance) Equal(o *ResourceInstance) bool {
	if !is.Current.Equal(o.Current) || len(is.Deposed) != len(o.Deposed) {
		return false
	}
	for k, obj := range is.Deposed {
		if !obj.Equal(o.Deposed[k]) {
			return false
		}
	}
	return true
}

// Equal reports whether two objects would be stored identically.
func (o *ObjectSrc) Equal(p *ObjectSrc) bool {
	if o == nil || p == nil {
		return o == p
	}
	if o.SchemaVersion != p.SchemaVersion || o.Status != p.Status || o.CreateBeforeDestroy != p.CreateBeforeDestroy ||
		!bytes.Equal(o.AttrsJSON, p.AttrsJSON) || !bytes.Equal(o.Private, p.Private) {
		return false
	}
	return slices.EqualFunc(o.Dependencies, p.Dependencies, addrs.ConfigResource.Equal) &&
		slices.EqualFunc(o.SensitivePaths, p.SensitivePaths, cty.Path.Equals)
}
