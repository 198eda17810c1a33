package local

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tenetplan/tenet/internal/atomicfile"
	"github.com/tenetplan/tenet/internal/jsontext"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

// JournalSyncInterval is the group-commit window: a recorded operation
// reaches the disk (fsync) at most this long after Record returns. Every
// Record writes its line to the OS at once, so a crash of the process
// alone loses nothing; a power loss may lose the last window's operations.
const JournalSyncInterval = 200 * time.Millisecond

const journalFormat = 1

// Journal appends completed resource operations to `<state path>.journal`
// so a long apply is durable without rewriting the whole state file after
// each operation. Each line is one JSON object; the first names the
// lineage and serial of the state file the entries apply to.
type Journal struct {
	m       *Manager
	lineage string
	serial  uint64

	mu    sync.Mutex
	f     *os.File
	timer *time.Timer
	dirty bool
	err   error
}

type journalHeader struct {
	Format  int    `json:"tenet_state_journal"`
	Lineage string `json:"lineage"`
	Serial  uint64 `json:"serial"`
}

type journalEntry struct {
	Addr     string          `json:"addr,omitempty"`
	Deposed  string          `json:"deposed,omitempty"`
	Provider string          `json:"provider,omitempty"`
	Object   json.RawMessage `json:"object,omitempty"`
	Output   string          `json:"output,omitempty"`
	Value    json.RawMessage `json:"value,omitempty"`
}

// appendJSON writes e as json.Marshal does, by hand: encoding/json
// reflects and re-validates Object and Value, already compact JSON from
// statefile's encoders (BenchmarkJournalEntry in bench_test.go compares
// the two).
func (e journalEntry) appendJSON(b []byte) []byte {
	b = append(b, '{')
	field := func(name string) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
	}
	for _, f := range [...]struct{ name, v string }{{"addr", e.Addr}, {"deposed", e.Deposed}, {"provider", e.Provider}} {
		if f.v != "" {
			field(f.name)
			b = jsontext.AppendQuote(b, f.v)
		}
	}
	if len(e.Object) > 0 {
		field("object")
		b = append(b, e.Object...)
	}
	if e.Output != "" {
		field("output")
		b = jsontext.AppendQuote(b, e.Output)
	}
	if len(e.Value) > 0 {
		field("value")
		b = append(b, e.Value...)
	}
	return append(b, '}')
}

// Journal starts recording for the snapshot last read or written, reading
// the state file first if needed. If Read recovered a journal, new entries
// are appended after the recovered ones. Calling it again returns the
// active journal.
func (m *Manager) Journal() (*Journal, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.journal != nil {
		return m.journal, nil
	}
	if err := m.readLocked(); err != nil {
		return nil, err
	}
	// A journal holding bytes the state will not is kept, never
	// truncated; what could be read of it is recorded again below.
	if m.journalAside != "" {
		if err := m.moveJournalAside(); err != nil {
			return nil, err
		}
	}
	j := &Journal{m: m}
	if m.recovery != nil && m.recovery.complete {
		f, err := os.OpenFile(m.journalPath, os.O_RDWR, 0o600)
		if err != nil {
			return nil, fmt.Errorf("opening state journal: %w", err)
		}
		if _, err := f.Seek(m.recovery.validLen, 0); err != nil {
			f.Close()
			return nil, fmt.Errorf("opening state journal: %w", err)
		}
		j.f, j.lineage, j.serial = f, m.recovery.lineage, m.recovery.serial
	} else {
		j.lineage, j.serial = statefile.NewLineage(), 0
		if m.current != nil {
			j.lineage, j.serial = m.current.Lineage, m.current.Serial
		}
		if m.recovery != nil {
			j.lineage, j.serial = m.recovery.lineage, m.recovery.serial
		}
		f, err := os.OpenFile(m.journalPath, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, fmt.Errorf("creating state journal: %w", err)
		}
		j.f = f
		if err := j.writeHeader(); err != nil {
			f.Close()
			return nil, err
		}
		if m.recovery != nil {
			if err := j.rerecord(m.recovery.changes); err != nil {
				f.Close()
				return nil, err
			}
		}
		atomicfile.SyncDir(filepath.Dir(m.journalPath))
	}
	m.journal = j
	return j, nil
}

// rerecord writes recovered changes into a fresh journal, so a crash
// before the next full write still finds them.
func (j *Journal) rerecord(changes []state.Change) error {
	for _, c := range changes {
		var err error
		if c.Output != "" {
			err = j.RecordOutput(c.Output, c.OutputValue)
		} else {
			err = j.Record(c.Addr, c.Deposed, c.Object, c.Provider)
		}
		if err != nil {
			return err
		}
	}
	return j.Sync()
}

func (j *Journal) writeHeader() error {
	b, _ := json.Marshal(journalHeader{Format: journalFormat, Lineage: j.lineage, Serial: j.serial})
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing state journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("writing state journal: %w", err)
	}
	return nil
}

// Record appends one completed operation: obj (nil = removed) is now the
// current object (deposed == NotDeposed) or the named deposed object.
func (j *Journal) Record(addr addrs.AbsResourceInstance, deposed state.DeposedKey, obj *state.ObjectSrc, provider addrs.AbsProviderConfig) error {
	e := journalEntry{Addr: addr.String(), Deposed: string(deposed)}
	if obj != nil {
		raw, err := statefile.EncodeObject(obj)
		if err != nil {
			return fmt.Errorf("recording %s: %w", addr, err)
		}
		e.Object = raw
		if !provider.Provider.IsZero() {
			e.Provider = provider.String()
		}
	}
	return j.append(e)
}

// RecordOutput appends a root output value (nil = removed).
func (j *Journal) RecordOutput(name string, o *state.OutputValue) error {
	e := journalEntry{Output: name, Value: json.RawMessage("null")}
	if o != nil {
		raw, err := statefile.EncodeOutput(name, o)
		if err != nil {
			return fmt.Errorf("recording output %s: %w", name, err)
		}
		e.Value = raw
	}
	return j.append(e)
}

// Err returns the first error a background sync met.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

func (j *Journal) append(e journalEntry) error {
	line := e.appendJSON(make([]byte, 0, 64+len(e.Addr)+len(e.Provider)+len(e.Object)+len(e.Value)))
	line = append(line, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return errors.New("the state journal is closed")
	}
	if _, err := j.f.Write(line); err != nil {
		return fmt.Errorf("writing state journal: %w", err)
	}
	j.dirty = true
	if j.timer == nil {
		j.timer = time.AfterFunc(JournalSyncInterval, j.timedSync)
	}
	return nil
}

func (j *Journal) timedSync() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.timer = nil
	if err := j.syncLocked(); err != nil && j.err == nil {
		j.err = err
	}
}

// Sync forces recorded operations to disk now.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.syncLocked()
}

func (j *Journal) syncLocked() error {
	if !j.dirty || j.f == nil {
		return nil
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("syncing state journal: %w", err)
	}
	j.dirty = false
	return nil
}

// checkpoint restarts the journal after a full snapshot was written.
func (j *Journal) checkpoint(lineage string, serial uint64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	if err := j.f.Truncate(0); err != nil {
		return fmt.Errorf("resetting state journal: %w", err)
	}
	if _, err := j.f.Seek(0, 0); err != nil {
		return fmt.Errorf("resetting state journal: %w", err)
	}
	j.lineage, j.serial, j.dirty = lineage, serial, false
	return j.writeHeader()
}

// Finish writes final as a full snapshot and removes the journal. If the
// write fails the journal stays, so the next Read still recovers the
// recorded operations.
func (j *Journal) Finish(final *state.State) error {
	if err := j.Sync(); err != nil {
		return err
	}
	m := j.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.journal = nil
	if err := m.writeLocked(final); err != nil {
		m.journal = j
		return err
	}
	j.close()
	if err := os.Remove(m.journalPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing state journal: %w", err)
	}
	m.recovery = nil
	atomicfile.SyncDir(filepath.Dir(m.journalPath))
	return nil
}

// Close stops recording and leaves the journal on disk for recovery.
func (j *Journal) Close() error {
	err := j.Sync()
	j.m.mu.Lock()
	if j.m.journal == j {
		j.m.journal = nil
	}
	j.m.mu.Unlock()
	j.close()
	return err
}

func (j *Journal) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.timer != nil {
		j.timer.Stop()
		j.timer = nil
	}
	if j.f != nil {
		j.f.Close()
		j.f = nil
	}
}

// checkpointJournal runs after a full write: an active journal restarts
// against the new snapshot; a leftover one is removed.
func (m *Manager) checkpointJournal() error {
	if m.journal != nil {
		return m.journal.checkpoint(m.current.Lineage, m.current.Serial)
	}
	if m.journalAside != "" {
		return m.moveJournalAside()
	}
	if err := os.Remove(m.journalPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing state journal: %w", err)
	}
	return nil
}

func decodeEntry(line []byte) (state.Change, error) {
	var e journalEntry
	if err := json.Unmarshal(line, &e); err != nil {
		return state.Change{}, err
	}
	if e.Output != "" {
		c := state.Change{Output: e.Output}
		if len(e.Value) > 0 && string(e.Value) != "null" {
			o, err := statefile.DecodeOutput(e.Value)
			if err != nil {
				return c, err
			}
			c.OutputValue = o
		}
		return c, nil
	}
	addr, diags := addrs.ParseAbsResourceInstanceStr(e.Addr)
	if diags.HasErrors() {
		return state.Change{}, diags
	}
	c := state.Change{Addr: addr, Deposed: state.DeposedKey(e.Deposed)}
	if e.Provider != "" {
		p, err := addrs.ParseAbsProviderConfigStr(e.Provider)
		if err != nil {
			return c, err
		}
		c.Provider = p
	}
	if len(e.Object) > 0 && string(e.Object) != "null" {
		obj, err := statefile.DecodeObject(e.Object)
		if err != nil {
			return c, err
		}
		c.Object = obj
	}
	return c, nil
}
