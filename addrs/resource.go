package addrs

import "strings"

// ResourceMode says whether a resource is managed (`resource`) or read-only (`data`).
type ResourceMode byte

const (
	InvalidResourceMode ResourceMode = 0
	ManagedResourceMode ResourceMode = 'M'
	DataResourceMode    ResourceMode = 'D'
)

// String gives the mode as the JSON plan and state formats spell it.
func (m ResourceMode) String() string {
	switch m {
	case ManagedResourceMode:
		return "managed"
	case DataResourceMode:
		return "data"
	}
	return "invalid"
}

// ParseResourceMode reads a mode as String spells it; any other string
// is InvalidResourceMode.
func ParseResourceMode(s string) ResourceMode {
	switch s {
	case "managed":
		return ManagedResourceMode
	case "data":
		return DataResourceMode
	}
	return InvalidResourceMode
}

// Resource is a resource block's address relative to its module.
type Resource struct {
	Mode ResourceMode
	Type string
	Name string
}

func (r Resource) String() string {
	if r.Mode == DataResourceMode {
		return "data." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

// Instance returns the address of one instance of r.
func (r Resource) Instance(key InstanceKey) ResourceInstance {
	return ResourceInstance{Resource: r, Key: key}
}

// Absolute places r in a module instance.
func (r Resource) Absolute(m ModuleInstance) AbsResource {
	return AbsResource{Module: m, Resource: r}
}

// InModule places r in a static module path.
func (r Resource) InModule(m Module) ConfigResource {
	return ConfigResource{Module: m, Resource: r}
}

// ImpliedProviderType is the provider local name implied by the resource
// type: the part before the first underscore ("aws" for aws_instance).
func (r Resource) ImpliedProviderType() string {
	if i := strings.IndexByte(r.Type, '_'); i > 0 {
		return r.Type[:i]
	}
	return r.Type
}

func (r Resource) Less(o Resource) bool {
	if r.Mode != o.Mode {
		return r.Mode == DataResourceMode // "data." sorts before managed types in address order
	}
	if r.Type != o.Type {
		return r.Type < o.Type
	}
	return r.Name < o.Name
}

// ResourceInstance is one instance of a resource, relative to its module.
type ResourceInstance struct {
	Resource Resource
	Key      InstanceKey
}

func (r ResourceInstance) String() string {
	if r.Key == nil {
		return r.Resource.String()
	}
	return r.Resource.String() + r.Key.String()
}

// Absolute places r in a module instance.
func (r ResourceInstance) Absolute(m ModuleInstance) AbsResourceInstance {
	return AbsResourceInstance{Module: m, Resource: r}
}

// ConfigResource is a resource block in the static module tree: every
// instance of every instance of its module shares it.
type ConfigResource struct {
	Module   Module
	Resource Resource
}

func (r ConfigResource) String() string { return inModule(r.Module.String(), r.Resource.String()) }

func (r ConfigResource) Equal(o ConfigResource) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

// AbsResource is a resource in one module instance.
type AbsResource struct {
	Module   ModuleInstance
	Resource Resource
}

func (r AbsResource) String() string { return inModule(r.Module.String(), r.Resource.String()) }

// inModule prefixes an address within a module with the module's path
// ("" for root).
func inModule(module, addr string) string {
	if module == "" {
		return addr
	}
	return module + "." + addr
}

// Instance returns the address of one instance of r.
func (r AbsResource) Instance(key InstanceKey) AbsResourceInstance {
	return AbsResourceInstance{Module: r.Module, Resource: ResourceInstance{Resource: r.Resource, Key: key}}
}

// Config drops the module instance keys.
func (r AbsResource) Config() ConfigResource {
	return ConfigResource{Module: r.Module.Module(), Resource: r.Resource}
}

func (r AbsResource) Equal(o AbsResource) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

func (r AbsResource) Less(o AbsResource) bool {
	if !r.Module.Equal(o.Module) {
		return r.Module.Less(o.Module)
	}
	return r.Resource.Less(o.Resource)
}

// AbsResourceInstance is the full address of one resource instance.
type AbsResourceInstance struct {
	Module   ModuleInstance
	Resource ResourceInstance
}

func (r AbsResourceInstance) String() string {
	if len(r.Module) == 0 {
		return r.Resource.String()
	}
	var b strings.Builder
	r.Module.writeTo(&b)
	b.WriteByte('.')
	b.WriteString(r.Resource.String())
	return b.String()
}

// ContainingResource drops the instance key.
func (r AbsResourceInstance) ContainingResource() AbsResource {
	return AbsResource{Module: r.Module, Resource: r.Resource.Resource}
}

// Config drops every instance key.
func (r AbsResourceInstance) Config() ConfigResource {
	return ConfigResource{Module: r.Module.Module(), Resource: r.Resource.Resource}
}

func (r AbsResourceInstance) Equal(o AbsResourceInstance) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

// Less orders instances the way plans and state files list them.
func (r AbsResourceInstance) Less(o AbsResourceInstance) bool {
	if !r.Module.Equal(o.Module) {
		return r.Module.Less(o.Module)
	}
	if r.Resource.Resource != o.Resource.Resource {
		return r.Resource.Resource.Less(o.Resource.Resource)
	}
	return KeyLess(r.Resource.Key, o.Resource.Key)
}
