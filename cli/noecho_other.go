//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cli

import "io"

// hideInput cannot turn off a terminal's echo on this system: the pasted
// token stays visible.
func hideInput(io.Reader) (restore func()) { return func() {} }
