package state

import (
	"fmt"
	"math/rand/v2"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// NewState returns an empty state holding only the root module.
func NewState() *State {
	return &State{
		Modules: map[string]*Module{"": newModule(addrs.RootModuleInstance)},
		Outputs: map[string]*OutputValue{},
	}
}

func newModule(addr addrs.ModuleInstance) *Module {
	return &Module{Addr: addr, Resources: map[string]*Resource{}}
}

// Module returns the module instance's resources, or nil if the state holds
// nothing for it.
func (s *State) Module(addr addrs.ModuleInstance) *Module {
	return s.Modules[addr.String()]
}

// EnsureModule returns the module instance, adding it if missing. A
// non-root module left without resources is pruned by the next removal
// inside it; one never given a resource stays until RemoveModule.
func (s *State) EnsureModule(addr addrs.ModuleInstance) *Module {
	if s.Modules == nil {
		s.Modules = map[string]*Module{}
	}
	k := addr.String()
	m := s.Modules[k]
	if m == nil {
		m = newModule(addr)
		s.Modules[k] = m
	}
	return m
}

// RemoveModule drops a non-root module instance and everything in it.
func (s *State) RemoveModule(addr addrs.ModuleInstance) {
	if addr.IsRoot() {
		s.Modules[""] = newModule(addrs.RootModuleInstance)
		return
	}
	delete(s.Modules, addr.String())
}

// Resource returns the resource, or nil if the state holds none.
func (s *State) Resource(addr addrs.AbsResource) *Resource {
	m := s.Module(addr.Module)
	if m == nil {
		return nil
	}
	return m.Resources[addr.Resource.String()]
}

// ResourceInstance returns the instance, or nil if the state holds none.
func (s *State) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstance {
	r := s.Resource(addr.ContainingResource())
	if r == nil {
		return nil
	}
	return r.Instances[addr.Resource.Key]
}

// ResourceInstanceObject returns the current object (deposed ==
// NotDeposed) or the named deposed object, or nil.
func (s *State) ResourceInstanceObject(addr addrs.AbsResourceInstance, deposed DeposedKey) *ObjectSrc {
	is := s.ResourceInstance(addr)
	if is == nil {
		return nil
	}
	if deposed == NotDeposed {
		return is.Current
	}
	return is.Deposed[deposed]
}

// ensureResourceInstance returns the instance, creating the module,
// resource and instance as needed, and records the provider configuration.
func (s *State) ensureResourceInstance(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig) (*Module, *Resource, *ResourceInstance) {
	m := s.EnsureModule(addr.Module)
	rk := addr.Resource.Resource.String()
	r := m.Resources[rk]
	if r == nil {
		r = &Resource{Addr: addr.ContainingResource(), Instances: map[addrs.InstanceKey]*ResourceInstance{}}
		m.Resources[rk] = r
	}
	if !provider.Provider.IsZero() {
		r.ProviderConfig = provider
	}
	is := r.Instances[addr.Resource.Key]
	if is == nil {
		is = &ResourceInstance{}
		r.Instances[addr.Resource.Key] = is
	}
	return m, r, is
}

// prune removes the instance, its resource and its module when they have
// become empty. The root module is never removed.
func (s *State) prune(addr addrs.AbsResourceInstance) {
	m := s.Module(addr.Module)
	if m == nil {
		return
	}
	rk := addr.Resource.Resource.String()
	r := m.Resources[rk]
	if r == nil {
		return
	}
	if is := r.Instances[addr.Resource.Key]; is != nil && !is.HasObjects() {
		delete(r.Instances, addr.Resource.Key)
	}
	if len(r.Instances) == 0 {
		delete(m.Resources, rk)
	}
	if len(m.Resources) == 0 && !addr.Module.IsRoot() {
		delete(s.Modules, addr.Module.String())
	}
}

// SetResourceInstanceCurrent records obj as the instance's current object;
// nil removes the current object. provider is recorded for the whole
// resource unless it is the zero value.
func (s *State) SetResourceInstanceCurrent(addr addrs.AbsResourceInstance, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	if obj == nil {
		if is := s.ResourceInstance(addr); is != nil {
			is.Current = nil
			s.prune(addr)
		}
		return
	}
	_, _, is := s.ensureResourceInstance(addr, provider)
	is.Current = obj
}

// SetResourceInstanceDeposed records obj as the deposed object named key;
// nil removes it.
func (s *State) SetResourceInstanceDeposed(addr addrs.AbsResourceInstance, key DeposedKey, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	if key == NotDeposed {
		panic("SetResourceInstanceDeposed with NotDeposed key")
	}
	if obj == nil {
		if is := s.ResourceInstance(addr); is != nil {
			delete(is.Deposed, key)
			s.prune(addr)
		}
		return
	}
	_, _, is := s.ensureResourceInstance(addr, provider)
	if is.Deposed == nil {
		is.Deposed = map[DeposedKey]*ObjectSrc{}
	}
	is.Deposed[key] = obj
}

// DeposeResourceInstanceObject moves the current object to a new deposed
// key, unique within the instance, and returns the key; NotDeposed if there
// was no current object.
func (s *State) DeposeResourceInstanceObject(addr addrs.AbsResourceInstance) DeposedKey {
	is := s.ResourceInstance(addr)
	if is == nil || is.Current == nil {
		return NotDeposed
	}
	key := is.newDeposedKey()
	if is.Deposed == nil {
		is.Deposed = map[DeposedKey]*ObjectSrc{}
	}
	is.Deposed[key] = is.Current
	is.Current = nil
	return key
}

// DeposeResourceInstanceObjectForceKey is DeposeResourceInstanceObject with
// a chosen key, for replaying a recorded apply. It overwrites an existing
// deposed object of that key.
func (s *State) DeposeResourceInstanceObjectForceKey(addr addrs.AbsResourceInstance, key DeposedKey) {
	is := s.ResourceInstance(addr)
	if is == nil || is.Current == nil || key == NotDeposed {
		return
	}
	if is.Deposed == nil {
		is.Deposed = map[DeposedKey]*ObjectSrc{}
	}
	is.Deposed[key] = is.Current
	is.Current = nil
}

// MaybeRestoreResourceInstanceDeposed makes the deposed object current
// again if the instance has no current object (a create_before_destroy
// replacement whose create failed). It reports whether it did.
func (s *State) MaybeRestoreResourceInstanceDeposed(addr addrs.AbsResourceInstance, key DeposedKey) bool {
	is := s.ResourceInstance(addr)
	if is == nil || is.Current != nil {
		return false
	}
	obj, ok := is.Deposed[key]
	if !ok {
		return false
	}
	delete(is.Deposed, key)
	is.Current = obj
	return true
}

// ForgetResourceInstanceAll removes the instance's current and deposed
// objects.
func (s *State) ForgetResourceInstanceAll(addr addrs.AbsResourceInstance) {
	is := s.ResourceInstance(addr)
	if is == nil {
		return
	}
	is.Current = nil
	is.Deposed = nil
	s.prune(addr)
}

// RemoveResource removes the resource with all its instances.
func (s *State) RemoveResource(addr addrs.AbsResource) {
	m := s.Module(addr.Module)
	if m == nil {
		return
	}
	delete(m.Resources, addr.Resource.String())
	if len(m.Resources) == 0 && !addr.Module.IsRoot() {
		delete(s.Modules, addr.Module.String())
	}
}

// SetResourceProvider changes the provider configuration recorded for an
// existing resource.
func (s *State) SetResourceProvider(addr addrs.AbsResource, provider addrs.AbsProviderConfig) {
	if r := s.Resource(addr); r != nil {
		r.ProviderConfig = provider
	}
}

// MoveResourceInstance moves every object of src to dst (moved blocks,
// `state mv`). It fails if dst already has objects.
func (s *State) MoveResourceInstance(src, dst addrs.AbsResourceInstance) error {
	is := s.ResourceInstance(src)
	if is == nil {
		return fmt.Errorf("no resource instance %s in the state", src)
	}
	if d := s.ResourceInstance(dst); d != nil && d.HasObjects() {
		return fmt.Errorf("resource instance %s already exists in the state", dst)
	}
	provider := s.Resource(src.ContainingResource()).ProviderConfig
	if r := s.Resource(dst.ContainingResource()); r != nil && !r.ProviderConfig.Provider.IsZero() {
		provider = r.ProviderConfig
	}
	_, _, d := s.ensureResourceInstance(dst, provider)
	d.Current, d.Deposed = is.Current, is.Deposed
	is.Current, is.Deposed = nil, nil
	s.prune(src)
	return nil
}

// MoveResource moves a whole resource with its instances to dst (moved
// blocks, `state mv`). It fails if dst already exists.
func (s *State) MoveResource(src, dst addrs.AbsResource) error {
	r := s.Resource(src)
	if r == nil {
		return fmt.Errorf("no resource %s in the state", src)
	}
	if s.Resource(dst) != nil {
		return fmt.Errorf("resource %s already exists in the state", dst)
	}
	s.RemoveResource(src)
	r.Addr = dst
	s.EnsureModule(dst.Module).Resources[dst.Resource.String()] = r
	return nil
}

// HasObjects reports whether the instance has a current or deposed object.
func (is *ResourceInstance) HasObjects() bool {
	return is.Current != nil || len(is.Deposed) > 0
}

func (is *ResourceInstance) newDeposedKey() DeposedKey {
	for {
		k := DeposedKey(fmt.Sprintf("%08x", rand.Uint32()))
		if _, taken := is.Deposed[k]; !taken {
			return k
		}
	}
}

// OutputValue returns the named root output, or nil.
func (s *State) OutputValue(name string) *OutputValue {
	return s.Outputs[name]
}

// SetOutputValue records a root output value.
func (s *State) SetOutputValue(name string, v cty.Value, sensitive bool) {
	if s.Outputs == nil {
		s.Outputs = map[string]*OutputValue{}
	}
	s.Outputs[name] = &OutputValue{Value: v, Sensitive: sensitive}
}

// RemoveOutputValue forgets a root output value.
func (s *State) RemoveOutputValue(name string) {
	delete(s.Outputs, name)
}

// Empty reports whether the state holds no resource objects and no outputs.
func (s *State) Empty() bool {
	if s == nil {
		return true
	}
	if len(s.Outputs) > 0 {
		return false
	}
	for _, m := range s.Modules {
		if len(m.Resources) > 0 {
			return false
		}
	}
	return true
}

// HasManagedResourceInstanceObjects reports whether any managed resource
// has an object: the state is not "empty" for destroy and push purposes.
func (s *State) HasManagedResourceInstanceObjects() bool {
	if s == nil {
		return false
	}
	for _, m := range s.Modules {
		for _, r := range m.Resources {
			if r.Addr.Resource.Mode == addrs.ManagedResourceMode && len(r.Instances) > 0 {
				return true
			}
		}
	}
	return false
}
