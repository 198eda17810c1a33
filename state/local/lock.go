package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/tenetplan/tenet/state/statefile"
)

// LockInfo describes who holds a state lock. It is stored as JSON in the
// lock info file with OpenTofu's field names.
type LockInfo struct {
	ID        string    `json:"ID"`
	Operation string    `json:"Operation"`
	Info      string    `json:"Info"`
	Who       string    `json:"Who"`
	Version   string    `json:"Version"`
	Created   time.Time `json:"Created"`
	Path      string    `json:"Path"`
}

// NewLockInfo fills in ID, Who and Created for an operation.
func NewLockInfo(operation string) LockInfo {
	info := LockInfo{Operation: operation}
	info.FillUnset()
	return info
}

// FillUnset gives ID, Who and Created the values NewLockInfo would where
// the caller left them empty, so that every lock taken can be told apart,
// traced to someone and dated.
func (i *LockInfo) FillUnset() {
	if i.ID == "" {
		i.ID = statefile.NewLineage()
	}
	if i.Who == "" {
		i.Who = whoAmI()
	}
	if i.Created.IsZero() {
		i.Created = time.Now().UTC()
	}
}

func whoAmI() string {
	name := "unknown"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, _ := os.Hostname()
	return name + "@" + host
}

// String renders the info the way lock errors print it.
func (i *LockInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  ID:        %s\n", i.ID)
	fmt.Fprintf(&b, "  Path:      %s\n", i.Path)
	fmt.Fprintf(&b, "  Operation: %s\n", i.Operation)
	fmt.Fprintf(&b, "  Who:       %s\n", i.Who)
	fmt.Fprintf(&b, "  Version:   %s\n", i.Version)
	fmt.Fprintf(&b, "  Created:   %s\n", i.Created)
	fmt.Fprintf(&b, "  Info:      %s\n", i.Info)
	return b.String()
}

// LockError reports a lock that could not be taken, with the holder's
// info when it could be read.
type LockError struct {
	Holder *LockInfo
	Err    error
}

func (e *LockError) Error() string {
	var b strings.Builder
	b.WriteString("Error acquiring the state lock: ")
	b.WriteString(e.Err.Error())
	if e.Holder != nil {
		b.WriteString("\nLock Info:\n")
		b.WriteString(e.Holder.String())
	}
	b.WriteString("\ntenet acquires a state lock to protect the state from being written by multiple users at the same time. Wait for the other operation to finish, or, if you are sure no one else is using the state, remove the lock with the holder's ID.")
	return b.String()
}

func (e *LockError) Unwrap() error { return e.Err }

// errLocked means another holder has the lock right now. Its text is the
// operating system's for the refused lock, which OpenTofu shows.
var errLocked = errors.New("resource temporarily unavailable")

// lockInfoPath is `.<state file name>.lock.info` beside the state file.
func lockInfoPath(statePath string) string {
	dir, name := filepath.Split(statePath)
	return filepath.Join(dir, "."+name+".lock.info")
}

// Lock takes the state lock, retrying until Options.LockTimeout elapses or
// ctx ends. It is a no-op when Options.Lock is false. The returned error
// is a *LockError naming the holder, or an *IsDirError when the state
// path is a directory.
func (m *Manager) Lock(ctx context.Context, info LockInfo) error {
	if !m.opts.Lock {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lock != nil {
		return nil
	}
	if err := m.checkNotDir(); err != nil {
		return err
	}
	info.FillUnset()
	if info.Operation == "" {
		info.Operation = m.opts.Operation
	}
	info.Path = m.path
	infoPath := lockInfoPath(m.target)
	deadline := time.Now().Add(m.opts.LockTimeout)
	delay := 50 * time.Millisecond
	for {
		l, err := acquire(m.target, infoPath, &info)
		if err == nil {
			m.lock = l
			return nil
		}
		if !errors.Is(err, errLocked) {
			return &LockError{Err: err}
		}
		if !time.Now().Before(deadline) {
			return &LockError{Holder: readLockInfo(infoPath), Err: err}
		}
		wait := min(delay, time.Until(deadline))
		select {
		case <-ctx.Done():
			return &LockError{Holder: readLockInfo(infoPath), Err: ctx.Err()}
		case <-time.After(wait):
		}
		delay = min(delay*2, time.Second)
	}
}

// Unlock releases the lock taken by Lock.
func (m *Manager) Unlock() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lock == nil {
		return nil
	}
	err := m.lock.release()
	m.lock = nil
	if err != nil {
		return fmt.Errorf("Error releasing the state lock: %w", err)
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
	i := m.lock.info
	return &i
}

func readLockInfo(path string) *LockInfo {
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return nil
	}
	var info LockInfo
	if json.Unmarshal(b, &info) != nil {
		return nil
	}
	return &info
}

// ErrNotLocked is returned by ForceUnlock when there is no lock to remove.
var ErrNotLocked = errors.New("the state is not locked")

// ForceUnlock removes the lock with the given ID, for a holder that can
// no longer release it (`force-unlock`). The ID must match the lock info,
// so a lock taken since cannot be broken by mistake. A process that still
// runs keeps its OS lock on the state file until it exits.
func (m *Manager) ForceUnlock(id string) error {
	infoPath := lockInfoPath(m.target)
	info := readLockInfo(infoPath)
	if info == nil {
		if _, err := os.Stat(infoPath); err == nil {
			return fmt.Errorf("the lock info file %s cannot be read; if no operation is running, remove it by hand", infoPath)
		}
		return ErrNotLocked
	}
	if info.ID != id {
		return fmt.Errorf("the lock ID %q does not match the ID of the lock on the state, %q", quoteShort(id), info.ID)
	}
	if err := os.Remove(infoPath); err != nil {
		return fmt.Errorf("removing the lock info file: %w", err)
	}
	return nil
}
