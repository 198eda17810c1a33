package atomicfile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tenetplan/tenet/internal/atomicfile"
)

func TestWriteKeepsWhatThePathIs(t *testing.T) {
	for _, tc := range []struct {
		name string
		// setup prepares dir and returns the path to write and the file
		// whose content must then be the new one.
		setup func(t *testing.T, dir string) (path, holder string)
	}{
		{"new file", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "state")
			return p, p
		}},
		{"existing file", func(t *testing.T, dir string) (string, string) {
			p := filepath.Join(dir, "state")
			mustWrite(t, p, "old")
			return p, p
		}},
		{"link to a file", func(t *testing.T, dir string) (string, string) {
			target := filepath.Join(dir, "real", "state")
			os.Mkdir(filepath.Dir(target), 0o755)
			mustWrite(t, target, "old")
			link := filepath.Join(dir, "state")
			mustSymlink(t, "real/state", link)
			return link, target
		}},
		{"dangling link", func(t *testing.T, dir string) (string, string) {
			link := filepath.Join(dir, "state")
			mustSymlink(t, filepath.Join(dir, "elsewhere"), link)
			return link, filepath.Join(dir, "elsewhere")
		}},
		{"chain of links", func(t *testing.T, dir string) (string, string) {
			target := filepath.Join(dir, "state.real")
			mustWrite(t, target, "old")
			mustSymlink(t, "state.real", filepath.Join(dir, "middle"))
			mustSymlink(t, "middle", filepath.Join(dir, "state"))
			return filepath.Join(dir, "state"), target
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, holder := tc.setup(t, dir)
			before, _ := os.Lstat(path)
			if err := atomicfile.Write(path, 0o600, []byte("new "), []byte("content")); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(holder); string(got) != "new content" {
				t.Errorf("%s holds %q, want %q", holder, got, "new content")
			}
			if fi, err := os.Stat(holder); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %v (%v), want 0600", holder, fi.Mode(), err)
			}
			if before != nil && before.Mode()&fs.ModeSymlink != 0 {
				if after, _ := os.Lstat(path); after == nil || after.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("%s is no longer a symbolic link", path)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// A path that is not a regular file, such as -out=/dev/null or a named
// pipe, is written to and stays what it is. (A pipe rather than
// /dev/null itself: were the test to fail, it must not break the
// machine's /dev/null.)
func TestWriteToAPipeFeedsTheReader(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := atomicfile.Write(fifo, 0o600, []byte("through the pipe")); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "through the pipe" {
			t.Errorf("reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Error("the reader of the pipe got nothing")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s: mode %v (%v), want a named pipe", fifo, fi.Mode(), err)
	}
}

func TestFailedRenameKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state")
	mustWrite(t, p, "old")
	failing := func(string, string) error { return errors.New("disk on fire") }
	if err := atomicfile.WriteWith(failing, p, 0o600, []byte("new")); err == nil {
		t.Fatal("no error from a failing rename")
	}
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("state holds %q after a failed write, want the old content", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
