//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package local

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// heldLock is a lock this process holds: an flock on the lock info file
// (which holds the LockInfo JSON) and, where supported, a record lock on
// the state file itself so that OpenTofu, which locks the state file,
// sees the state as locked too.
type heldLock struct {
	info      LockInfo
	infoPath  string
	infoFile  *os.File
	stateFile *os.File
}

func acquire(statePath, infoPath string, info *LockInfo) (*heldLock, error) {
	stateFile, err := lockStateFile(statePath)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(infoPath, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			closeFile(stateFile)
			return nil, fmt.Errorf("opening the lock info file: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			closeFile(stateFile)
			if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
				return nil, errLocked
			}
			return nil, fmt.Errorf("locking %s: %w", infoPath, err)
		}
		// The previous holder removes the file before unlocking; if we
		// locked a file that is no longer at infoPath, start again.
		if sameFile(f, infoPath) {
			l := &heldLock{info: *info, infoPath: infoPath, infoFile: f, stateFile: stateFile}
			if err := l.writeInfo(); err != nil {
				l.release()
				return nil, err
			}
			return l, nil
		}
		f.Close()
		if attempt > 100 {
			closeFile(stateFile)
			return nil, errLocked
		}
	}
}

func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	if err != nil {
		return false
	}
	return os.SameFile(a, b)
}

func (l *heldLock) writeInfo() error {
	b, err := json.Marshal(l.info)
	if err != nil {
		return err
	}
	if err := l.infoFile.Truncate(0); err != nil {
		return fmt.Errorf("writing the lock info file: %w", err)
	}
	if _, err := l.infoFile.WriteAt(b, 0); err != nil {
		return fmt.Errorf("writing the lock info file: %w", err)
	}
	return l.infoFile.Sync()
}

// relockState moves the state file lock to the file now at statePath,
// after an atomic write replaced it.
func (l *heldLock) relockState(statePath string) {
	f, err := lockStateFile(statePath)
	if err != nil {
		return // best effort: the info file lock still excludes tenet processes
	}
	closeFile(l.stateFile)
	l.stateFile = f
}

func (l *heldLock) release() error {
	err := os.Remove(l.infoPath)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if cerr := l.infoFile.Close(); err == nil {
		err = cerr
	}
	closeFile(l.stateFile)
	return err
}

func closeFile(f *os.File) {
	if f != nil {
		f.Close()
	}
}
