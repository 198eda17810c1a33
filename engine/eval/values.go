package eval

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// moduleValues holds the evaluated values of one module instance. Each
// entry is written once, by the node that owns it, before any dependent
// reads it; the mutex only guards the maps themselves.
type moduleValues struct {
	mu        sync.RWMutex
	variables map[string]cty.Value
	locals    map[string]cty.Value
	outputs   map[string]cty.Value
	// resources holds whole-resource values ("type.name" or
	// "data.type.name"): an object, a tuple (count) or an object keyed by
	// each.key (for_each), built once when the resource node completes.
	resources map[string]cty.Value
	// calls holds the value of module.NAME for each child call, built
	// once when all of the call's outputs are known.
	calls map[string]cty.Value
}

func newModuleValues() *moduleValues {
	return &moduleValues{
		variables: map[string]cty.Value{},
		locals:    map[string]cty.Value{},
		outputs:   map[string]cty.Value{},
		resources: map[string]cty.Value{},
		calls:     map[string]cty.Value{},
	}
}

// valueStore maps module instances to their values.
type valueStore struct {
	mu      sync.RWMutex
	modules map[string]*moduleValues
}

func NewValueStore() *valueStore {
	return &valueStore{modules: map[string]*moduleValues{}}
}

func (s *valueStore) Module(m addrs.ModuleInstance) *moduleValues {
	key := m.String()
	s.mu.RLock()
	mv := s.modules[key]
	s.mu.RUnlock()
	if mv != nil {
		return mv
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if mv = s.modules[key]; mv == nil {
		mv = newModuleValues()
		s.modules[key] = mv
	}
	return mv
}

func (mv *moduleValues) Get(kind byte, name string) (cty.Value, bool) {
	mv.mu.RLock()
	defer mv.mu.RUnlock()
	var v cty.Value
	var ok bool
	switch kind {
	case 'v':
		v, ok = mv.variables[name]
	case 'l':
		v, ok = mv.locals[name]
	case 'o':
		v, ok = mv.outputs[name]
	case 'r':
		v, ok = mv.resources[name]
	case 'c':
		v, ok = mv.calls[name]
	}
	return v, ok
}

func (mv *moduleValues) Set(kind byte, name string, v cty.Value) {
	mv.mu.Lock()
	defer mv.mu.Unlock()
	switch kind {
	case 'v':
		mv.variables[name] = v
	case 'l':
		mv.locals[name] = v
	case 'o':
		mv.outputs[name] = v
	case 'r':
		mv.resources[name] = v
	case 'c':
		mv.calls[name] = v
	}
}

// expansion records, for each static module path, the module instances
// that exist, and for each module instance the repetition data its
// calling block gave it (count.index / each.key / each.value are not
// visible inside a module, but its instance key is).
type expansion struct {
	mu        sync.RWMutex
	instances map[string][]addrs.ModuleInstance // static module path -> instances
	reps      map[string]Repetition             // module instance -> its calling block's repetition
	kinds     map[string]byte                   // static module path -> repetition kind of its call
}

func NewExpansion() *expansion {
	e := &expansion{instances: map[string][]addrs.ModuleInstance{}, reps: map[string]Repetition{}, kinds: map[string]byte{}}
	e.instances[""] = []addrs.ModuleInstance{addrs.RootModuleInstance}
	return e
}

func (e *expansion) ModuleInstances(path addrs.Module) []addrs.ModuleInstance {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.instances[path.String()]
}

func (e *expansion) AddModuleInstances(path addrs.Module, kind byte, insts []addrs.ModuleInstance, reps []Repetition) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.instances[path.String()] = append(e.instances[path.String()], insts...)
	e.kinds[path.String()] = kind
	for i, m := range insts {
		e.reps[m.String()] = reps[i]
	}
}

// IsDeclared reports whether a module instance exists in this expansion.
func (e *expansion) IsDeclared(m addrs.ModuleInstance) bool {
	if m.IsRoot() {
		return true
	}
	for _, inst := range e.ModuleInstances(m.Module()) {
		if inst.Equal(m) {
			return true
		}
	}
	return false
}

// deepestDeclared returns how many leading steps of m name declared module instances.
func (e *expansion) deepestDeclared(m addrs.ModuleInstance) int {
	for n := len(m); n > 0; n-- {
		if e.IsDeclared(m[:n]) {
			return n
		}
	}
	return 0
}
