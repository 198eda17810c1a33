package cli_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// What OpenTofu 1.10.6 prints when an apply is interrupted (SIGINT) while
// a time_sleep is being created, recorded with the real hashicorp/time
// provider from interruptedApplyConfig: the human and the -json output
// after the slow resource's start. tenet must print the same, apart from
// the product name.
const interruptedApplyConfig = `resource "time_sleep" "s" {
  create_duration = "30s"
}
resource "terraform_data" "a" {
  input = "x"
}
`

// OpenTofu's stdout from the slow resource's start line on: no
// "Creation errored" line (the human view leaves errors to the
// diagnostics).
const interruptedHumanStdout = `time_sleep.s: Creating...

Interrupt received.
Please wait for OpenTofu to exit or data loss may occur.
Gracefully shutting down...

Stopping operation...
`

// OpenTofu's stderr: "execution halted" twice (the apply walk's and the
// operation's), then the provider's error.
const interruptedHumanStderr = `
Error: execution halted


Error: execution halted


Error: Create time sleep error

  with time_sleep.s,
  on main.tf line 1, in resource "time_sleep" "s":
   1: resource "time_sleep" "s" {

Original Error: context canceled
`

// OpenTofu's -json messages after the slow resource's apply_start, with
// the timestamps left out and elapsed seconds as <elapsed>.
var interruptedJSONMessages = []string{
	`{"@level":"info","@message":"\nInterrupt received.\nPlease wait for OpenTofu to exit or data loss may occur.\nGracefully shutting down...\n","@module":"tofu.ui","type":"log"}`,
	`{"@level":"info","@message":"Stopping operation...","@module":"tofu.ui","type":"log"}`,
	`{"@level":"info","@message":"time_sleep.s: Creation errored after 1s","@module":"tofu.ui","hook":{"resource":{"addr":"time_sleep.s","module":"","resource":"time_sleep.s","implied_provider":"time","resource_type":"time_sleep","resource_name":"s","resource_key":null},"action":"create","elapsed_seconds":1},"type":"apply_errored"}`,
	`{"@level":"error","@message":"Error: Create time sleep error","@module":"tofu.ui","diagnostic":{"severity":"error","summary":"Create time sleep error","detail":"Original Error: context canceled","address":"time_sleep.s","range":{"filename":"main.tf","start":{"line":1,"column":27,"byte":26},"end":{"line":1,"column":28,"byte":27}},"snippet":{"context":"resource \"time_sleep\" \"s\"","code":"resource \"time_sleep\" \"s\" {","start_line":1,"highlight_start_offset":26,"highlight_end_offset":27,"values":[]}},"type":"diagnostic"}`,
	`{"@level":"error","@message":"Error: execution halted","@module":"tofu.ui","diagnostic":{"severity":"error","summary":"execution halted","detail":""},"type":"diagnostic"}`,
	`{"@level":"error","@message":"Error: execution halted","@module":"tofu.ui","diagnostic":{"severity":"error","summary":"execution halted","detail":""},"type":"diagnostic"}`,
}

func TestInterruptedApplyOutputMatchesOpenTofu(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals the tenet binary")
	}
	t.Run("human", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), interruptedApplyConfig)
		r := startTenet(t, dir, false, "apply", "-auto-approve", "-no-color")
		r.waitFor(t, "time_sleep.s: Creating...")
		time.Sleep(500 * time.Millisecond)
		r.cmd.Process.Signal(syscall.SIGINT)
		if code := r.wait(t, 30*time.Second); code != 1 {
			t.Errorf("exit status %d, want 1", code)
		}
		stdout := r.stdout.String()
		_, tail, _ := strings.Cut(stdout, "time_sleep.s: Creating...\n")
		tail = "time_sleep.s: Creating...\n" + tail
		// The fast resource's lines, concurrent with the slow one, may
		// come anywhere.
		tail = regexp.MustCompile(`(?m)^terraform_data\.a: .*\n`).ReplaceAllString(tail, "")
		if diff := cmp.Diff(productName.Replace(interruptedHumanStdout), tail); diff != "" {
			t.Errorf("stdout after the slow start (-OpenTofu +tenet):\n%s", diff)
		}
		if diff := cmp.Diff(interruptedHumanStderr, r.stderr.String()); diff != "" {
			t.Errorf("stderr (-OpenTofu +tenet):\n%s", diff)
		}
	})
	t.Run("json", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), interruptedApplyConfig)
		r := startTenet(t, dir, false, "apply", "-auto-approve", "-json")
		r.waitFor(t, `"@message":"time_sleep.s: Creating..."`)
		time.Sleep(500 * time.Millisecond)
		r.cmd.Process.Signal(syscall.SIGINT)
		if code := r.wait(t, 30*time.Second); code != 1 {
			t.Errorf("exit status %d, want 1", code)
		}
		_, tail, _ := strings.Cut(r.stdout.String(), `"@message":"time_sleep.s: Creating..."`)
		_, tail, _ = strings.Cut(tail, "\n")
		got := normaliseJSONMessages(t, tail)
		want := normaliseJSONMessages(t, productName.Replace(strings.Join(interruptedJSONMessages, "\n")))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("-json messages after the slow start (-OpenTofu +tenet):\n%s\nstdout:\n%s", diff, r.stdout)
		}
	})
}

var elapsedSecondsPattern = regexp.MustCompile(`("elapsed_seconds":)[0-9]+|(errored after )[0-9hms.]+`)

// normaliseJSONMessages re-encodes each JSON line without its timestamp
// (keys sorted), elapsed times as <elapsed>.
func normaliseJSONMessages(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Errorf("not a JSON message: %q", line)
			continue
		}
		if msg, _ := m["@message"].(string); strings.HasPrefix(msg, "terraform_data.a: ") {
			continue // the fast resource, concurrent with the slow one
		}
		delete(m, "@timestamp")
		data, _ := json.Marshal(m)
		s := elapsedSecondsPattern.ReplaceAllStringFunc(string(data), func(x string) string {
			if strings.HasPrefix(x, `"elapsed_seconds"`) {
				return `"elapsed_seconds":"<elapsed>"`
			}
			return "errored after <elapsed>"
		})
		out = append(out, s)
	}
	return out
}
