package localexec

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/provisioners"
)

// config builds a local-exec configuration value: the given attributes,
// the others null.
func config(attrs map[string]cty.Value) cty.Value {
	full := map[string]cty.Value{}
	for name, a := range schema.Attributes {
		full[name] = cty.NullVal(a.Type)
	}
	for k, v := range attrs {
		full[k] = v
	}
	return cty.ObjectVal(full)
}

type lines struct {
	mu  sync.Mutex
	got []string
}

func (l *lines) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, s)
}

func TestProvision(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name      string
		attrs     map[string]cty.Value
		want      []string
		wantError string // detail of the one error, if any
	}{
		{
			name:  "shell, both streams, blank lines kept",
			attrs: map[string]cty.Value{"command": cty.StringVal("echo one; echo; echo two >&2; printf tail")},
			want:  []string{`Executing: ["/bin/sh" "-c" "echo one; echo; echo two >&2; printf tail"]`, "one", "", "two", "tail"},
		},
		{
			name: "interpreter, environment and working_dir",
			attrs: map[string]cty.Value{
				"command":     cty.StringVal(`echo "$GREETING"; pwd`),
				"interpreter": cty.ListVal([]cty.Value{cty.StringVal("/bin/sh"), cty.StringVal("-c")}),
				"environment": cty.MapVal(map[string]cty.Value{"GREETING": cty.StringVal("hi there")}),
				"working_dir": cty.StringVal(dir),
			},
			want: []string{`Executing: ["/bin/sh" "-c" "echo \"$GREETING\"; pwd"]`, "hi there", dir},
		},
		{
			name:  "quiet hides the command, not its output",
			attrs: map[string]cty.Value{"command": cty.StringVal("echo out"), "quiet": cty.True},
			want:  []string{"local-exec: Executing: Suppressed by quiet=true", "out"},
		},
		{
			name:      "failure quotes the output",
			attrs:     map[string]cty.Value{"command": cty.StringVal("echo failing; exit 3")},
			want:      []string{`Executing: ["/bin/sh" "-c" "echo failing; exit 3"]`, "failing"},
			wantError: "Error running command 'echo failing; exit 3': exit status 3. Output: failing\n",
		},
		{
			name:      "empty command",
			attrs:     map[string]cty.Value{"command": cty.StringVal("")},
			wantError: "The command must be a non-empty string.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out lines
			resp := Provisioner{}.Provision(context.Background(), provisioners.ProvisionRequest{Config: config(tt.attrs), Output: out.add})
			if diff := cmp.Diff(tt.want, out.got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			var errs []string
			for _, d := range resp.Diagnostics {
				errs = append(errs, d.Detail)
			}
			var wantErrs []string
			if tt.wantError != "" {
				wantErrs = []string{tt.wantError}
			}
			if diff := cmp.Diff(wantErrs, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// A cancelled context (an interrupt) stops the command and fails the run.
func TestProvisionCancelled(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "finished")
	ctx, cancel := context.WithCancel(context.Background())
	var out lines
	done := make(chan provisioners.ProvisionResponse)
	go func() {
		done <- Provisioner{}.Provision(ctx, provisioners.ProvisionRequest{
			Config: config(map[string]cty.Value{"command": cty.StringVal("echo started; sleep 20; touch " + marker)}),
			Output: func(s string) {
				out.add(s)
				if s == "started" {
					cancel()
				}
			},
		})
	}()
	select {
	case resp := <-done:
		if len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Detail, "signal: killed. Output: started\n") {
			t.Errorf("diagnostics = %+v, want the killed command's error", resp.Diagnostics)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the command was not stopped")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran to its end")
	}
}

// A line without its newline is shown once the command pauses.
func TestPartialLine(t *testing.T) {
	var out lines
	start := time.Now()
	Provisioner{}.Provision(context.Background(), provisioners.ProvisionRequest{
		Config: config(map[string]cty.Value{"command": cty.StringVal("printf 'waiting...'; sleep 1; echo done")}),
		Output: func(s string) {
			out.add(s)
			if s == "waiting..." && time.Since(start) > 900*time.Millisecond {
				t.Errorf("the partial line came only after %s", time.Since(start))
			}
		},
	})
	if diff := cmp.Diff([]string{`Executing: ["/bin/sh" "-c" "printf 'waiting...'; sleep 1; echo done"]`, "waiting...", "done"}, out.got); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
