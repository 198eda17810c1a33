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
	if cur.Lineage != next.Lineage {
		return fmt.Errorf("the state to push has lineage %q, but the destination state has lineage %q: they are different states", quoteShort(next.Lineage), cur.Lineage)
	}
	if next.Serial < cur.Serial {
		return fmt.Errorf("the state to push has serial %d, older than the destination state's serial %d", next.Serial, cur.Serial)
	}
	if next.Serial == cur.Serial && !next.State.Equal(cur.State) {
		return fmt.Errorf("the state to push has the same serial %d as the destination state but different content", next.Serial)
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
