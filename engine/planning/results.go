package planning

import (
	"sync"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/internal/provenance"
	"github.com/tenetplan/tenet/state"
)

// walkResults collects what the plan walk's resource nodes produce, from
// many goroutines at once: their changes with provenance and facts, the
// drift refresh found, and the refreshed state. It is the one thing in a
// plan run written by more than one node, and its lock is the only one the
// walk's results are guarded by; nodes hand it values and read back only
// what a later node needs (pending changes, trigger changes, a refreshed
// object). Once the walk has ended, Plan takes the results out as values.
type walkResults struct {
	mu         sync.Mutex
	prior      *state.State // refreshed state, built as the walk goes
	changes    []*plan.ResourceInstanceChange
	changed    map[string]bool // resource node key -> has a non-no-op change
	drift      []*plan.ResourceInstanceChange
	provenance map[string][]provenance.Rule
	explained  map[string]*plan.DecisionFacts // facts per change key (explain.go)
	trig       triggerIndex                   // changes by address, for replace_triggered_by
	// failedOutputs names the root outputs whose evaluation failed: an
	// errored plan has no change for them.
	failedOutputs map[string]bool
}

func newWalkResults(prior *state.State, triggers bool) *walkResults {
	return &walkResults{
		prior:      prior,
		changed:    map[string]bool{},
		provenance: map[string][]provenance.Rule{},
		trig:       triggerIndex{enabled: triggers},
	}
}

// addChange records a planned change with the rules that decided it.
func (r *walkResults) addChange(nodeKey string, c *plan.ResourceInstanceChange, fired []provenance.Rule) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes = append(r.changes, c)
	r.trig.note(c)
	if c.Action != action.NoOp {
		r.changed[nodeKey] = true
	}
	if len(fired) > 0 {
		// Shared with the decision (and maybe other decisions): never
		// appended to in place (addExplanation copies).
		r.provenance[c.ChangeKey()] = fired
	}
}

// addExplanation keeps a change's facts, and provenance to add after the
// decision's.
func (r *walkResults) addExplanation(key string, f *plan.DecisionFacts, extra []provenance.Rule) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.explained == nil {
		r.explained = map[string]*plan.DecisionFacts{}
	}
	r.explained[key] = f
	if len(extra) > 0 {
		r.provenance[key] = append(append([]provenance.Rule(nil), r.provenance[key]...), extra...)
	}
}

// hasPendingChanges reports whether any of the resource nodes has a
// change other than no-op (used for deferring data source reads).
func (r *walkResults) hasPendingChanges(keys []string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range keys {
		if r.changed[k] {
			return true
		}
	}
	return false
}

// setPrior records an object of the refreshed state (nil removes it),
// with the drift that refreshing it found, if any.
func (r *walkResults) setPrior(addr addrs.AbsResourceInstance, deposed state.DeposedKey, obj *state.ObjectSrc, provider addrs.AbsProviderConfig, drift *plan.ResourceInstanceChange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if deposed == state.NotDeposed {
		r.prior.SetResourceInstanceCurrent(addr, obj, provider)
	} else {
		r.prior.SetResourceInstanceDeposed(addr, deposed, obj, provider)
	}
	if drift != nil {
		r.drift = append(r.drift, drift)
	}
}

// priorInstance is an instance of the refreshed state as it is now.
func (r *walkResults) priorInstance(addr addrs.AbsResourceInstance) *state.ResourceInstance {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.prior.ResourceInstance(addr)
}

// triggerChanges gives the recorded changes of current objects of one
// resource (a copy) or of one instance, for replace_triggered_by.
func (r *walkResults) triggerChanges(resource, instance string) []*plan.ResourceInstanceChange {
	r.mu.Lock()
	defer r.mu.Unlock()
	if instance != "" {
		if c := r.trig.byInstance[instance]; c != nil {
			return []*plan.ResourceInstanceChange{c}
		}
		return nil
	}
	changes := r.trig.byResource[resource]
	if len(changes) > 1 {
		changes = append([]*plan.ResourceInstanceChange(nil), changes...)
	}
	return changes
}

// recordedChanges is the changes recorded so far, for reports made after
// the walk.
func (r *walkResults) recordedChanges() []*plan.ResourceInstanceChange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changes
}

// outputFailed notes that a root output's evaluation failed.
func (r *walkResults) outputFailed(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failedOutputs == nil {
		r.failedOutputs = map[string]bool{}
	}
	r.failedOutputs[name] = true
}
