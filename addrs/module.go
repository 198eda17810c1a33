package addrs

import (
	"slices"
	"strings"
)

// Module is the static path of a module in the configuration tree, without
// instance keys: ["network", "subnets"] is module.network.module.subnets.
// The root module is the empty path.
type Module []string

// RootModule is the path of the root module.
var RootModule Module

func (m Module) IsRoot() bool { return len(m) == 0 }

func (m Module) String() string {
	if len(m) == 0 {
		return ""
	}
	var b strings.Builder
	for i, name := range m {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(name)
	}
	return b.String()
}

// Child returns the path of the named child module call.
func (m Module) Child(name string) Module {
	out := make(Module, len(m)+1)
	copy(out, m)
	out[len(m)] = name
	return out
}

// Parent returns the path of the module that calls m (root for root).
func (m Module) Parent() Module { return parentPath(m) }

func (m Module) Equal(o Module) bool { return slices.Equal(m, o) }

// parentPath is a module path without its last step (root for root).
func parentPath[S ~[]E, E any](path S) S {
	if len(path) == 0 {
		return path
	}
	return path[:len(path)-1]
}

// ModuleInstanceStep is one `module.NAME[KEY]` step of a module instance path.
type ModuleInstanceStep struct {
	Name string
	Key  InstanceKey
}

// ModuleInstance is the path of one instance of a module: every step
// carries the key chosen by the calling block's count or for_each.
type ModuleInstance []ModuleInstanceStep

// RootModuleInstance is the path of the root module's only instance.
var RootModuleInstance ModuleInstance

func (m ModuleInstance) IsRoot() bool { return len(m) == 0 }

func (m ModuleInstance) String() string {
	if len(m) == 0 {
		return ""
	}
	var b strings.Builder
	m.writeTo(&b)
	return b.String()
}

func (m ModuleInstance) writeTo(b *strings.Builder) {
	for i, s := range m {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(s.Name)
		if s.Key != nil {
			b.WriteString(s.Key.String())
		}
	}
}

// Module drops the instance keys.
func (m ModuleInstance) Module() Module {
	if len(m) == 0 {
		return nil
	}
	out := make(Module, len(m))
	for i, s := range m {
		out[i] = s.Name
	}
	return out
}

// Child returns the instance path of one instance of the named child call.
func (m ModuleInstance) Child(name string, key InstanceKey) ModuleInstance {
	out := make(ModuleInstance, len(m)+1)
	copy(out, m)
	out[len(m)] = ModuleInstanceStep{Name: name, Key: key}
	return out
}

// Parent returns the calling module instance.
func (m ModuleInstance) Parent() ModuleInstance { return parentPath(m) }

// Equal compares name and key step by step.
func (m ModuleInstance) Equal(o ModuleInstance) bool { return slices.Equal(m, o) }

// IsAncestorOf reports whether o is m or lies below m.
func (m ModuleInstance) IsAncestorOf(o ModuleInstance) bool {
	if len(o) < len(m) {
		return false
	}
	return m.Equal(o[:len(m)])
}

// Less orders module instances by path, steps compared by name then key.
func (m ModuleInstance) Less(o ModuleInstance) bool {
	for i := 0; i < len(m) && i < len(o); i++ {
		if m[i].Name != o[i].Name {
			return m[i].Name < o[i].Name
		}
		if m[i].Key != o[i].Key {
			return KeyLess(m[i].Key, o[i].Key)
		}
	}
	return len(m) < len(o)
}
