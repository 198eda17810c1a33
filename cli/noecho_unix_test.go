//go:build linux || darwin || freebsd || netbsd || openbsd

package cli

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestIsTerminal: /dev/null is a character device but not a terminal, so
// `tenet console </dev/null` prints no prompt (as OpenTofu's); neither is
// a pipe nor a reader that is not a file.
func TestIsTerminal(t *testing.T) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, in := range map[string]io.Reader{"/dev/null": devNull, "pipe": r, "reader": strings.NewReader("")} {
		t.Run(name, func(t *testing.T) {
			if isTerminal(in) {
				t.Errorf("%s counted as a terminal", name)
			}
		})
	}
}
