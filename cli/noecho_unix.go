//go:build linux || darwin || freebsd || netbsd || openbsd

package cli

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// hideInput turns off the echo of a terminal r, so that a pasted token
// does not stay on the screen, and returns what turns it back on. Input
// that is not a terminal (a pipe, a test) is left as it is.
func hideInput(r io.Reader) (restore func()) {
	f, ok := r.(*os.File)
	if !ok {
		return func() {}
	}
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return func() {}
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO
	quiet.Lflag |= unix.ICANON | unix.ISIG
	if unix.IoctlSetTermios(fd, ioctlSetTermios, &quiet) != nil {
		return func() {}
	}
	return func() { unix.IoctlSetTermios(fd, ioctlSetTermios, old) }
}

// isTerminal reports whether r is a terminal: /dev/null and other
// character devices that are not do not count.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}
