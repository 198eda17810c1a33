package cli_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/cli"
)

// The interrupt tests run the real binary and send it real signals.

// slowApplyConfig has one instance that completes at once, one that takes
// far longer than any test waits, and one that depends on the slow one.
const slowApplyConfig = `
resource "time_sleep" "fast" {
  create_duration = "10ms"
}
resource "time_sleep" "slow" {
  create_duration = "5m"
}
resource "time_sleep" "after" {
  depends_on      = [time_sleep.slow]
  create_duration = "10ms"
}
`

// interruptRun is a tenet process under test.
type interruptRun struct {
	cmd            *exec.Cmd
	stdout, stderr *cli.SyncBuffer
	exited         chan struct{} // stdout closed
	done           chan struct{}
}

// startTenet starts tenet in dir. With ignoreInt, it is started the way a
// shell script starts a background job: with SIGINT ignored, which a
// process inherits across exec.
func startTenet(t *testing.T, dir string, ignoreInt bool, args ...string) *interruptRun {
	t.Helper()
	bin := tenetBinary(t)
	var cmd *exec.Cmd
	if ignoreInt {
		quoted := []string{bin}
		for _, a := range args {
			quoted = append(quoted, "'"+a+"'")
		}
		cmd = exec.Command("sh", "-c", `trap "" INT; exec `+strings.Join(quoted, " "))
	} else {
		cmd = exec.Command(bin, args...)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1")
	r := &interruptRun{cmd: cmd, stdout: &cli.SyncBuffer{}, stderr: &cli.SyncBuffer{}, exited: make(chan struct{}), done: make(chan struct{})}
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		io.Copy(r.stdout, pipe)
		close(r.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			cmd.Process.Kill()
		}
	})
	return r
}

// waitFor waits until stdout contains s.
func (r *interruptRun) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(r.stdout.String(), s) {
		select {
		case <-r.exited:
			t.Fatalf("tenet ended before printing %q\nstdout:\n%s\nstderr:\n%s", s, r.stdout, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q after 60s\nstdout:\n%s\nstderr:\n%s", s, r.stdout, r.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wait waits for the process to end (at most limit) and returns its
// exit status.
func (r *interruptRun) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		<-r.exited
		errc <- r.cmd.Wait()
		close(r.done)
	}()
	select {
	case err := <-errc:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		r.cmd.Process.Kill()
		t.Fatalf("tenet did not exit within %s of the interrupt\nstdout:\n%s\nstderr:\n%s", limit, r.stdout, r.stderr)
		return -1
	}
}

// stateInstances lists the instances in dir's state file, read as
// OpenTofu would read it: the file alone, no journal.
func stateInstances(t *testing.T, dir string) []string {
	t.Helper()
	f := readStateFile(t, filepath.Join(dir, "terraform.tfstate"))
	var out []string
	for _, ref := range f.State.AllResourceInstances() {
		out = append(out, ref.Addr.String())
	}
	sort.Strings(out)
	return out
}

// startSlowApply starts applying slowApplyConfig in a fresh directory and
// returns once the fast instance is created and the slow one is under
// way: the moment the interrupt tests signal.
func startSlowApply(t *testing.T, ignoreInt bool) (dir string, r *interruptRun) {
	t.Helper()
	dir = t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), slowApplyConfig)
	r = startTenet(t, dir, ignoreInt, "apply", "-auto-approve")
	r.waitFor(t, "time_sleep.fast: Creation complete")
	r.waitFor(t, "time_sleep.slow: Creating...")
	return dir, r
}

// checkInterruptedApplyState checks what an apply of slowApplyConfig
// interrupted during the slow sleep leaves: a state file holding only
// the fast instance, and neither the lock nor the journal.
func checkInterruptedApplyState(t *testing.T, dir string) {
	t.Helper()
	if diff := cmp.Diff([]string{"time_sleep.fast"}, stateInstances(t, dir)); diff != "" {
		t.Errorf("state instances (-want +got):\n%s", diff)
	}
	for _, name := range []string{".terraform.tfstate.lock.info", "terraform.tfstate.journal"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s left behind", name)
		}
	}
}

const interruptMessage = "\nInterrupt received.\nPlease wait for tenet to exit or data loss may occur.\nGracefully shutting down...\n"

// TestInterruptStopsApplyGracefully: the first SIGINT (or SIGTERM) stops
// the apply without waiting for the 5-minute sleep, keeps what completed
// in the state file, releases the lock and exits 1 with "execution
// halted" — also when the parent ignored SIGINT and stdin is no terminal.
func TestInterruptStopsApplyGracefully(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals the tenet binary")
	}
	for _, tc := range []struct {
		name      string
		ignoreInt bool
		sig       syscall.Signal
	}{
		{"sigint", false, syscall.SIGINT},
		{"sigint ignored by the parent", true, syscall.SIGINT},
		{"sigterm", false, syscall.SIGTERM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, r := startSlowApply(t, tc.ignoreInt)
			start := time.Now()
			r.cmd.Process.Signal(tc.sig)
			if code := r.wait(t, 30*time.Second); code != 1 {
				t.Errorf("exit status %d, want 1\nstderr:\n%s", code, r.stderr)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %s after the interrupt: the slow operation was waited for, not stopped", d)
			}
			if !strings.Contains(r.stdout.String(), interruptMessage+"\nStopping operation...\n") {
				t.Errorf("stdout lacks the interrupt message:\n%s", r.stdout)
			}
			stderr := r.stderr.String()
			for _, want := range []string{"Error: execution halted", "Error: Create time sleep error", "Original Error: context canceled"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if strings.Contains(r.stdout.String(), "Apply complete") {
				t.Errorf("an interrupted apply claims to be complete:\n%s", r.stdout)
			}
			checkInterruptedApplyState(t, dir)
		})
	}
}

// TestSecondInterruptExitsAtOnce: two interrupts in a row end the run at
// once, yet the state file (without the journal) holds what completed
// and the lock is gone.
func TestSecondInterruptExitsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals the tenet binary")
	}
	dir, r := startSlowApply(t, false)
	r.cmd.Process.Signal(syscall.SIGINT)
	r.cmd.Process.Signal(syscall.SIGINT)
	if code := r.wait(t, 15*time.Second); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	stderr := r.stderr.String()
	// The second signal may come after the graceful stop already ended
	// the run; when it does not, tenet says it exits at once.
	if strings.Contains(stderr, "Two interrupts received") && !strings.Contains(stderr, "Two interrupts received. Exiting immediately. Note that data loss may have\noccurred.") {
		t.Errorf("second interrupt message:\n%s", stderr)
	}
	checkInterruptedApplyState(t, dir)
}

// TestInterruptedPlanLeavesNothing: a plan interrupted while a data
// source is being read (from a FIFO no one writes yet) writes no plan
// file, no state, and releases the lock.
func TestInterruptedPlanLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals the tenet binary")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "input")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	writeFile(t, filepath.Join(dir, "main.tf"), `
data "local_file" "input" {
  filename = "${path.module}/input"
}
resource "terraform_data" "x" {
  input = data.local_file.input.content
}
`)
	r := startTenet(t, dir, false, "plan", "-out=saved.tfplan")
	lock := filepath.Join(dir, ".terraform.tfstate.lock.info")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(lock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("plan never took the lock\nstderr:\n%s", r.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // into the read of the FIFO
	r.cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(300 * time.Millisecond)
	// Let the read finish, if it started: the plan stops after it. If the
	// interrupt came first, no one reads and there is nothing to write.
	go feedFIFO(fifo, r.exited)
	if code := r.wait(t, 30*time.Second); code != 1 {
		t.Errorf("exit status %d, want 1\nstderr:\n%s", code, r.stderr)
	}
	if !strings.Contains(r.stdout.String(), interruptMessage) {
		t.Errorf("stdout lacks the interrupt message:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr.String(), "Error: execution halted") {
		t.Errorf("stderr lacks \"execution halted\":\n%s", r.stderr)
	}
	if strings.Contains(r.stdout.String(), "Plan:") {
		t.Errorf("an interrupted plan was shown:\n%s", r.stdout)
	}
	for _, name := range []string{"saved.tfplan", "terraform.tfstate", ".terraform.tfstate.lock.info"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("an interrupted plan left %s", name)
		}
	}
}

// feedFIFO writes a line to the FIFO once a reader has it open, giving up
// when done closes.
func feedFIFO(path string, done <-chan struct{}) {
	for {
		fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			syscall.Write(fd, []byte("data\n"))
			syscall.Close(fd)
			return
		}
		select {
		case <-done:
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}
