package state

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// Change is one edit of a SyncState as an observer sees it: either an
// object now stored at Addr/Deposed (Object nil = removed), or, when
// Output is set, a root output value (OutputValue nil = removed).
type Change struct {
	Addr     addrs.AbsResourceInstance
	Deposed  DeposedKey
	Object   *ObjectSrc
	Provider addrs.AbsProviderConfig

	Output      string
	OutputValue *OutputValue
}

// SyncState guards a State for the engine's parallel apply. Every method
// takes the lock; Lock gives direct access for batches of reads. Objects
// passed in or handed out must be treated as immutable: replace an object
// rather than editing it.
//
// An optional observer sees every change, in order, while the lock is
// held; state/local's journal uses it to make each completed operation
// durable without rewriting the whole state file.
type SyncState struct {
	mu       sync.Mutex
	state    *State
	observer func(Change)
}

// NewSyncState wraps s, which the caller must no longer use directly.
func NewSyncState(s *State) *SyncState {
	if s == nil {
		s = NewState()
	}
	return &SyncState{state: s}
}

// SetObserver installs fn to be called with every change (nil removes it).
// fn runs with the state locked and must not call back into the SyncState.
func (ss *SyncState) SetObserver(fn func(Change)) {
	ss.mu.Lock()
	ss.observer = fn
	ss.mu.Unlock()
}

// Lock locks the state and returns it for direct reads; call Unlock after.
// Changes made through the returned pointer are not observed.
func (ss *SyncState) Lock() *State {
	ss.mu.Lock()
	return ss.state
}

// Unlock releases the lock taken by Lock.
func (ss *SyncState) Unlock() { ss.mu.Unlock() }

// Snapshot returns a deep copy of the current state.
func (ss *SyncState) Snapshot() *State {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.state.DeepCopy()
}

// ResourceInstanceObject returns the current or a deposed object, or nil.
func (ss *SyncState) ResourceInstanceObject(addr addrs.AbsResourceInstance, deposed DeposedKey) *ObjectSrc {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.state.ResourceInstanceObject(addr, deposed)
}

// ResourceInstance returns a deep copy of the instance, or nil.
func (ss *SyncState) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstance {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	is := ss.state.ResourceInstance(addr)
	if is == nil {
		return nil
	}
	return is.DeepCopy()
}

// OutputValue returns a copy of the named root output, or nil.
func (ss *SyncState) OutputValue(name string) *OutputValue {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	o := ss.state.OutputValue(name)
	if o == nil {
		return nil
	}
	c := *o
	return &c
}

func (ss *SyncState) notify(c Change) {
	if ss.observer != nil {
		ss.observer(c)
	}
}

func (ss *SyncState) providerOf(addr addrs.AbsResourceInstance) addrs.AbsProviderConfig {
	if r := ss.state.Resource(addr.ContainingResource()); r != nil {
		return r.ProviderConfig
	}
	return addrs.AbsProviderConfig{}
}

// SetResourceInstanceCurrent is State.SetResourceInstanceCurrent.
func (ss *SyncState) SetResourceInstanceCurrent(addr addrs.AbsResourceInstance, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.state.SetResourceInstanceCurrent(addr, obj, provider)
	ss.notify(Change{Addr: addr, Object: obj, Provider: provider})
}

// SetResourceInstanceDeposed is State.SetResourceInstanceDeposed.
func (ss *SyncState) SetResourceInstanceDeposed(addr addrs.AbsResourceInstance, key DeposedKey, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.state.SetResourceInstanceDeposed(addr, key, obj, provider)
	ss.notify(Change{Addr: addr, Deposed: key, Object: obj, Provider: provider})
}

// DeposeResourceInstanceObject is State.DeposeResourceInstanceObject.
func (ss *SyncState) DeposeResourceInstanceObject(addr addrs.AbsResourceInstance) DeposedKey {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	obj := ss.state.ResourceInstanceObject(addr, NotDeposed)
	key := ss.state.DeposeResourceInstanceObject(addr)
	if key != NotDeposed {
		p := ss.providerOf(addr)
		ss.notify(Change{Addr: addr, Deposed: key, Object: obj, Provider: p})
		ss.notify(Change{Addr: addr, Provider: p})
	}
	return key
}

// MaybeRestoreResourceInstanceDeposed is State.MaybeRestoreResourceInstanceDeposed.
func (ss *SyncState) MaybeRestoreResourceInstanceDeposed(addr addrs.AbsResourceInstance, key DeposedKey) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	obj := ss.state.ResourceInstanceObject(addr, key)
	if !ss.state.MaybeRestoreResourceInstanceDeposed(addr, key) {
		return false
	}
	p := ss.providerOf(addr)
	ss.notify(Change{Addr: addr, Object: obj, Provider: p})
	ss.notify(Change{Addr: addr, Deposed: key, Provider: p})
	return true
}

// ForgetResourceInstanceAll is State.ForgetResourceInstanceAll.
func (ss *SyncState) ForgetResourceInstanceAll(addr addrs.AbsResourceInstance) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	is := ss.state.ResourceInstance(addr)
	if is == nil {
		return
	}
	p := ss.providerOf(addr)
	hadCurrent := is.Current != nil
	deposed := is.SortedDeposedKeys()
	ss.state.ForgetResourceInstanceAll(addr)
	if hadCurrent {
		ss.notify(Change{Addr: addr, Provider: p})
	}
	for _, k := range deposed {
		ss.notify(Change{Addr: addr, Deposed: k, Provider: p})
	}
}

// SetOutputValue is State.SetOutputValue.
func (ss *SyncState) SetOutputValue(name string, v cty.Value, sensitive bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.state.SetOutputValue(name, v, sensitive)
	ss.notify(Change{Output: name, OutputValue: ss.state.Outputs[name]})
}

// RemoveOutputValue is State.RemoveOutputValue.
func (ss *SyncState) RemoveOutputValue(name string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.state.RemoveOutputValue(name)
	ss.notify(Change{Output: name})
}

// Apply replays a change onto a plain State: the journal's recovery path.
func (s *State) Apply(c Change) {
	if c.Output != "" {
		if c.OutputValue == nil {
			s.RemoveOutputValue(c.Output)
		} else {
			v := *c.OutputValue
			if s.Outputs == nil {
				s.Outputs = map[string]*OutputValue{}
			}
			s.Outputs[c.Output] = &v
		}
		return
	}
	if c.Deposed == NotDeposed {
		s.SetResourceInstanceCurrent(c.Addr, c.Object, c.Provider)
	} else {
		s.SetResourceInstanceDeposed(c.Addr, c.Deposed, c.Object, c.Provider)
	}
}
