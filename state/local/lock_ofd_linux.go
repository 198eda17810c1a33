package local

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// fOFDSetLK is Linux's F_OFD_SETLK: a record lock owned by the open file
// description, so closing another descriptor of the same file (as reading
// the state does) does not drop it, unlike a classic fcntl lock. It
// conflicts with the classic fcntl locks OpenTofu takes on the state file.
const fOFDSetLK = 37

// lockStateFile write-locks the existing state file; nil if there is none.
func lockStateFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("opening the state file for locking: %w", err)
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart}
	if err := syscall.FcntlFlock(f.Fd(), fOFDSetLK, &lk); err != nil {
		f.Close()
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
			return nil, errLocked
		}
		if errors.Is(err, syscall.EINVAL) {
			return nil, nil // kernel without OFD locks: rely on the info file lock
		}
		return nil, fmt.Errorf("locking the state file: %w", err)
	}
	return f, nil
}
