package engine

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/tenetplan/tenet/addrs"
)

// checkResults gathers the status of every checkable object (resources
// with conditions, outputs with preconditions, check blocks, variables
// with validations) during one walk. Nodes write it concurrently; the
// walk's caller reads it once the walk is over, for the JSON plan's
// `checks` and the state's `check_results`.
type checkResults struct {
	mu      sync.Mutex
	configs map[string]*checkedConfig // by display address
}

// checkable names a checkable block.
type checkable struct {
	kind   string // "resource", "output", "check" or "var"
	module addrs.Module
	name   string
	res    addrs.Resource // kind "resource" only
}

func (c checkable) local() string {
	switch c.kind {
	case "resource":
		return c.res.String()
	case "output":
		return "output." + c.name
	case "check":
		return "check." + c.name
	}
	return "var." + c.name
}

func (c checkable) String() string {
	if c.module.IsRoot() {
		return c.local()
	}
	return c.module.String() + "." + c.local()
}

type checkedConfig struct {
	checkable
	objects map[string]*checkedObject
}

// checkedObject is one instance of a checkable block.
type checkedObject struct {
	module   addrs.ModuleInstance
	key      addrs.InstanceKey // resources only
	status   string
	messages []string
}

func (o *checkedObject) display(c checkable) string {
	local := c.local()
	if c.kind == "resource" && o.key != nil && o.key != addrs.NoKey {
		local = c.res.Instance(o.key).String()
	}
	if o.module.IsRoot() {
		return local
	}
	return o.module.String() + "." + local
}

// declare registers a checkable block, so that it is reported even when
// none of its instances is evaluated.
func (r *checkResults) declare(c checkable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.config(c)
}

func (r *checkResults) config(c checkable) *checkedConfig {
	if r.configs == nil {
		r.configs = map[string]*checkedConfig{}
	}
	key := c.String()
	cc := r.configs[key]
	if cc == nil {
		cc = &checkedConfig{checkable: c, objects: map[string]*checkedObject{}}
		r.configs[key] = cc
	}
	return cc
}

// report records an object's status, keeping the worst one seen: a
// postcondition that fails after its precondition passed fails the object.
func (r *checkResults) report(c checkable, obj checkedObject, status string, messages []string) {
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

// sorted returns the configs in address order.
func (r *checkResults) sorted() []*checkedConfig {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*checkedConfig, 0, len(r.configs))
	for _, c := range r.configs {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// status is a block's aggregate status: the worst of its objects, or
// unknown with none.
func (c *checkedConfig) status() string {
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

func (c *checkedConfig) sortedObjects() []*checkedObject {
	out := make([]*checkedObject, 0, len(c.objects))
	for _, o := range c.objects {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].display(c.checkable) < out[j].display(c.checkable) })
	return out
}

// planChecksJSON is the `checks` array of the JSON plan (format 1.2), or
// nil when nothing in the configuration is checkable.
func (r *checkResults) planChecksJSON() json.RawMessage {
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
	configs := r.sorted()
	if len(configs) == 0 {
		return nil
	}
	out := make([]result, 0, len(configs))
	for _, c := range configs {
		res := result{Status: c.status(), Address: cfgAddr{ToDisplay: c.String(), Kind: c.kind, Name: c.name, Module: c.module.String()}}
		switch c.kind {
		case "output":
			res.Address.Kind = "output_value"
		case "resource":
			res.Address.Mode, res.Address.Type, res.Address.Name = c.res.Mode.String(), c.res.Type, c.res.Name
		}
		for _, o := range c.sortedObjects() {
			inst := instance{Status: o.status, Address: instAddr{ToDisplay: o.display(c.checkable), Module: o.module.String()}}
			switch k := o.key.(type) {
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

// stateCheckResultsJSON is the state file's `check_results`, or nil.
func (r *checkResults) stateCheckResultsJSON() []byte {
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
	configs := r.sorted()
	if len(configs) == 0 {
		return nil
	}
	out := make([]result, 0, len(configs))
	for _, c := range configs {
		res := result{ObjectKind: c.kind, ConfigAddr: c.String(), Status: c.status(), Objects: []object{}}
		for _, o := range c.sortedObjects() {
			res.Objects = append(res.Objects, object{ObjectAddr: o.display(c.checkable), Status: o.status, FailureMessages: o.messages})
		}
		out = append(out, res)
	}
	js, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return js
}
