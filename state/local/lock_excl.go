//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package local

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// heldLock on platforms without flock: the lock info file is created
// exclusively, so its existence is the lock. A crash leaves it behind; it
// must then be removed by hand (force-unlock).
type heldLock struct {
	info     LockInfo
	infoPath string
}

func acquire(statePath, infoPath string, info *LockInfo) (*heldLock, error) {
	f, err := os.OpenFile(infoPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, errLocked
	}
	if err != nil {
		return nil, fmt.Errorf("creating the lock info file: %w", err)
	}
	defer f.Close()
	b, _ := json.Marshal(info)
	if _, err := f.Write(b); err != nil {
		os.Remove(infoPath)
		return nil, fmt.Errorf("writing the lock info file: %w", err)
	}
	return &heldLock{info: *info, infoPath: infoPath}, nil
}

func (l *heldLock) relockState(string) {}

func (l *heldLock) release() error { return os.Remove(l.infoPath) }
