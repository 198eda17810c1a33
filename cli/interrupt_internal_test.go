package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/local"
)

// TestForcedExitFoldsJournalAndUnlocks: at the second interrupt the
// guards run newest first — the apply's journal is folded into the state
// file, then the lock is released — and the process exits 1. A guard the
// normal path resolved does not run again.
func TestForcedExitFoldsJournalAndUnlocks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	mgr := local.Open(path, local.Options{Lock: true, TerraformVersion: Version})
	if err := mgr.Lock(context.Background(), local.NewLockInfo("apply")); err != nil {
		t.Fatal(err)
	}
	if _, err := mgr.Read(); err != nil {
		t.Fatal(err)
	}
	journal, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	addr, d := addrs.ParseAbsResourceInstanceStr("terraform_data.done")
	if d.HasErrors() {
		t.Fatal(d)
	}
	prov := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewBuiltInProvider("terraform")}
	if err := journal.Record(addr, state.NotDeposed, &state.ObjectSrc{AttrsJSON: []byte(`{"id":"x"}`), Status: state.ObjectReady}, prov); err != nil {
		t.Fatal(err)
	}

	var out, errw bytes.Buffer
	exitCode := -1
	i := newInterrupts(&out, &errw, func(c int) { exitCode = c }, nil)
	var order []string
	i.guardRelease(func() {
		order = append(order, "release")
		if err := mgr.Unlock(); err != nil {
			t.Error(err)
		}
	})
	i.guard(func() {
		order = append(order, "fold")
		foldJournal(path, "", "-", journal)
	})
	resolved := i.guard(func() { order = append(order, "resolved guard ran") })
	i.resolve(resolved, func() {})

	i.operation()
	i.signal()
	if i.stop.Err() == nil || i.hard.Err() != nil {
		t.Fatalf("after one interrupt: stop %v, hard %v", i.stop.Err(), i.hard.Err())
	}
	if !strings.Contains(out.String(), "Interrupt received.") || !strings.Contains(out.String(), "Stopping operation...") {
		t.Errorf("first interrupt printed %q", out.String())
	}
	i.signal()
	if exitCode != 1 {
		t.Errorf("exit code %d, want 1", exitCode)
	}
	if i.hard.Err() == nil {
		t.Error("the hard stop did not end at the second interrupt")
	}
	if got := strings.Join(order, ","); got != "fold,release" {
		t.Errorf("guards ran as %s, want fold,release", got)
	}
	if !strings.Contains(errw.String(), "Two interrupts received. Exiting immediately. Note that data loss may have\noccurred.") {
		t.Errorf("second interrupt printed %q", errw.String())
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no state file after a forced exit: %v", err)
	}
	if !strings.Contains(string(src), `"name":"done"`) {
		t.Errorf("the journal was not folded into the state file:\n%s", src)
	}
	for _, left := range []string{path + ".journal", filepath.Join(dir, ".terraform.tfstate.lock.info")} {
		if _, err := os.Stat(left); err == nil {
			t.Errorf("%s left behind", filepath.Base(left))
		}
	}
}

// TestSecondInterruptSpeaksThroughTheView: the second interrupt's message
// and the "operation canceled" error come as OpenTofu 1.10.6 shows them
// (recorded from a plan stuck reading a data source): wrapped on stderr
// with the error after it in the human view, as log and diagnostic
// messages under -json; without an operation under way, no error.
func TestSecondInterruptSpeaksThroughTheView(t *testing.T) {
	const fatal = "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n"
	tests := []struct {
		name      string
		json      bool
		operation bool
		wantErrw  string
		wantLogs  []string
		wantDiags []string
	}{
		{"human", false, true, "\nTwo interrupts received. Exiting immediately. Note that data loss may have\noccurred.\n\n", nil, []string{"operation canceled"}},
		{"json", true, true, "", []string{fatal}, []string{"operation canceled"}},
		{"no operation", false, false, "\nTwo interrupts received. Exiting immediately. Note that data loss may have\noccurred.\n\n", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errw bytes.Buffer
			var logs, diags []string
			i := newInterrupts(&out, &errw, func(int) {}, nil)
			var jsonLog func(string)
			if tt.json {
				jsonLog = func(m string) { logs = append(logs, m) }
			}
			i.useView(func(ds hcl.Diagnostics) {
				for _, d := range ds {
					diags = append(diags, d.Summary)
				}
			}, jsonLog)
			if tt.operation {
				i.operation()
			}
			i.signal()
			logs = nil // the first interrupt's messages are another test's
			i.signal()
			if diff := cmp.Diff(tt.wantErrw, errw.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantLogs, logs); diff != "" {
				t.Errorf("log messages (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantDiags, diags); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
