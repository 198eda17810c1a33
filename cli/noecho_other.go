//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cli

import (
	"io"
	"os"
)

// hideInput cannot turn off a terminal's echo on this system: the pasted
// token stays visible.
func hideInput(io.Reader) (restore func()) { return func() {} }

// isTerminal reports whether r is a character device, the nearest this
// system lets tenet tell of a terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
