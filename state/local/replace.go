package local

import (
	"fmt"
	"os"
	"time"

	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

// CheckReplace decides whether the snapshot next may replace cur (nil: no
// state yet), as `state push` without -force does: an empty or missing
// state may always be replaced; otherwise the lineage must be the same,
// the serial must not go backwards, and an equal serial must carry the
// same content.
func CheckReplace(cur, next *statefile.File) error {
	if cur == nil || cur.State == nil || cur.State.Empty() {
		return nil
	}
	// OpenTofu's words, which `state push` prints after "Failed to write
	// state: ".
	if cur.Lineage != next.Lineage {
		return fmt.Errorf("cannot import state with lineage %q over unrelated state with lineage %q", quoteShort(next.Lineage), cur.Lineage)
	}
	if next.Serial < cur.Serial {
		return fmt.Errorf("cannot import state with serial %d over newer state with serial %d", next.Serial, cur.Serial)
	}
	if next.Serial == cur.Serial && !next.State.Equal(cur.State) {
		return fmt.Errorf("cannot overwrite existing state with serial %d with a different state that has the same serial", next.Serial)
	}
	return nil
}

// WriteFile persists f with its own lineage and serial, as `state push`
// and errored.tfstate need: the caller has decided they are right (see
// CheckReplace). A journal on disk is kept aside rather than removed,
// since what it recorded is not in f.
func (m *Manager) WriteFile(f *statefile.File) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readLocked(); err != nil {
		return err
	}
	if m.journal != nil {
		return fmt.Errorf("internal error: replacing the state of %s while an apply records into it", m.path)
	}
	s := f.State
	if s == nil {
		s = state.NewState()
	}
	encoded, err := statefile.MarshalState(s)
	if err != nil {
		return fmt.Errorf("encoding state for %s: %w", m.path, err)
	}
	if m.journalAside == "" {
		if _, err := os.Lstat(m.journalPath); err == nil {
			m.journalAside = asidePath(m.journalPath, time.Now())
		}
	}
	return m.persist(statefile.File{Lineage: f.Lineage, Serial: f.Serial}, encoded)
}
