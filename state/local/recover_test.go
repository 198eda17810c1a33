package local

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
)

// crashedJournal leaves path with a state of ids and a journal recording
// the creation of each of extra, as an apply killed before its final
// write does. It returns the journal's lines.
func crashedJournal(t *testing.T, path string, ids []string, extra []string) []string {
	t.Helper()
	m := Open(path, Options{})
	if err := m.Write(stateWith(t, ids...)); err != nil {
		t.Fatal(err)
	}
	j, err := m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range extra {
		if err := j.Record(inst(t, "terraform_data."+id), state.NotDeposed, obj(id), prov); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path + ".journal")
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(string(b), "\n")
}

func ids(s *state.State) []string {
	var out []string
	for _, r := range s.AllResourceInstances() {
		out = append(out, r.Addr.String())
	}
	return out
}

func asideFiles(t *testing.T, path string) []string {
	t.Helper()
	m, _ := filepath.Glob(path + ".journal.*")
	return m
}

func TestJournalRecovery(t *testing.T) {
	tests := []struct {
		name string
		// edit changes the journal lines and the state file after the crash.
		edit        func(t *testing.T, path string, lines []string) []string
		wantIDs     []string
		wantNotice  string // summary; "" for none
		wantInFault []string
		wantKept    bool // the journal is kept aside at the next write
	}{
		{
			name:    "complete",
			edit:    func(t *testing.T, path string, l []string) []string { return l },
			wantIDs: []string{"terraform_data.a", "terraform_data.b", "terraform_data.c", "terraform_data.d"},
		},
		{
			name: "corrupt line in the middle",
			edit: func(t *testing.T, path string, l []string) []string {
				l[2] = "{\"addr\":\"terraform_data.c\",garbage}\n"
				return l
			},
			wantIDs:     []string{"terraform_data.a", "terraform_data.b", "terraform_data.d"},
			wantNotice:  "State journal recovered in part",
			wantInFault: []string{"recovered 2 operations", "1 lines could not be read (line 3)"},
			wantKept:    true,
		},
		{
			name: "torn last line",
			edit: func(t *testing.T, path string, l []string) []string {
				l[3] = l[3][:10]
				return l
			},
			wantIDs:     []string{"terraform_data.a", "terraform_data.b", "terraform_data.c"},
			wantNotice:  "State journal recovered in part",
			wantInFault: []string{"recovered 2 operations", "the last line was cut short"},
			wantKept:    true,
		},
		{
			name: "bad header",
			edit: func(t *testing.T, path string, l []string) []string {
				l[0] = "{not a header}\n"
				return l
			},
			wantIDs:     []string{"terraform_data.a"},
			wantNotice:  "State journal not recognised",
			wantInFault: []string{"did not apply them"},
			wantKept:    true,
		},
		{
			name: "other serial",
			edit: func(t *testing.T, path string, l []string) []string {
				l[0] = strings.Replace(l[0], `"serial":1`, `"serial":7`, 1)
				return l
			},
			wantIDs:     []string{"terraform_data.a"},
			wantNotice:  "State journal belongs to another state",
			wantInFault: []string{"records 3 operations", "serial 7", "serial 1"},
			wantKept:    true,
		},
		{
			name: "state file removed",
			edit: func(t *testing.T, path string, l []string) []string {
				os.Remove(path)
				return l
			},
			wantNotice:  "State journal belongs to another state",
			wantInFault: []string{"there is no state file"},
			wantKept:    true,
		},
		{
			name: "torn header",
			edit: func(t *testing.T, path string, l []string) []string {
				return []string{l[0][:12]}
			},
			wantIDs: []string{"terraform_data.a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "terraform.tfstate")
			lines := crashedJournal(t, path, []string{"a"}, []string{"b", "c", "d"})
			lines = tt.edit(t, path, lines)
			journal := strings.Join(lines, "")
			if err := os.WriteFile(path+".journal", []byte(journal), 0o600); err != nil {
				t.Fatal(err)
			}
			m := Open(path, Options{})
			f, err := m.Read()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if f != nil {
				got = ids(f.State)
			}
			if diff := cmp.Diff(tt.wantIDs, got); diff != "" {
				t.Errorf("recovered state (-want +got):\n%s", diff)
			}
			notices := m.Notices()
			switch {
			case tt.wantNotice == "" && len(notices) > 0:
				t.Errorf("unexpected notice %+v", notices)
			case tt.wantNotice != "" && len(notices) != 1:
				t.Fatalf("notices %+v; want one %q", notices, tt.wantNotice)
			case tt.wantNotice != "":
				if notices[0].Summary != tt.wantNotice {
					t.Errorf("summary %q, want %q", notices[0].Summary, tt.wantNotice)
				}
				for _, w := range append(tt.wantInFault, path+".journal.") {
					if !strings.Contains(notices[0].Detail, w) {
						t.Errorf("detail %q does not mention %q", notices[0].Detail, w)
					}
				}
			}
			// The next write keeps the journal aside, byte for byte, or
			// removes it when everything in it was folded.
			st := state.NewState()
			if f != nil {
				st = f.State
			}
			st.SetResourceInstanceCurrent(inst(t, "terraform_data.z"), obj("z"), prov)
			if err := m.Write(st); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path + ".journal"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the journal is still in place after a write")
			}
			kept := asideFiles(t, path)
			if !tt.wantKept {
				if len(kept) != 0 {
					t.Errorf("journal kept as %v; nothing was lost", kept)
				}
				return
			}
			if len(kept) != 1 {
				t.Fatalf("kept journals %v; want one", kept)
			}
			if b, _ := os.ReadFile(kept[0]); string(b) != journal {
				t.Errorf("the kept journal differs from the one found")
			}
			if !strings.Contains(notices[0].Detail, kept[0]) {
				t.Errorf("the notice named another file than %s:\n%s", kept[0], notices[0].Detail)
			}
		})
	}
}

// Starting an apply over a partly read journal keeps the old one and
// records what was recovered again, so a second crash loses nothing more.
func TestJournalOverPartialRecovery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	lines := crashedJournal(t, path, []string{"a"}, []string{"b", "c", "d"})
	lines[2] = "garbage\n"
	os.WriteFile(path+".journal", []byte(strings.Join(lines, "")), 0o600)

	m := Open(path, Options{})
	j := startJournal(t, m)
	if err := j.Record(inst(t, "terraform_data.e"), state.NotDeposed, obj("e"), prov); err != nil {
		t.Fatal(err)
	}
	j.Close() // a second crash
	if kept := asideFiles(t, path); len(kept) != 1 {
		t.Fatalf("kept journals %v; want the partly read one", kept)
	}
	m2 := Open(path, Options{})
	f, err := m2.Read()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"terraform_data.a", "terraform_data.b", "terraform_data.d", "terraform_data.e"}
	if diff := cmp.Diff(want, ids(f.State)); diff != "" {
		t.Errorf("after the second crash (-want +got):\n%s", diff)
	}
	if n := m2.Notices(); len(n) != 0 {
		t.Errorf("the rewritten journal is reported: %+v", n)
	}
}

// A journal whose entries the state already holds (the process died
// between writing the state and removing the journal) goes quietly.
func TestJournalAlreadyInStateIsDropped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	lines := crashedJournal(t, path, []string{"a"}, []string{"b"})
	if err := Open(path, Options{BackupPath: "-"}).Write(stateWith(t, "a", "b")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path+".journal", []byte(strings.Join(lines, "")), 0o600)
	m := Open(path, Options{})
	if _, err := m.Read(); err != nil {
		t.Fatal(err)
	}
	if n := m.Notices(); len(n) != 0 || m.Recovered() {
		t.Errorf("notices %+v, recovered %v; want none", n, m.Recovered())
	}
}

// A state path that is a symbolic link is written through: the link
// stays, the file it names gets the new snapshot, the backup is a file of
// its own holding the old one, and the journal and lock info sit beside
// the real file.
func TestSymlinkedStateIsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "terraform.tfstate")
	os.Mkdir(filepath.Dir(real), 0o755)
	if err := Open(real, Options{}).Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(real)
	link := filepath.Join(dir, "terraform.tfstate")
	if err := os.Symlink("real/terraform.tfstate", link); err != nil {
		t.Fatal(err)
	}
	m := Open(link, Options{Lock: true})
	if err := m.Lock(t.Context(), NewLockInfo("test")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "real", ".terraform.tfstate.lock.info")); err != nil {
		t.Errorf("lock info not beside the real file: %v", err)
	}
	j := startJournal(t, m)
	if _, err := os.Stat(real + ".journal"); err != nil {
		t.Errorf("journal not beside the real file: %v", err)
	}
	if err := j.Finish(stateWith(t, "a", "b")); err != nil {
		t.Fatal(err)
	}
	m.Unlock()

	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if got := ids(readFile(t, real).State); len(got) != 2 {
		t.Errorf("the real file was not written: %v", got)
	}
	fi, err := os.Lstat(link + ".backup")
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("backup is not a regular file: %v", err)
	}
	if b, _ := os.ReadFile(link + ".backup"); string(b) != string(before) {
		t.Errorf("backup does not hold the previous snapshot")
	}
	if stray, _ := filepath.Glob(filepath.Join(dir, ".terraform.tfstate*")); len(stray) > 0 {
		t.Errorf("files beside the link: %v", stray)
	}
}

// A dangling link names the file a first write creates.
func TestDanglingSymlinkCreatesTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "terraform.tfstate")
	os.Symlink("elsewhere.tfstate", link)
	if err := Open(link, Options{}).Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced")
	}
	if got := ids(readFile(t, filepath.Join(dir, "elsewhere.tfstate")).State); len(got) != 1 {
		t.Errorf("target not written: %v", got)
	}
}

func TestStatePathIsDirectory(t *testing.T) {
	dir := t.TempDir()
	m := Open(dir, Options{Lock: true})
	var de *IsDirError
	if err := m.Lock(t.Context(), NewLockInfo("test")); !errors.As(err, &de) {
		t.Errorf("Lock: %v; want an IsDirError", err)
	}
	if _, err := m.Read(); !errors.As(err, &de) {
		t.Errorf("Read: %v; want an IsDirError", err)
	}
	if err := m.Write(stateWith(t, "a")); !errors.As(err, &de) {
		t.Errorf("Write: %v; want an IsDirError", err)
	}
}

// FuzzReadJournal feeds arbitrary journals: reading must not fail or
// panic, and a journal is only let go (not kept) when every byte of it
// was folded or it provably held nothing.
func FuzzReadJournal(f *testing.F) {
	header := `{"tenet_state_journal":1,"lineage":"L","serial":3}` + "\n"
	entry := `{"addr":"terraform_data.b","provider":"provider[\"terraform.io/builtin/terraform\"]","object":{"schema_version":0,"attributes":{"id":"b"},"sensitive_attributes":[]}}` + "\n"
	f.Add([]byte(header + entry))
	f.Add([]byte(header + "garbage\n" + entry))
	f.Add([]byte(header + entry[:20]))
	f.Add([]byte(`{"tenet_state_journal":1,"lineage":"L","serial":2}` + "\n" + entry))
	f.Add([]byte(`{"tenet_sta`))
	f.Add([]byte("\n\n"))
	cur := &statefile.File{Lineage: "L", Serial: 3}
	f.Fuzz(func(t *testing.T, src []byte) {
		path := filepath.Join(t.TempDir(), "j")
		if err := os.WriteFile(path, src, 0o600); err != nil {
			t.Fatal(err)
		}
		found, err := readJournal(path, cur, stateWith(t, "a"), path+".aside")
		if err != nil {
			t.Fatal(err)
		}
		if found.keep != (found.notice != nil) {
			t.Errorf("keep %v but notice %v", found.keep, found.notice)
		}
		if found.rec != nil && !found.rec.complete && !found.keep {
			t.Errorf("a partly read journal would be removed")
		}
		if !found.keep && found.rec == nil && len(src) > 0 && !tornHeader(src) && !bytes.HasPrefix(src, []byte(`{"tenet_state_journal":1,"lineage":"L","serial":`)) {
			t.Errorf("journal %q let go without being folded", src)
		}
		if found.rec != nil {
			s := stateWith(t, "a")
			for _, c := range found.rec.changes {
				s.Apply(c)
			}
		}
	})
}
