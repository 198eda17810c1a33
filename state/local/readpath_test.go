package local

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

func fileOf(t *testing.T, serial uint64, lineage string, ids ...string) *statefile.File {
	return &statefile.File{Serial: serial, Lineage: lineage, TerraformVersion: "1.10.6", State: stateWith(t, ids...)}
}

// TestReadPath covers -state-out: read one file, write another, as
// OpenTofu's local backend does.
func TestReadPath(t *testing.T) {
	tests := []struct {
		name string
		// outHolds is what the -state-out file holds before ("" for no
		// file; otherwise the resource names of a state in it).
		outHolds []string
		write    *state.State
		// want: the out file's serial, and whether a backup is made.
		wantSerial uint64
		wantBackup bool
	}{
		{name: "changed, new out file", write: stateWith(t, "a", "b"), wantSerial: 6},
		{name: "unchanged is written all the same", write: stateWith(t, "a"), wantSerial: 5},
		{name: "out file held something else", outHolds: []string{"z"}, write: stateWith(t, "a", "b"), wantSerial: 6, wantBackup: true},
		{name: "out file held the same state", outHolds: []string{"a", "b"}, write: stateWith(t, "a", "b"), wantSerial: 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in, out := filepath.Join(dir, "in.tfstate"), filepath.Join(dir, "out.tfstate")
			src := writeFile(t, in, fileOf(t, 5, "lin-in", "a"))
			var before []byte
			if tc.outHolds != nil {
				before = writeFile(t, out, fileOf(t, 9, "lin-out", tc.outHolds...))
			}
			m := Open(out, Options{ReadPath: in})
			f, err := m.Read()
			if err != nil || f == nil || f.Serial != 5 || f.Lineage != "lin-in" {
				t.Fatalf("Read = %+v, %v; want the -state file's snapshot", f, err)
			}
			if !m.WritePending() {
				t.Errorf("WritePending = false before the first write")
			}
			if err := m.Write(tc.write); err != nil {
				t.Fatal(err)
			}
			if m.WritePending() {
				t.Errorf("WritePending = true after a write")
			}
			got := readFile(t, out)
			if got.Serial != tc.wantSerial || got.Lineage != "lin-in" {
				t.Errorf("out file: serial %d lineage %q; want %d lin-in", got.Serial, got.Lineage, tc.wantSerial)
			}
			if b, _ := os.ReadFile(in); string(b) != string(src) {
				t.Errorf("the -state file was written")
			}
			b, err := os.ReadFile(out + ".backup")
			switch {
			case tc.wantBackup && string(b) != string(before):
				t.Errorf("backup = %q, %v; want the out file's previous content", b, err)
			case !tc.wantBackup && !errors.Is(err, os.ErrNotExist):
				t.Errorf("a backup was made: %q", b)
			}
			if _, err := os.Stat(in + ".backup"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a backup of the -state file was made")
			}
			// Later writes are ordinary ones to the out file.
			if err := m.Write(tc.write); err != nil {
				t.Fatal(err)
			}
			if f := readFile(t, out); f.Serial != tc.wantSerial {
				t.Errorf("an unchanged second write bumped the serial to %d", f.Serial)
			}
		})
	}
}

// TestReadPathMissing writes a new state with a fresh lineage when the
// -state file does not exist.
func TestReadPathMissing(t *testing.T) {
	dir := t.TempDir()
	m := Open(filepath.Join(dir, "out.tfstate"), Options{ReadPath: filepath.Join(dir, "none.tfstate")})
	if f, err := m.Read(); err != nil || f != nil {
		t.Fatalf("Read = %v, %v; want nothing", f, err)
	}
	if err := m.Write(state.NewState()); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, filepath.Join(dir, "out.tfstate"))
	if diff := cmp.Diff(uint64(1), got.Serial); diff != "" || len(got.Lineage) != 36 {
		t.Errorf("serial %d lineage %q; want 1 and a new lineage", got.Serial, got.Lineage)
	}
}
