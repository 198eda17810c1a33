package eval

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/tenetplan/tenet/addrs"
)

// CheckResults gathers the status of every checkable object (resources
// with conditions, outputs with preconditions, check blocks, variables
// with validations) during one walk. Nodes write it concurrently; the
// walk's caller reads it once the walk is over, for the JSON plan's
// `checks` and the state's `check_results`.
type CheckResults struct {
	mu      sync.Mutex
	configs map[string]*checkedConfig // by display address
}

// Checkable names a checkable block.
type Checkable struct {
	Kind   string // "resource", "output", "check" or "var"
	Module addrs.Module
	Name   string
	Res    addrs.Resource // kind "resource" only
}

func (c Checkable) local() string {
	switch c.Kind {
	case "resource":
		return c.Res.String()
	case "output":
		return "output." + c.Name
	case "check":
		return "check." + c.Name
	}
	return "var." + c.Name
}

func (c Checkable) String() string {
	if c.Module.IsRoot() {
		return c.local()
	}
	return c.Module.String() + "." + c.local()
}

type checkedConfig struct {
	Checkable
	objects map[string]*CheckedObject
}

// CheckedObject is one instance of a checkable block.
type CheckedObject struct {
	Module   addrs.ModuleInstance
	Key      addrs.InstanceKey // resources only
	status   string
	messages []string
}

func (o *CheckedObject) display(c Checkable) string {
	local := c.local()
	if c.Kind == "resource" && o.Key != nil && o.Key != addrs.NoKey {
		local = c.Res.Instance(o.Key).String()
	}
	if o.Module.IsRoot() {
		return local
	}
	return o.Module.String() + "." + local
}

// Declare registers a checkable block, so that it is reported even when
// none of its instances is evaluated.
func (r *CheckResults) Declare(c Checkable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.config(c)
}

func (r *CheckResults) config(c Checkable) *checkedConfig {
	if r.configs == nil {
		r.configs = map[string]*checkedConfig{}
	}
	key := c.String()
	cc := r.configs[key]
	if cc == nil {
		cc = &checkedConfig{Checkable: c, objects: map[string]*CheckedObject{}}
		r.configs[key] = cc
	}
	return cc
}

// Report records an object's status, keeping the worst one seen: a
// postcondition that fails after its precondition passed fails the object.
func (r *CheckResults) Report(c Checkable, obj CheckedObject, status string, messages []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cc := r.config(c)
	key := obj.display(c)
	o := cc.objects[key]
	if o == nil {
		o = &obj
		o.status = status
		cc.objects[key] = o
	} else if statusRank(status) > statusRank(o.status) {
		o.status = status
	}
	o.messages = append(o.messages, messages...)
}

func statusRank(s string) int {
	switch s {
	case checkPass:
		return 1
	case checkUnknown:
		return 2
	case checkFail:
		return 3
	case checkError:
		return 4
	}
	return 0
}

// Sorted returns the configs in address order.
func (r *CheckResults) Sorted() []*checkedConfig {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*checkedConfig, 0, len(r.configs))
	for _, c := range r.configs {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// Status is a block's aggregate status: the worst of its objects, or
// unknown with none.
func (c *checkedConfig) Status() string {
	if len(c.objects) == 0 {
		return checkUnknown
	}
	worst := checkPass
	for _, o := range c.objects {
		if statusRank(o.status) > statusRank(worst) {
			worst = o.status
		}
	}
	return worst
}

func (c *checkedConfig) sortedObjects() []*CheckedObject {
	out := make([]*CheckedObject, 0, len(c.objects))
	for _, o := range c.objects {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].display(c.Checkable) < out[j].display(c.Checkable) })
	return out
}

// PlanChecksJSON is the `checks` array of the JSON plan (format 1.2), or
// nil when nothing in the configuration is checkable.
func (r *CheckResults) PlanChecksJSON() json.RawMessage {
	type problem struct {
		Message string `json:"message"`
	}
	type instAddr struct {
		ToDisplay   string `json:"to_display"`
		Module      string `json:"module,omitempty"`
		InstanceKey any    `json:"instance_key,omitempty"`
	}
	type instance struct {
		Address  instAddr  `json:"address"`
		Status   string    `json:"status"`
		Problems []problem `json:"problems,omitempty"`
	}
	type cfgAddr struct {
		ToDisplay string `json:"to_display"`
		Kind      string `json:"kind"`
		Mode      string `json:"mode,omitempty"`
		Type      string `json:"type,omitempty"`
		Name      string `json:"name"`
		Module    string `json:"module,omitempty"`
	}
	type result struct {
		Address   cfgAddr    `json:"address"`
		Status    string     `json:"status"`
		Instances []instance `json:"instances,omitempty"`
	}
	configs := r.Sorted()
	if len(configs) == 0 {
		return nil
	}
	out := make([]result, 0, len(configs))
	for _, c := range configs {
		res := result{Status: c.Status(), Address: cfgAddr{ToDisplay: c.String(), Kind: c.Kind, Name: c.Name, Module: c.Module.String()}}
		switch c.Kind {
		case "output":
			res.Address.Kind = "output_value"
		case "resource":
			res.Address.Mode, res.Address.Type, res.Address.Name = c.Res.Mode.String(), c.Res.Type, c.Res.Name
		}
		for _, o := range c.sortedObjects() {
			inst := instance{Status: o.status, Address: instAddr{ToDisplay: o.display(c.Checkable), Module: o.Module.String()}}
			switch k := o.Key.(type) {
			case addrs.IntKey:
				inst.Address.InstanceKey = int(k)
			case addrs.StringKey:
				inst.Address.InstanceKey = string(k)
			}
			for _, m := range o.messages {
				inst.Problems = append(inst.Problems, problem{m})
			}
			res.Instances = append(res.Instances, inst)
		}
		out = append(out, res)
	}
	js, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return js
}

// StateCheckResultsJSON is the state file's `check_results`, or nil.
func (r *CheckResults) StateCheckResultsJSON() []byte {
	type object struct {
		ObjectAddr      string   `json:"object_addr"`
		Status          string   `json:"status"`
		FailureMessages []string `json:"failure_messages,omitempty"`
	}
	type result struct {
		ObjectKind string   `json:"object_kind"`
		ConfigAddr string   `json:"config_addr"`
		Status     string   `json:"status"`
		Objects    []object `json:"objects"`
	}
	configs := r.Sorted()
	if len(configs) == 0 {
		return nil
	}
	out := make([]result, 0, len(configs))
	for _, c := range configs {
		res := result{ObjectKind: c.Kind, ConfigAddr: c.String(), Status: c.Status(), Objects: []object{}}
		for _, o := range c.sortedObjects() {
			res.Objects = append(res.Objects, object{ObjectAddr: o.display(c.Checkable), Status: o.status, FailureMessages: o.messages})
		}
		out = append(out, res)
	}
	js, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return js
}
