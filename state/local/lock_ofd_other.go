//go:build !linux && (darwin || freebsd || netbsd || openbsd || dragonfly)

package local

import "os"

// lockStateFile is a no-op where open-file-description locks are missing:
// the lock info file's flock still excludes other tenet processes.
func lockStateFile(string) (*os.File, error) { return nil, nil }
