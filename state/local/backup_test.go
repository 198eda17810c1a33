package local

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tenetplan/tenet/state/statefile"
)

// TestBackupIsTheSnapshotRead checks that the backup holds the file as
// this manager read it, whether the backup is a link to that file or,
// when the file on disk changed since, a copy.
func TestBackupIsTheSnapshotRead(t *testing.T) {
	tests := map[string]func(t *testing.T, path string){
		"unchanged on disk": func(t *testing.T, path string) {},
		"rewritten in place": func(t *testing.T, path string) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			src[len(src)-3] = ' ' // same size, other content
			if _, err := f.Write(src); err != nil {
				t.Fatal(err)
			}
			f.Close()
			later := time.Now().Add(time.Minute)
			os.Chtimes(path, later, later)
		},
		"replaced by another file": func(t *testing.T, path string) {
			if err := os.Rename(path, path+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(`{"version":4}`), 0o600); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, disturb := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "terraform.tfstate")
			data := writeFile(t, path, &statefile.File{Serial: 3, Lineage: "l", State: stateWith(t, "a")})
			m := Open(path, Options{})
			if _, err := m.Read(); err != nil {
				t.Fatal(err)
			}
			disturb(t, path)
			if err := m.Write(stateWith(t, "a", "b")); err != nil {
				t.Fatal(err)
			}
			backup, err := os.ReadFile(path + ".backup")
			if err != nil || string(backup) != string(data) {
				t.Errorf("backup = %q, %v; want the file as read, %q", backup, err, data)
			}
			if got := readFile(t, path); got.Serial != 4 || got.State.ResourceInstance(inst(t, "terraform_data.b")) == nil {
				t.Errorf("state file = serial %d, %v", got.Serial, got.State)
			}
			matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*"))
			if len(matches) > 0 {
				t.Errorf("temporary files left behind: %v", matches)
			}
		})
	}
}

// TestFailedWriteLeavesBackupOfItsOwn checks that a backup made as a link
// does not stay the same file as the state file when the state write
// fails, so rewriting the state file in place cannot change the backup.
func TestFailedWriteLeavesBackupOfItsOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	if err := Open(path, Options{}).Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	renameFile = func(from, to string) error {
		if to == path {
			return errors.New("disk on fire")
		}
		return os.Rename(from, to)
	}
	defer func() { renameFile = os.Rename }()
	m := Open(path, Options{})
	if _, err := m.Read(); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(stateWith(t, "b")); err == nil {
		t.Fatal("the write did not fail")
	}
	backupInfo, err := os.Stat(path + ".backup")
	if err != nil {
		t.Fatal(err)
	}
	stateInfo, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(backupInfo, stateInfo) {
		t.Errorf("the backup is still a link to the state file")
	}
	if b, _ := os.ReadFile(path + ".backup"); string(b) != string(before) {
		t.Errorf("backup = %q, want %q", b, before)
	}
}
