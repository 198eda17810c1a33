package cli

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/cli/views/human"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/state"
)

// recordedProgress keeps the lines a view would print, one per call.
type recordedProgress struct {
	mu    sync.Mutex
	lines []string
}

func (r *recordedProgress) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

func (r *recordedProgress) ApplyStart(addr string, act action.Action, idKey, idValue string) {
	r.add("start %s %v %s=%s", addr, act, idKey, idValue)
}
func (r *recordedProgress) ApplyProgress(addr string, act action.Action, idKey, idValue string, elapsed time.Duration) {
	if elapsed <= 0 {
		r.add("progress %s with elapsed %v", addr, elapsed)
		return
	}
	r.add("progress %s %v %s=%s", addr, act, idKey, idValue)
}
func (r *recordedProgress) ApplyComplete(addr string, act action.Action, idKey, idValue string, elapsed time.Duration) {
	r.add("complete %s %v", addr, act)
}
func (r *recordedProgress) ApplyErrored(addr string, act action.Action, elapsed time.Duration) {
	r.add("errored %s %v", addr, act)
}
func (r *recordedProgress) RefreshStart(addr, idKey, idValue string)    {}
func (r *recordedProgress) RefreshComplete(addr, idKey, idValue string) {}

func (r *recordedProgress) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

// An operation that runs longer than the progress interval is reported as
// still running until it completes, and never after.
func TestStillRunningLines(t *testing.T) {
	addr, diags := addrs.ParseAbsResourceInstanceStr("time_sleep.wait")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tests := []struct {
		name    string
		act     action.Action
		deposed state.DeposedKey
		idKey   string
		idValue string
		failed  bool
		shown   string // the address the lines name
		want    string // the progress line; "" when none is expected
		end     string
	}{
		{"create", action.Create, state.NotDeposed, "", "", false, "time_sleep.wait", "progress time_sleep.wait Create =", "complete time_sleep.wait Create"},
		{"failed update", action.Update, state.NotDeposed, "id", "x", true, "time_sleep.wait", "progress time_sleep.wait Update id=x", "errored time_sleep.wait Update"},
		{"deposed delete", action.Delete, "00000001", "id", "y", false, "time_sleep.wait", "progress time_sleep.wait Delete id=y", "complete time_sleep.wait Delete"},
		{"forget", action.Forget, state.NotDeposed, "", "", false, "time_sleep.wait", "", "complete time_sleep.wait Forget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordedProgress{}
			h := &hookAdapter{p: rec, progressEvery: 2 * time.Millisecond}
			h.PreApply(addr, tt.deposed, tt.act, tt.idKey, tt.idValue)
			if tt.want != "" {
				waitForLines(t, rec.snapshot, 2) // the start line and a progress line
			} else {
				time.Sleep(30 * time.Millisecond)
			}
			h.PostApply(addr, tt.deposed, tt.act, tt.idKey, tt.idValue, 30*time.Millisecond, tt.failed)
			time.Sleep(10 * time.Millisecond) // a report after the end would show here
			got := rec.snapshot()

			start := fmt.Sprintf("start %s %v %s=%s", tt.shown, tt.act, tt.idKey, tt.idValue)
			if got[0] != start || got[len(got)-1] != tt.end {
				t.Fatalf("lines do not start with %q and end with %q:\n%s", start, tt.end, cmp.Diff([]string(nil), got))
			}
			middle := got[1 : len(got)-1]
			if tt.want == "" {
				if len(middle) != 0 {
					t.Errorf("no progress lines expected, got %q", middle)
				}
				return
			}
			for _, l := range middle {
				if l != tt.want {
					t.Errorf("progress line %q, want %q", l, tt.want)
				}
			}
		})
	}
}

// The human view names a deposed object in its still-running lines, as in
// its start line.
func TestStillRunningLinesNameDeposedObjects(t *testing.T) {
	addr, diags := addrs.ParseAbsResourceInstanceStr("time_sleep.wait")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var buf syncBuffer
	h := &hookAdapter{p: human.NewHumanHooks(&buf, false), progressEvery: 2 * time.Millisecond}
	h.PreApply(addr, "00000001", action.Delete, "id", "y")
	waitForLines(t, func() []string { return strings.SplitAfter(buf.String(), "\n") }, 3)
	h.PostApply(addr, "00000001", action.Delete, "", "", time.Second, false)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []string{"time_sleep.wait (deposed object 00000001): Destroying... [id=y]", "time_sleep.wait (deposed object 00000001): Still destroying... [id=y, 0s elapsed]"}
	if len(lines) < 3 || lines[0] != want[0] || lines[1] != want[1] || lines[len(lines)-1] != "time_sleep.wait: Destruction complete after 1s" {
		t.Errorf("got:\n%s", buf.String())
	}
}

// waitForLines waits until lines gives at least n lines, for a slow or
// loaded machine, failing after a generous limit.
func waitForLines(t *testing.T, lines func() []string, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(lines()) < n; {
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d lines after 10s: %q", n, lines())
		}
		time.Sleep(time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer safe to read while the view writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
