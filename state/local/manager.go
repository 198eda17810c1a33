package local

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/tenetplan/tenet/internal/atomicfile"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

// DefaultPath is the state file used when no -state is given.
const DefaultPath = "terraform.tfstate"

// Options configure a Manager.
type Options struct {
	// BackupPath receives the snapshot that existed before the first
	// change; "" means path+".backup" and "-" disables backups.
	BackupPath string
	// Lock enables locking; when false, Lock and Unlock do nothing.
	Lock bool
	// LockTimeout is how long Lock retries while another holder has it.
	LockTimeout time.Duration
	// Operation names the command for the lock info ("OperationTypeApply").
	Operation string
	// TerraformVersion is written as the file's terraform_version.
	TerraformVersion string
	// ReadPath, when set, is where the state is read from (-state) while
	// it is written to the manager's path (-state-out): the first write
	// carries the read snapshot's lineage and serial (bumped if the state
	// changed) even when nothing changed, and the backup is of what the
	// written file held before. The file at ReadPath is never written.
	ReadPath string
}

// Manager reads and writes one local state file. It is safe for use by
// several goroutines.
type Manager struct {
	// path is the state path as given, used in messages; target is the
	// file it names once symbolic links are followed, which is where the
	// snapshot, the journal and the lock info live (see resolveLink).
	path       string
	target     string
	backupPath string
	opts       Options

	mu   sync.Mutex
	lock *heldLock

	readDone bool
	// readErr is set when the file could not be parsed; the manager then
	// refuses to write over it.
	readErr error
	// original is the file as first read (nil: there was none); it is
	// what the backup contains.
	original     []byte
	originalInfo os.FileInfo
	// snapshot is the encoded file the current snapshot was read from:
	// original, or with ReadPath the file read there.
	snapshot []byte
	// outPending is set while a ReadPath manager has yet to write its
	// own file.
	outPending bool
	// current is the metadata of the snapshot as persisted: the one read,
	// then each one written. Its State is always nil: the content is
	// original, or currentState once this manager has written. Keeping
	// the encoding instead of a copy of the state saves a deep copy of
	// every object on each read and write.
	current *statefile.File
	// currentState is statefile.MarshalState of the last snapshot this
	// manager wrote (nil until then).
	currentState []byte
	// unread is the state parsed from original, not yet handed out by
	// Read, so the first Read (or a write's comparison) does not parse
	// the file again.
	unread     *state.State
	backupDone bool

	journalPath string
	journal     *Journal // the active journal, if any
	// recovery is the journal content Read folded in, pending the next
	// full write.
	recovery *recovery
	// journalAside is where the journal on disk goes instead of being
	// removed, when it holds anything not folded ("" when it may go).
	journalAside string
	notices      []Notice
}

// Open returns a manager for the state file at path. Nothing is read or
// locked until asked.
func Open(path string, opts Options) *Manager {
	backup := opts.BackupPath
	switch backup {
	case "":
		backup = path + ".backup"
	case "-":
		backup = ""
	}
	// A state reached through a link is written where it really is, so
	// the link stays a link and every path to the file sees the new
	// snapshot.
	target := atomicfile.FollowLinks(path)
	return &Manager{path: path, target: target, backupPath: backup, opts: opts, journalPath: target + ".journal"}
}

// IsDirError reports a state path that names a directory: a mistake in
// -state or the working directory, not a lock or parse problem.
type IsDirError struct{ Path string }

func (e *IsDirError) Error() string {
	return fmt.Sprintf("the state path %s is a directory, not a file", e.Path)
}

// checkNotDir returns an *IsDirError when the state path is a directory.
func (m *Manager) checkNotDir() error {
	if fi, err := os.Stat(m.target); err == nil && fi.IsDir() {
		return &IsDirError{Path: m.path}
	}
	return nil
}

// Path returns the state file path.
func (m *Manager) Path() string { return m.path }

// Read returns the state from disk with any journal left by an
// interrupted apply folded in. A missing or empty file gives a nil File
// and no error. An unparsable file is an error, and the manager will then
// refuse to write.
func (m *Manager) Read() (*statefile.File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readLocked(); err != nil {
		return nil, err
	}
	if m.current == nil && m.recovery == nil {
		return nil, nil
	}
	return m.withRecovery()
}

// withRecovery is the persisted snapshot plus recovered journal entries,
// in memory the caller owns.
func (m *Manager) withRecovery() (*statefile.File, error) {
	f, err := m.currentFile()
	if err != nil || m.recovery == nil {
		return f, err
	}
	if f == nil {
		f = &statefile.File{TerraformVersion: m.opts.TerraformVersion, Lineage: m.recovery.lineage, State: state.NewState()}
	}
	for _, c := range m.recovery.changes {
		f.State.Apply(c)
	}
	return f, nil
}

// currentFile returns the persisted snapshot with its state, which the
// caller owns (nil when there is none).
func (m *Manager) currentFile() (*statefile.File, error) {
	if m.current == nil {
		return nil, nil
	}
	f := *m.current
	s, err := m.takeState()
	if err != nil {
		return nil, err
	}
	f.State = s
	return &f, nil
}

// takeState returns the persisted snapshot's state in memory no one else
// holds: the one parsed by Read if still unused, else parsed again.
func (m *Manager) takeState() (*state.State, error) {
	if s := m.unread; s != nil {
		m.unread = nil
		return s, nil
	}
	src := m.snapshot
	if m.currentState != nil {
		src = append(statefile.MarshalHeader(m.current), m.currentState...)
	}
	f, err := statefile.Parse(src)
	if err != nil {
		// Both encodings parsed (or were written) before.
		return nil, fmt.Errorf("internal error: re-reading the state snapshot of %s: %w", m.path, err)
	}
	return f.State, nil
}

func (m *Manager) readLocked() error {
	if m.readDone {
		return m.readErr
	}
	if err := m.checkNotDir(); err != nil {
		return err
	}
	if m.opts.ReadPath != "" && atomicfile.FollowLinks(m.opts.ReadPath) != m.target {
		return m.readBetween()
	}
	src, info, err := readWithInfo(m.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		m.original = nil
	case err != nil:
		return fmt.Errorf("reading state file %s: %w", m.path, err)
	default:
		f, perr := statefile.Parse(src)
		switch {
		case errors.Is(perr, statefile.ErrNoState):
		case perr != nil:
			m.readDone = true
			m.readErr = fmt.Errorf("the state file %s cannot be read, so tenet will not write over it: %w", m.path, perr)
			return m.readErr
		default:
			m.unread, f.State = f.State, nil
			m.current = f
			m.original, m.originalInfo = src, info
			m.snapshot = src
		}
	}
	return m.readJournalLocked()
}

// readBetween is readLocked for a manager with a ReadPath: the snapshot
// comes from there, the backup from the file the manager writes.
func (m *Manager) readBetween() error {
	m.outPending = true
	src, info, err := readWithInfo(m.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("reading state file %s: %w", m.path, err)
	case len(bytes.TrimSpace(src)) > 0:
		m.original, m.originalInfo = src, info
	}
	if fi, err := os.Stat(m.opts.ReadPath); err == nil && fi.IsDir() {
		return &IsDirError{Path: m.opts.ReadPath}
	}
	src, err = os.ReadFile(m.opts.ReadPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("reading state file %s: %w", m.opts.ReadPath, err)
	default:
		f, perr := statefile.Parse(src)
		switch {
		case errors.Is(perr, statefile.ErrNoState):
		case perr != nil:
			m.readDone = true
			m.readErr = fmt.Errorf("the state file %s cannot be read: %w", m.opts.ReadPath, perr)
			return m.readErr
		default:
			m.unread, f.State = f.State, nil
			m.current = f
			m.snapshot = src
		}
	}
	return m.readJournalLocked()
}

// readJournalLocked folds in a journal an interrupted apply left beside
// the state file.
func (m *Manager) readJournalLocked() error {
	aside := asidePath(m.journalPath, time.Now())
	found, err := readJournal(m.journalPath, m.current, m.unread, aside)
	if err != nil {
		m.readDone = true
		m.readErr = err
		return err
	}
	m.recovery = found.rec
	if found.keep {
		m.journalAside = aside
	}
	if found.notice != nil {
		m.notices = append(m.notices, *found.notice)
	}
	m.readDone = true
	return nil
}

// Current returns the metadata of the snapshot last read or written
// (nil if none), without the journal.
func (m *Manager) Current() *statefile.File {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, err := m.currentFile()
	if err != nil {
		// Cannot happen (see takeState); the metadata is still right.
		c := *m.current
		return &c
	}
	return f
}

// Recovered reports whether the state Read returns includes operations
// recovered from a journal an interrupted apply left behind. Until a
// write, the file on disk lacks them and the journal stays, so a command
// that ends without changes should still Write the state it read.
func (m *Manager) Recovered() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.recovery != nil
}

// WritePending reports a manager with a ReadPath that has not yet
// written its own file: a command that ends without changes should still
// Write the state it read, as OpenTofu writes it to -state-out.
func (m *Manager) WritePending() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.outPending || (m.opts.ReadPath != "" && !m.readDone)
}

// ReadPath is the Options.ReadPath the manager was opened with.
func (m *Manager) ReadPath() string { return m.opts.ReadPath }

// Lineage returns the lineage and serial of the snapshot last read or
// written, and false when there is none. Unlike Current it copies nothing,
// which matters for large states.
func (m *Manager) Lineage() (lineage string, serial uint64, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.current == nil {
		return "", 0, false
	}
	return m.current.Lineage, m.current.Serial, true
}

// Write persists s as a full snapshot. The serial is bumped when s differs
// from the snapshot last persisted (content, not metadata); a write with
// no change leaves the file alone. The first changing write of a manager
// first copies the previous file to the backup path. A new file gets a
// fresh lineage and serial 1.
func (m *Manager) Write(s *state.State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.writeLocked(s)
}

func (m *Manager) writeLocked(s *state.State) error {
	if err := m.readLocked(); err != nil {
		return err
	}
	if s == nil {
		s = state.NewState()
	}
	// Encoding first lets the comparison with a snapshot this manager
	// wrote be a byte comparison. Marshal does not retain s, so unlike a
	// kept copy of the state, nothing is copied.
	encoded, err := statefile.MarshalState(s)
	if err != nil {
		return fmt.Errorf("encoding state for %s: %w", m.path, err)
	}
	var next statefile.File
	if m.current == nil {
		next = statefile.File{Serial: 1, Lineage: statefile.NewLineage()}
		if m.recovery != nil {
			next.Lineage = m.recovery.lineage
		}
		if m.journal != nil {
			next.Lineage = m.journal.lineage
		}
	} else {
		same, err := m.sameAsCurrent(s, encoded)
		if err != nil {
			return err
		}
		if same && m.recovery == nil && !m.outPending {
			return nil
		}
		next = statefile.File{Serial: m.current.Serial, Lineage: m.current.Lineage}
		if !same {
			next.Serial++
		}
	}
	return m.persist(next, encoded)
}

// persist writes the snapshot next (whose State is ignored) with the
// encoded state, taking the backup first if this is the manager's first
// write.
func (m *Manager) persist(next statefile.File, encoded []byte) error {
	next.State = nil
	next.TerraformVersion = m.opts.TerraformVersion
	if next.TerraformVersion == "" && m.current != nil {
		next.TerraformVersion = m.current.TerraformVersion
	}
	var err error
	linkedBackup := false
	if !m.backupDone && m.backupPath != "" && m.original != nil && !(m.opts.ReadPath != "" && holdsState(m.original, encoded)) {
		if linkedBackup, err = writeBackup(m.backupPath, m.target, m.original, m.originalInfo); err != nil {
			return fmt.Errorf("writing state backup %s: %w", m.backupPath, err)
		}
	}
	m.backupDone = true
	if err := writeAtomic(m.target, statefile.MarshalHeader(&next), encoded); err != nil {
		if linkedBackup {
			unlinkBackup(m.backupPath, m.original)
		}
		return fmt.Errorf("writing state file %s: %w", m.path, err)
	}
	if m.lock != nil {
		m.lock.relockState(m.target)
	}
	m.current = &next
	m.currentState = encoded
	m.outPending = false
	m.unread = nil
	m.recovery = nil
	return m.checkpointJournal()
}

// sameAsCurrent reports whether s, encoded as encoded, has the content of
// the persisted snapshot. Against a snapshot this manager wrote, that is
// equal encodings (the encoding is a function of exactly what
// state.State.Equal compares); against the file read, whose layout may
// be another tool's, it is state equality.
func (m *Manager) sameAsCurrent(s *state.State, encoded []byte) (bool, error) {
	if m.currentState != nil {
		return bytes.Equal(m.currentState, encoded), nil
	}
	cur := m.unread
	if cur == nil {
		var err error
		if cur, err = m.takeState(); err != nil {
			return false, err
		}
		// Parsed only for this comparison: the next Read parses again.
	}
	return cur.Equal(s), nil
}

// renameFile is os.Rename; tests replace it to simulate a failing disk.
var renameFile = os.Rename

// writeAtomic replaces path with data; on error the old file is intact.
func writeAtomic(path string, data ...[]byte) error {
	return atomicfile.WriteWith(renameFile, path, 0o600, data...)
}

// holdsState reports whether the encoded state file src holds the state
// encoded: a ReadPath manager makes no backup of a file that already
// held what it writes, as OpenTofu makes none.
func holdsState(src, encoded []byte) bool {
	f, err := statefile.Parse(src)
	if err != nil || f.State == nil {
		return false
	}
	b, err := statefile.MarshalState(f.State)
	return err == nil && bytes.Equal(b, encoded)
}
