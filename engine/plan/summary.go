package plan

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/state"
)

// Summary counts the changes the way the plan's closing line reports them
// ("Plan: 1 to import, 2 to add, 0 to change, 1 to destroy, 1 to forget.").
type Summary struct {
	Import, Add, Change, Destroy, Forget int
}

// Summary counts resource changes: a replace adds one and destroys one,
// reads are not counted, data-source deletes (destroy mode) are invisible.
func (p *Plan) Summary() Summary {
	var s Summary
	for _, c := range p.Changes {
		if c.Importing != nil {
			s.Import++
		}
		switch c.Action {
		case action.Create:
			s.Add++
		case action.Update:
			s.Change++
		case action.DeleteThenCreate, action.CreateThenDelete:
			s.Add++
			s.Destroy++
		case action.Delete:
			if c.Addr.Resource.Resource.Mode != addrs.DataResourceMode {
				s.Destroy++
			}
		case action.Forget:
			s.Forget++
		}
	}
	return s
}

// HasChanges reports whether applying the plan would do anything to
// resources or root outputs: a non-NoOp resource change, a move, an import
// or a non-NoOp output change.
func (p *Plan) HasChanges() bool {
	for _, c := range p.Changes {
		if c.Action != action.NoOp || c.Moved() || c.Importing != nil {
			return true
		}
	}
	for _, oc := range p.OutputChanges {
		if oc.Action != action.NoOp {
			return true
		}
	}
	return false
}

// CanApply reports whether the plan is worth applying: it did not error,
// and it either changes something or, in refresh-only mode, records
// managed objects that changed outside tenet.
func (p *Plan) CanApply() bool {
	if p.Errored {
		return false
	}
	if p.HasChanges() {
		return true
	}
	return p.Mode == RefreshOnlyMode && !ManagedResourcesEqual(p.PrevRunState, p.PriorState)
}

// FindChange returns the change of the object at addr (the current object
// when deposed is state.NotDeposed), or nil. It scans; use IndexChanges
// for many lookups.
func (p *Plan) FindChange(addr addrs.AbsResourceInstance, deposed state.DeposedKey) *ResourceInstanceChange {
	for _, c := range p.Changes {
		if c.DeposedKey == deposed && c.Addr.Equal(addr) {
			return c
		}
	}
	return nil
}

// IndexChanges maps each change's ChangeKey to the change.
func IndexChanges(changes []*ResourceInstanceChange) map[string]*ResourceInstanceChange {
	m := make(map[string]*ResourceInstanceChange, len(changes))
	for _, c := range changes {
		m[c.ChangeKey()] = c
	}
	return m
}

// FindOutputChange returns the change of the named root output, or nil.
func (p *Plan) FindOutputChange(name string) *OutputChange {
	for _, oc := range p.OutputChanges {
		if oc.Name == name {
			return oc
		}
	}
	return nil
}

// ManagedResourcesEqual reports whether two states hold the same managed
// resource objects (current and deposed), ignoring data resources and
// outputs. Nil and empty states are equal.
func ManagedResourcesEqual(a, b *state.State) bool {
	ma, mb := managedInstances(a), managedInstances(b)
	if len(ma) != len(mb) {
		return false
	}
	for key, ra := range ma {
		rb, ok := mb[key]
		if !ok || !resourcesEqual(ra, rb) {
			return false
		}
	}
	return true
}

func managedInstances(s *state.State) map[string]*state.Resource {
	out := map[string]*state.Resource{}
	if s == nil {
		return out
	}
	for _, m := range s.Modules {
		for _, r := range m.Resources {
			if r.Addr.Resource.Mode == addrs.DataResourceMode || len(r.Instances) == 0 {
				continue
			}
			out[r.Addr.String()] = r
		}
	}
	return out
}

func resourcesEqual(a, b *state.Resource) bool {
	if a.ProviderConfig.String() != b.ProviderConfig.String() || len(a.Instances) != len(b.Instances) {
		return false
	}
	for key, ia := range a.Instances {
		ib, ok := b.Instances[key]
		if !ok || !objectsEqual(ia.Current, ib.Current) || len(ia.Deposed) != len(ib.Deposed) {
			return false
		}
		for dk, oa := range ia.Deposed {
			if !objectsEqual(oa, ib.Deposed[dk]) {
				return false
			}
		}
	}
	return true
}

func objectsEqual(a, b *state.ObjectSrc) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.SchemaVersion == b.SchemaVersion &&
		a.Status == b.Status &&
		a.CreateBeforeDestroy == b.CreateBeforeDestroy &&
		bytes.Equal(a.Private, b.Private) &&
		jsonBytesEqual(a.AttrsJSON, b.AttrsJSON) &&
		slices.EqualFunc(a.Dependencies, b.Dependencies, addrs.ConfigResource.Equal) &&
		slices.EqualFunc(a.SensitivePaths, b.SensitivePaths, cty.Path.Equals)
}

// jsonBytesEqual compares two JSON documents, tolerating layout differences.
func jsonBytesEqual(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
