package cli

import (
	"sync"
	"time"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/cli/views/human"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/state"
)

// progress is what both the human and the JSON views show of an apply.
type progress interface {
	ApplyStart(addr string, act action.Action, idKey, idValue string)
	ApplyProgress(addr string, act action.Action, idKey, idValue string, elapsed time.Duration)
	ApplyComplete(addr string, act action.Action, idKey, idValue string, elapsed time.Duration)
	ApplyErrored(addr string, act action.Action, elapsed time.Duration)
	RefreshStart(addr, idKey, idValue string)
	RefreshComplete(addr, idKey, idValue string)
}

// hookAdapter turns engine hooks into view calls and counts what was done
// for the apply summary.
type hookAdapter struct {
	p       progress
	refresh bool // show refresh progress
	// progressEvery is how often a running operation is reported as still
	// running; zero means stillRunningEvery. Tests shorten it.
	progressEvery time.Duration

	mu      sync.Mutex
	summary views.ChangeSummary
	running map[runningKey]*stillRunning
}

// stillRunningEvery is how often OpenTofu reports an operation that is
// still running ("Still creating... [10s elapsed]").
const stillRunningEvery = 10 * time.Second

// runningKey names one operation on one object.
type runningKey struct {
	addr    string
	deposed state.DeposedKey
	act     action.Action
}

// stillRunning reports one operation as still running until stop is
// closed; done is closed when it has stopped reporting.
type stillRunning struct {
	stop, done chan struct{}
}

var _ engine.Hooks = (*hookAdapter)(nil)

func (h *hookAdapter) PreApply(addr addrs.AbsResourceInstance, deposed state.DeposedKey, act action.Action, idKey, idValue string) {
	if h.p == nil {
		return
	}
	shown := h.startAddr(addr, deposed)
	h.p.ApplyStart(shown, act, idKey, idValue)
	if act == action.Forget {
		return // nothing remote runs, so nothing is reported as running
	}
	every := h.progressEvery
	if every <= 0 {
		every = stillRunningEvery
	}
	r := &stillRunning{stop: make(chan struct{}), done: make(chan struct{})}
	h.mu.Lock()
	if h.running == nil {
		h.running = map[runningKey]*stillRunning{}
	}
	h.running[runningKey{addr.String(), deposed, act}] = r
	h.mu.Unlock()
	start := time.Now()
	go func() {
		defer close(r.done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-r.stop:
				return
			case now := <-tick.C:
				h.p.ApplyProgress(shown, act, idKey, idValue, now.Sub(start))
			}
		}
	}()
}

// stopRunning ends the still-running reports of an operation and waits
// for them, so that none follows the operation's completion line.
func (h *hookAdapter) stopRunning(addr addrs.AbsResourceInstance, deposed state.DeposedKey, act action.Action) {
	k := runningKey{addr.String(), deposed, act}
	h.mu.Lock()
	r := h.running[k]
	delete(h.running, k)
	h.mu.Unlock()
	if r != nil {
		close(r.stop)
		<-r.done
	}
}

func (h *hookAdapter) PostApply(addr addrs.AbsResourceInstance, deposed state.DeposedKey, act action.Action, idKey, idValue string, elapsed time.Duration, failed bool) {
	if h.p != nil {
		h.stopRunning(addr, deposed, act)
		if failed {
			h.p.ApplyErrored(addr.String(), act, elapsed)
		} else {
			h.p.ApplyComplete(addr.String(), act, idKey, idValue, elapsed)
		}
	}
	if failed {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch act {
	case action.Create:
		h.summary.Add++
	case action.Update:
		h.summary.Change++
	case action.Delete:
		h.summary.Remove++
	case action.Forget:
		h.summary.Forget++
	}
}

func (h *hookAdapter) PreRefresh(addr addrs.AbsResourceInstance, deposed state.DeposedKey, idKey, idValue string) {
	if h.p != nil && h.refresh {
		h.p.RefreshStart(h.startAddr(addr, deposed), idKey, idValue)
	}
}

// startAddr is the address a human start line names: as OpenTofu, a
// deposed object's lines say which object (its completion lines do not).
// The JSON view keeps the plain address.
func (h *hookAdapter) startAddr(addr addrs.AbsResourceInstance, deposed state.DeposedKey) string {
	if _, isHuman := h.p.(*human.HumanHooks); isHuman && deposed != state.NotDeposed {
		return addr.String() + " (deposed object " + string(deposed) + ")"
	}
	return addr.String()
}

func (h *hookAdapter) PostRefresh(addr addrs.AbsResourceInstance, deposed state.DeposedKey, idKey, idValue string) {
	if h.p != nil && h.refresh {
		h.p.RefreshComplete(addr.String(), idKey, idValue)
	}
}

// importProgress is what a view shows of imports (the human view does).
type importProgress interface {
	PrepareImport(addr, id string)
	ImportStart(addr, id string)
	ImportComplete(addr, id string)
}

var _ engine.ImportHooks = (*hookAdapter)(nil)

func (h *hookAdapter) PrepareImport(addr addrs.AbsResourceInstance, id string) {
	if v, ok := h.p.(importProgress); ok && h.refresh {
		v.PrepareImport(addr.String(), id)
	}
}

func (h *hookAdapter) ImportStart(addr addrs.AbsResourceInstance, id string) {
	if v, ok := h.p.(importProgress); ok {
		v.ImportStart(addr.String(), id)
	}
}

func (h *hookAdapter) ImportComplete(addr addrs.AbsResourceInstance, id string) {
	if v, ok := h.p.(importProgress); ok {
		v.ImportComplete(addr.String(), id)
	}
	h.mu.Lock()
	h.summary.Import++
	h.mu.Unlock()
}

// provisionProgress is what a view shows of provisioners (both do).
type provisionProgress interface {
	ProvisionStart(addr, typ string)
	ProvisionOutput(addr, typ, msg string)
	ProvisionEnd(addr, typ string, failed bool)
}

var _ engine.ProvisionHooks = (*hookAdapter)(nil)

func (h *hookAdapter) ProvisionStart(addr addrs.AbsResourceInstance, typ string) {
	if v, ok := h.p.(provisionProgress); ok {
		v.ProvisionStart(addr.String(), typ)
	}
}

func (h *hookAdapter) ProvisionOutput(addr addrs.AbsResourceInstance, typ, line string) {
	if v, ok := h.p.(provisionProgress); ok {
		v.ProvisionOutput(addr.String(), typ, line)
	}
}

func (h *hookAdapter) ProvisionEnd(addr addrs.AbsResourceInstance, typ string, failed bool) {
	if v, ok := h.p.(provisionProgress); ok {
		v.ProvisionEnd(addr.String(), typ, failed)
	}
}

func (h *hookAdapter) counts() views.ChangeSummary {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.summary
}

// journalRecorder makes each completed operation durable in the state journal.
type journalRecorder struct {
	j interface {
		Record(addrs.AbsResourceInstance, state.DeposedKey, *state.ObjectSrc, addrs.AbsProviderConfig) error
	}
}

func (r journalRecorder) RecordObject(addr addrs.AbsResourceInstance, deposed state.DeposedKey, obj *state.ObjectSrc, provider addrs.AbsProviderConfig) error {
	return r.j.Record(addr, deposed, obj, provider)
}
