package local

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

func TestCheckReplace(t *testing.T) {
	cur := &statefile.File{Lineage: "L", Serial: 5, State: stateWith(t, "a")}
	tests := []struct {
		name string
		cur  *statefile.File
		next *statefile.File
		want string // substring of the error; "" for none
	}{
		{"no state", nil, &statefile.File{Lineage: "X", Serial: 1, State: stateWith(t, "b")}, ""},
		{"empty state", &statefile.File{Lineage: "L", Serial: 9, State: state.NewState()}, &statefile.File{Lineage: "X", Serial: 1, State: stateWith(t, "b")}, ""},
		{"newer serial", cur, &statefile.File{Lineage: "L", Serial: 6, State: stateWith(t, "b")}, ""},
		{"same serial and content", cur, &statefile.File{Lineage: "L", Serial: 5, State: stateWith(t, "a")}, ""},
		{"same serial, other content", cur, &statefile.File{Lineage: "L", Serial: 5, State: stateWith(t, "b")}, "serial 5 with a different state that has the same serial"},
		{"older serial", cur, &statefile.File{Lineage: "L", Serial: 4, State: stateWith(t, "a")}, "serial 4 over newer state with serial 5"},
		{"other lineage", cur, &statefile.File{Lineage: "X", Serial: 9, State: stateWith(t, "a")}, "over unrelated state with lineage"},
		{"long lineage is clipped", cur, &statefile.File{Lineage: strings.Repeat("x", 1000), Serial: 9, State: stateWith(t, "a")}, "(1000 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckReplace(tt.cur, tt.next)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && err == nil:
				t.Errorf("accepted; want an error about %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

// WriteFile keeps the given lineage and serial, and keeps a journal on
// disk aside: what it recorded is not in the pushed state.
func TestWriteFileKeepsMetadataAndJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	crashedJournal(t, path, []string{"a"}, []string{"b"})
	m := Open(path, Options{})
	if err := m.WriteFile(&statefile.File{Lineage: "pushed", Serial: 42, State: stateWith(t, "z")}); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if got.Lineage != "pushed" || got.Serial != 42 || len(ids(got.State)) != 1 {
		t.Errorf("written: lineage %q serial %d ids %v", got.Lineage, got.Serial, ids(got.State))
	}
	if _, err := os.Stat(path + ".journal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("journal still in place")
	}
	if kept := asideFiles(t, path); len(kept) != 1 {
		t.Errorf("kept journals %v; want one", kept)
	}
	if _, err := os.Stat(path + ".backup"); err != nil {
		t.Errorf("no backup of the replaced state: %v", err)
	}
}

func TestForceUnlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	m := Open(path, Options{})
	if err := m.ForceUnlock("x"); !errors.Is(err, ErrNotLocked) {
		t.Errorf("no lock: %v; want ErrNotLocked", err)
	}
	info := lockInfoPath(path)
	os.WriteFile(info, []byte(`{"ID":"the-id","Operation":"OperationTypeApply"}`), 0o644)
	if err := m.ForceUnlock("other-id"); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("wrong ID: %v", err)
	}
	if _, err := os.Stat(info); err != nil {
		t.Fatalf("a wrong ID removed the lock")
	}
	if err := m.ForceUnlock("the-id"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(info); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock info still there")
	}
	os.WriteFile(info, []byte(`garbage`), 0o644)
	if err := m.ForceUnlock("the-id"); err == nil || errors.Is(err, ErrNotLocked) {
		t.Errorf("unreadable lock info: %v", err)
	}
}
