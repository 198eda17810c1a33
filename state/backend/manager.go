package backend

import (
	"bytes"
	"context"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

// Options configure a Manager.
type Options struct {
	// TerraformVersion is written as each snapshot's terraform_version.
	TerraformVersion string
	// LockTimeout is how long Lock retries while someone else holds the
	// lock; zero tries once.
	LockTimeout time.Duration
}

// Manager reads and writes one workspace's state through a Client,
// applying the serial and lineage rules: a new state gets a fresh lineage
// and serial 1, a changed one the next serial, an unchanged one is not
// written. It is safe for use by several goroutines.
type Manager struct {
	client Client
	opts   Options

	mu       sync.Mutex
	readDone bool
	// readDiags is set when the stored snapshot could not be read or
	// parsed; the manager then refuses to write over it.
	readDiags hcl.Diagnostics
	// current is the metadata of the stored snapshot (nil: none); its
	// State is nil. The content is currentState once this manager wrote
	// it, else the stored bytes currentRaw, parsed again only when a
	// write must compare with them (so a read costs one parse, not a
	// parse and an encoding).
	current      *statefile.File
	currentState []byte // statefile.MarshalState of the state this manager wrote
	currentRaw   []byte // the stored snapshot as read
	lock         *LockInfo
}

// NewManager returns a manager over c. Nothing is read until asked.
func NewManager(c Client, opts Options) *Manager {
	return &Manager{client: c, opts: opts}
}

// Where names the storage in messages.
func (m *Manager) Where() string { return m.client.Where() }

// Read returns the stored snapshot, or nil when there is none. Each call
// reads the storage again, so a manager that holds the lock sees what it
// last wrote and one that does not sees others' writes.
func (m *Manager) Read(ctx context.Context) (*statefile.File, hcl.Diagnostics) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, diags := m.readLocked(ctx)
	if diags.HasErrors() || f == nil {
		return nil, diags
	}
	return f, diags
}

func (m *Manager) readLocked(ctx context.Context) (*statefile.File, hcl.Diagnostics) {
	data, diags := m.client.Get(ctx)
	m.readDone = true
	if diags.HasErrors() {
		m.readDiags = diags
		return nil, diags
	}
	if len(bytes.TrimSpace(data)) == 0 {
		m.readDiags, m.current, m.currentState, m.currentRaw = nil, nil, nil, nil
		return nil, diags
	}
	f, err := statefile.Parse(data)
	if err != nil {
		d := Errorf("Stored state is corrupt",
			"The state stored at %s cannot be read: %s.\n\ntenet will not overwrite it. Restore a good snapshot there (for example from the storage's version history or a backup) or repair it, then run the command again.",
			m.client.Where(), err)
		m.readDiags = d
		return nil, append(diags, d...)
	}
	meta := *f
	meta.State = nil
	m.readDiags, m.current, m.currentState, m.currentRaw = nil, &meta, nil, data
	return f, diags
}

// sameAsCurrent reports whether s, encoded as encoded, is the stored
// content: equal encodings against what this manager wrote, state
// equality against a snapshot read (whose layout may be another tool's).
func (m *Manager) sameAsCurrent(s *state.State, encoded []byte) (bool, error) {
	if m.currentState != nil {
		return bytes.Equal(m.currentState, encoded), nil
	}
	f, err := statefile.Parse(m.currentRaw)
	if err != nil {
		return false, err
	}
	return f.State.Equal(s), nil
}

// Write stores s as the workspace's state: an unchanged state is not
// written; a changed one gets the next serial; the first one a fresh
// lineage and serial 1. A stored snapshot that could not be read is never
// overwritten.
func (m *Manager) Write(ctx context.Context, s *state.State) hcl.Diagnostics {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.readDone {
		if _, diags := m.readLocked(ctx); diags.HasErrors() {
			return diags
		}
	}
	if m.readDiags.HasErrors() {
		return m.readDiags
	}
	if s == nil {
		s = state.NewState()
	}
	// The snapshot is encoded once, with the metadata it gets if it
	// changed, and the state part compared: no second copy of tens of
	// megabytes to put the header in front.
	next := statefile.File{Serial: 1, Lineage: statefile.NewLineage()}
	if m.current != nil {
		next = statefile.File{Serial: m.current.Serial + 1, Lineage: m.current.Lineage, TerraformVersion: m.current.TerraformVersion}
	}
	if m.opts.TerraformVersion != "" {
		next.TerraformVersion = m.opts.TerraformVersion
	}
	next.State = s
	data, headerLen, err := marshalSnapshot(&next)
	if err != nil {
		return Errorf("Cannot encode the state", "Encoding the state for %s failed: %s. Nothing was written.", m.client.Where(), err)
	}
	if m.current != nil {
		same, err := m.sameAsCurrent(s, data[headerLen:])
		if err != nil {
			return Errorf("Stored state is corrupt", "The state stored at %s cannot be read again: %s. Nothing was written.", m.client.Where(), err)
		}
		if same {
			return nil
		}
	}
	return m.putLocked(ctx, &next, data, headerLen)
}

// WriteFile stores f exactly, with its serial and lineage, for commands
// that replace the state wholesale (state push, migration). Checking that
// the replacement is allowed is the caller's business.
func (m *Manager) WriteFile(ctx context.Context, f *statefile.File) hcl.Diagnostics {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, headerLen, err := marshalSnapshot(f)
	if err != nil {
		return Errorf("Cannot encode the state", "Encoding the state for %s failed: %s. Nothing was written.", m.client.Where(), err)
	}
	return m.putLocked(ctx, f, data, headerLen)
}

// marshalSnapshot encodes f; the state part (statefile.MarshalState of
// f.State) starts at headerLen.
func marshalSnapshot(f *statefile.File) (data []byte, headerLen int, err error) {
	data, err = statefile.Marshal(f)
	return data, len(statefile.MarshalHeader(f)), err
}

// putLocked stores data, the snapshot of meta (whose State is ignored),
// and remembers it as the current one.
func (m *Manager) putLocked(ctx context.Context, meta *statefile.File, data []byte, headerLen int) hcl.Diagnostics {
	if diags := m.client.Put(ctx, data); diags.HasErrors() {
		return diags
	}
	current := *meta
	current.State = nil
	m.readDone, m.readDiags = true, nil
	m.current, m.currentState, m.currentRaw = &current, data[headerLen:], nil
	return nil
}

// Lock takes the workspace's lock, retrying while someone else holds it
// until Options.LockTimeout has passed or ctx ends. It returns the lock ID
// to pass to Unlock. Taking a lock the manager already holds returns its
// ID.
func (m *Manager) Lock(ctx context.Context, info LockInfo) (string, hcl.Diagnostics) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lock != nil {
		return m.lock.ID, nil
	}
	info.FillUnset()
	if info.Version == "" {
		info.Version = m.opts.TerraformVersion
	}
	deadline := time.Now().Add(m.opts.LockTimeout)
	delay := 100 * time.Millisecond
	for {
		diags := m.client.Lock(ctx, &info)
		if !diags.HasErrors() {
			m.lock = &info
			return info.ID, diags
		}
		if _, held := Holder(diags); !held || !time.Now().Before(deadline) {
			return "", diags
		}
		select {
		case <-ctx.Done():
			return "", diags
		case <-time.After(min(delay, time.Until(deadline))):
		}
		delay = min(delay*2, 2*time.Second)
	}
}

// Unlock releases the lock with the given ID: the one this manager holds,
// or, for force-unlock, one a crashed process left behind.
func (m *Manager) Unlock(ctx context.Context, id string) hcl.Diagnostics {
	m.mu.Lock()
	defer m.mu.Unlock()
	if diags := m.client.Unlock(ctx, id); diags.HasErrors() {
		return diags
	}
	if m.lock != nil && m.lock.ID == id {
		m.lock = nil
	}
	return nil
}

// LockInfo returns the info of the lock this manager holds, or nil.
func (m *Manager) LockInfo() *LockInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lock == nil {
		return nil
	}
	i := *m.lock
	return &i
}
