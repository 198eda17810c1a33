package local

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs/addrstest"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
	"github.com/tenetplan/tenet/state/statetest"
)

var (
	prov      = statetest.Provider
	inst      = addrstest.Instance
	obj       = statetest.Object
	stateWith = statetest.With
)

func readFile(t *testing.T, path string) *statefile.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// writeFile writes f to path as a state file, behind the manager's back,
// and returns the bytes written.
func writeFile(t testing.TB, path string, f *statefile.File) []byte {
	t.Helper()
	data, err := statefile.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}

// startJournal reads m's state, as an apply does first, and starts its
// journal.
func startJournal(t testing.TB, m *Manager) *Journal {
	t.Helper()
	if _, err := m.Read(); err != nil {
		t.Fatal(err)
	}
	j, err := m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestSerialLineageAndBackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")

	m := Open(path, Options{TerraformVersion: "1.10.6"})
	if f, err := m.Read(); err != nil || f != nil {
		t.Fatalf("missing file: got %v, %v; want nil, nil", f, err)
	}
	if err := m.Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	first := readFile(t, path)
	if first.Serial != 1 || len(first.Lineage) != 36 {
		t.Fatalf("new file: serial %d lineage %q", first.Serial, first.Lineage)
	}
	if _, err := os.Stat(path + ".backup"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a backup was written for a new state")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode = %v, want 0600", fi.Mode().Perm())
	}

	// Same content again: no bump, no rewrite.
	if err := m.Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	if f := readFile(t, path); f.Serial != 1 {
		t.Errorf("unchanged write bumped serial to %d", f.Serial)
	}

	// A new manager (a new command): first change bumps once and backs up.
	before, _ := os.ReadFile(path)
	m2 := Open(path, Options{})
	if _, err := m2.Read(); err != nil {
		t.Fatal(err)
	}
	if err := m2.Write(stateWith(t, "a", "b")); err != nil {
		t.Fatal(err)
	}
	f := readFile(t, path)
	if f.Serial != 2 || f.Lineage != first.Lineage {
		t.Errorf("changed write: serial %d lineage %q; want 2 %q", f.Serial, f.Lineage, first.Lineage)
	}
	backup, err := os.ReadFile(path + ".backup")
	if err != nil || string(backup) != string(before) {
		t.Errorf("backup = %q, %v; want the previous snapshot", backup, err)
	}
	// A second change bumps again but leaves the backup alone.
	if err := m2.Write(stateWith(t, "c")); err != nil {
		t.Fatal(err)
	}
	if f := readFile(t, path); f.Serial != 3 {
		t.Errorf("second change: serial %d, want 3", f.Serial)
	}
	if b, _ := os.ReadFile(path + ".backup"); string(b) != string(before) {
		t.Errorf("backup rewritten by a later write")
	}
}

func TestBackupDisabled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.tfstate")
	if err := Open(path, Options{}).Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	if err := Open(path, Options{BackupPath: "-"}).Write(stateWith(t, "b")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".backup"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("backup written despite -backup=-")
	}
}

func TestUnparsableStateIsNeverOverwritten(t *testing.T) {
	for name, content := range map[string]string{
		"garbage":        "this is not json",
		"future version": `{"version":5}`,
		"truncated":      `{"version":4,"resources":[`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "terraform.tfstate")
			os.WriteFile(path, []byte(content), 0o600)
			m := Open(path, Options{})
			if _, err := m.Read(); err == nil {
				t.Fatalf("read succeeded")
			}
			if err := m.Write(stateWith(t, "a")); err == nil {
				t.Errorf("write over an unreadable file succeeded")
			}
			// Even without a prior Read.
			if err := Open(path, Options{}).Write(stateWith(t, "a")); err == nil {
				t.Errorf("write without read over an unreadable file succeeded")
			}
			if b, _ := os.ReadFile(path); string(b) != content {
				t.Errorf("file changed to %q", b)
			}
		})
	}
}

func TestEmptyFileIsNoState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	os.WriteFile(path, nil, 0o600)
	m := Open(path, Options{})
	if f, err := m.Read(); f != nil || err != nil {
		t.Fatalf("empty file read as %v, %v", f, err)
	}
	if err := m.Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	if f := readFile(t, path); f.Serial != 1 {
		t.Errorf("serial %d, want 1", f.Serial)
	}
}

func TestFailedWriteLeavesOldFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	if err := Open(path, Options{}).Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o700)
	m := Open(path, Options{BackupPath: "-"})
	if err := m.Write(stateWith(t, "b")); err == nil {
		t.Fatalf("write into a read-only directory succeeded")
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(before) {
		t.Errorf("old state damaged by a failed write")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("leftover files: %v", entries)
	}
}

func TestFailedRenameLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	if err := Open(path, Options{}).Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	renameFile = func(string, string) error { return errors.New("disk on fire") }
	defer func() { renameFile = os.Rename }()
	m := Open(path, Options{BackupPath: "-"})
	if err := m.Write(stateWith(t, "b")); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("write error = %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("old state damaged by a failed write")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("leftover files: %v", entries)
	}
	// The manager still knows the old snapshot: a retry succeeds with serial 2.
	renameFile = os.Rename
	if err := m.Write(stateWith(t, "b")); err != nil {
		t.Fatal(err)
	}
	if f := readFile(t, path); f.Serial != 2 {
		t.Errorf("serial after retry = %d, want 2", f.Serial)
	}
}

func TestLockContention(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	if err := Open(path, Options{}).Write(stateWith(t, "a")); err != nil {
		t.Fatal(err)
	}
	holder := Open(path, Options{Lock: true})
	info := NewLockInfo("OperationTypeApply")
	info.Info = "first holder"
	if err := holder.Lock(context.Background(), info); err != nil {
		t.Fatal(err)
	}
	infoFile := filepath.Join(filepath.Dir(path), ".terraform.tfstate.lock.info")
	if got := readLockInfo(infoFile); got == nil || got.ID != info.ID || got.Path != path || got.Operation != "OperationTypeApply" {
		t.Fatalf("lock info file = %+v", got)
	}

	waiter := Open(path, Options{Lock: true, LockTimeout: 300 * time.Millisecond})
	start := time.Now()
	err := waiter.Lock(context.Background(), NewLockInfo("OperationTypePlan"))
	waited := time.Since(start)
	if err == nil {
		t.Fatalf("second lock succeeded while held")
	}
	if waited < 250*time.Millisecond {
		t.Errorf("gave up after %s, before the timeout", waited)
	}
	for _, want := range []string{"Error acquiring the state lock", info.ID, "first holder", "OperationTypeApply"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%s", want, err)
		}
	}
	// Writing under the lock keeps others out (the state file is replaced).
	if err := holder.Write(stateWith(t, "b")); err != nil {
		t.Fatal(err)
	}
	if err := waiter.Lock(context.Background(), NewLockInfo("x")); err == nil {
		t.Fatalf("lock taken after the holder rewrote the state")
	}

	// Released: a waiter gets it while still waiting.
	go func() {
		time.Sleep(100 * time.Millisecond)
		holder.Unlock()
	}()
	patient := Open(path, Options{Lock: true, LockTimeout: 5 * time.Second})
	if err := patient.Lock(context.Background(), NewLockInfo("OperationTypePlan")); err != nil {
		t.Fatalf("lock not acquired after release: %s", err)
	}
	patient.Unlock()
	if _, err := os.Stat(infoFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock info file left after unlock")
	}
}

func TestLockDisabled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	a := Open(path, Options{Lock: true})
	if err := a.Lock(context.Background(), NewLockInfo("x")); err != nil {
		t.Fatal(err)
	}
	defer a.Unlock()
	if err := Open(path, Options{Lock: false}).Lock(context.Background(), NewLockInfo("y")); err != nil {
		t.Errorf("-lock=false still locked: %s", err)
	}
}

func TestJournalRecoveryAfterCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	m := Open(path, Options{})
	if err := m.Write(stateWith(t, "a", "gone")); err != nil {
		t.Fatal(err)
	}
	stateBefore, _ := os.ReadFile(path)

	// Apply changes the state and records each operation, as cli's
	// journal recorder does.
	a, b0, gone := inst(t, "terraform_data.a"), inst(t, "terraform_data.b[0]"), inst(t, "terraform_data.gone")
	want := stateWith(t, "a", "gone")
	aObj := want.ResourceInstanceObject(a, state.NotDeposed)
	want.SetResourceInstanceCurrent(b0, obj("b0"), prov)
	key := want.DeposeResourceInstanceObject(a)
	want.SetResourceInstanceCurrent(a, obj("a2"), prov)
	want.ForgetResourceInstanceAll(gone)
	want.SetOutputValue("o", cty.StringVal("v"), true)
	j, err := m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		j.Record(b0, state.NotDeposed, obj("b0"), prov),
		j.Record(a, key, aObj, prov),
		j.Record(a, state.NotDeposed, obj("a2"), prov),
		j.Record(gone, state.NotDeposed, nil, prov),
		j.RecordOutput("o", want.OutputValue("o")),
		j.Sync(),
		j.Err(),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Crash: no Finish. Add a torn half line as a crash mid-write would.
	jf, _ := os.OpenFile(path+".journal", os.O_WRONLY|os.O_APPEND, 0)
	jf.WriteString(`{"addr":"terraform_data.torn","obj`)
	jf.Close()

	if b, _ := os.ReadFile(path); string(b) != string(stateBefore) {
		t.Fatalf("the journal rewrote the state file")
	}
	if m.Recovered() {
		t.Errorf("the manager that wrote the journal reports a recovery")
	}
	m2 := Open(path, Options{})
	f, err := m2.Read()
	if err != nil {
		t.Fatal(err)
	}
	if !m2.Recovered() {
		t.Errorf("Recovered() = false after reading a journal")
	}
	if !f.State.Equal(want) {
		t.Fatalf("recovered state differs:\n%v", f.State.AllResourceInstances())
	}
	if f.State.ResourceInstanceObject(inst(t, "terraform_data.a"), key) == nil {
		t.Errorf("deposed object not recovered")
	}
	// Continue recording after recovery, then finish.
	j2, err := m2.Journal()
	if err != nil {
		t.Fatal(err)
	}
	final := f.State.DeepCopy()
	final.SetResourceInstanceDeposed(inst(t, "terraform_data.a"), key, nil, prov)
	if err := j2.Record(inst(t, "terraform_data.a"), key, nil, prov); err != nil {
		t.Fatal(err)
	}
	// A second crash: both the recovered and the new entries replay.
	f3, err := Open(path, Options{}).Read()
	if err != nil || !f3.State.Equal(final) {
		t.Fatalf("second recovery: %v", err)
	}
	if err := j2.Finish(final); err != nil {
		t.Fatal(err)
	}
	if m2.Recovered() {
		t.Errorf("Recovered() = true after Finish wrote the state")
	}
	if _, err := os.Stat(path + ".journal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("journal left after Finish")
	}
	written := readFile(t, path)
	if !written.State.Equal(final) || written.Serial != 2 {
		t.Errorf("final snapshot: serial %d, equal %v", written.Serial, written.State.Equal(final))
	}
}

func TestStaleJournalIgnored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	m := Open(path, Options{})
	m.Write(stateWith(t, "a"))
	j, _ := m.Journal()
	j.Record(inst(t, "terraform_data.b"), state.NotDeposed, obj("b"), prov)
	j.Close()
	// Another tool writes the state meanwhile (new serial).
	f := readFile(t, path)
	f.Serial++
	writeFile(t, path, f)
	got, err := Open(path, Options{}).Read()
	if err != nil {
		t.Fatal(err)
	}
	if got.State.ResourceInstance(inst(t, "terraform_data.b")) != nil {
		t.Errorf("a journal for an older snapshot was applied")
	}
}

func BenchmarkJournalRecord(b *testing.B) {
	path := filepath.Join(b.TempDir(), "terraform.tfstate")
	m := Open(path, Options{})
	j, err := m.Journal()
	if err != nil {
		b.Fatal(err)
	}
	a := inst(b, "terraform_data.a[0]")
	o := obj("x")
	for b.Loop() {
		if err := j.Record(a, state.NotDeposed, o, prov); err != nil {
			b.Fatal(err)
		}
	}
	j.Close()
}

func FuzzDecodeJournalEntry(f *testing.F) {
	f.Add([]byte(`{"addr":"terraform_data.a[0]","provider":"provider[\"terraform.io/builtin/terraform\"]","object":{"schema_version":0,"attributes":{"id":"x"},"sensitive_attributes":[]}}`))
	f.Add([]byte(`{"addr":"module.m.a.b","deposed":"0000000a"}`))
	f.Add([]byte(`{"output":"o","value":{"value":"v","type":"string","sensitive":true}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		c, err := decodeEntry(line)
		if err != nil {
			return
		}
		// Whatever decodes must replay onto a state without panicking.
		s := state.NewState()
		s.Apply(c)
	})
}

func TestLineageMatchesCurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	m := Open(path, Options{})
	if _, _, ok := m.Lineage(); ok {
		t.Fatal("a manager with no snapshot reported a lineage")
	}
	if err := m.Write(state.NewState()); err != nil {
		t.Fatal(err)
	}
	lineage, serial, ok := m.Lineage()
	cur := m.Current()
	if !ok || lineage != cur.Lineage || serial != cur.Serial || lineage == "" {
		t.Fatalf("Lineage() = %q, %d, %v; Current() has %q, %d", lineage, serial, ok, cur.Lineage, cur.Serial)
	}
}
