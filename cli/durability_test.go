package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"
)

// The durability tests run the real binary as a subprocess, because what
// they check is what survives the death of that process.

const durabilityFiles = 2000

// applyParallelism is the CLI's default -parallelism: at most this many
// operations can be in flight, done by the provider but not yet recorded,
// when the process dies.
const applyParallelism = 10

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// tenetBinary builds the tenet binary once per test run.
func tenetBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tenet-durability-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "tenet")
		out, err := exec.Command("go", "build", "-o", binPath, "..").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// workdir makes a working directory with count local_file resources.
func workdir(t *testing.T, count int) string {
	t.Helper()
	dir := t.TempDir()
	src := fmt.Sprintf(`
resource "local_file" "f" {
  count    = %d
  filename = "${path.module}/out/f${count.index}.txt"
  content  = "file ${count.index}\n"
}
`, count)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func tenetCmd(t *testing.T, dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(tenetBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE=/dev/null")
	return cmd
}

func runTenet(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd := tenetCmd(t, dir, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// applyAndKill starts an apply and kills it (SIGKILL) once `after`
// creations have been reported, or after `deadline` if that comes first.
// It returns how many creations the process reported.
func applyAndKill(t *testing.T, dir string, after int, deadline time.Duration) int {
	t.Helper()
	cmd, stdout := startApply(t, dir)
	timer := time.AfterFunc(deadline, func() { cmd.Process.Signal(syscall.SIGKILL) })
	defer timer.Stop()
	done := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "Creation complete") {
			done++
			if done == after {
				cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
	}
	go io.Copy(io.Discard, stdout)
	_ = cmd.Wait()
	return done
}

// startApply starts "apply -auto-approve" in dir and returns the process
// with its output, stdout and stderr together, to follow as it runs.
func startApply(t *testing.T, dir string) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := tenetCmd(t, dir, "apply", "-auto-approve")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// checkDurable checks the invariants after a crash and returns how many
// instances the recovered state holds.
func checkDurable(t *testing.T, dir string) int {
	t.Helper()
	statePath := filepath.Join(dir, "terraform.tfstate")
	for _, p := range []string{statePath, statePath + ".backup"} {
		src, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := statefile.Parse(src); err != nil {
			t.Fatalf("%s is corrupt after kill -9: %v", filepath.Base(p), err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
	f, err := local.Open(statePath, local.Options{}).Read()
	if err != nil {
		t.Fatalf("state cannot be recovered after kill -9: %v", err)
	}
	inState := map[string]bool{}
	if f != nil && f.State != nil {
		for _, ref := range f.State.AllResourceInstances() {
			inState[ref.Addr.String()] = true
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "out"))
	onDisk := map[string]bool{}
	for _, e := range entries {
		var i int
		if _, err := fmt.Sscanf(e.Name(), "f%d.txt", &i); err == nil {
			onDisk[fmt.Sprintf("local_file.f[%d]", i)] = true
		}
	}
	for addr := range inState {
		if !onDisk[addr] {
			t.Errorf("%s is in the state but its file does not exist", addr)
		}
	}
	var lost []string
	for addr := range onDisk {
		if !inState[addr] {
			lost = append(lost, addr)
		}
	}
	// A process crash loses nothing that was recorded: only operations
	// in flight (the provider finished, the record had not been written)
	// may be missing.
	if len(lost) > applyParallelism {
		t.Errorf("%d files exist but are missing from the recovered state (at most %d may be in flight): %v", len(lost), applyParallelism, lost)
	}
	return len(inState)
}

// plannedActions counts the actions of a saved plan by kind.
func plannedActions(t *testing.T, dir string) map[string]int {
	t.Helper()
	if out, err := runTenet(t, dir, "plan", "-out=durability.plan"); err != nil {
		t.Fatalf("plan after crash failed: %v\n%s", err, tail(out))
	}
	out, err := runTenet(t, dir, "show", "-json", "durability.plan")
	if err != nil {
		t.Fatalf("show failed: %v\n%s", err, tail(out))
	}
	var doc struct {
		ResourceChanges []struct {
			Change struct {
				Actions []string `json:"actions"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("show -json: %v", err)
	}
	counts := map[string]int{}
	for _, rc := range doc.ResourceChanges {
		counts[strings.Join(rc.Change.Actions, ",")]++
	}
	return counts
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

func TestKillDuringApplyLosesNothing(t *testing.T) {
	start := time.Now()
	dir := workdir(t, durabilityFiles)
	if out, err := runTenet(t, dir, "init"); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	rounds := 5
	if testing.Short() {
		rounds = 2
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	have := 0
	for round := 0; round < rounds && have < durabilityFiles; round++ {
		remaining := durabilityFiles - have
		after := 1 + rng.IntN(remaining)
		deadline := 30 * time.Second
		if round == rounds-1 {
			// Once at a random wall-clock moment, which may fall in the
			// plan, the apply or the final state write.
			after, deadline = -1, time.Duration(50+rng.IntN(1500))*time.Millisecond
		}
		reported := applyAndKill(t, dir, after, deadline)
		got := checkDurable(t, dir)
		t.Logf("round %d: killed after %d reported creations (target %d, deadline %v); state holds %d of %d", round, reported, after, deadline, got, durabilityFiles)
		if got < have {
			t.Fatalf("state shrank from %d to %d instances", have, got)
		}
		have = got
	}

	counts := plannedActions(t, dir)
	if want := durabilityFiles - have; counts["create"] != want {
		t.Errorf("plan after crashes: %d creates, want %d (the instances missing from the state)", counts["create"], want)
	}
	for kind, n := range counts {
		if kind != "create" && kind != "no-op" {
			t.Errorf("plan after crashes has %d %q changes, want only creates", n, kind)
		}
	}
	if out, err := runTenet(t, dir, "apply", "-auto-approve"); err != nil {
		t.Fatalf("apply after crashes: %v\n%s", err, tail(out))
	}
	if got := checkDurable(t, dir); got != durabilityFiles {
		t.Errorf("after the final apply the state holds %d instances, want %d", got, durabilityFiles)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.journal")); !os.IsNotExist(err) {
		t.Errorf("journal left after a successful apply (stat: %v)", err)
	}
	t.Logf("total %v", time.Since(start))
}

func TestConcurrentApplyWaitsForLock(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two 2,000-resource applies")
	}
	dir := workdir(t, durabilityFiles)
	if out, err := runTenet(t, dir, "init"); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	first, stdout := startApply(t, dir)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !strings.Contains(sc.Text(), "Creation complete") {
	}
	// The first apply holds the lock: a second one with a short timeout
	// gives up and names the holder.
	out, err := runTenet(t, dir, "apply", "-auto-approve", "-lock-timeout=200ms")
	if err == nil {
		t.Fatalf("second apply succeeded while the first held the lock:\n%s", tail(out))
	}
	for _, want := range []string{"Error acquiring the state lock", "ID:", "Operation:", "Who:"} {
		if !strings.Contains(out, want) {
			t.Errorf("lock failure output lacks %q:\n%s", want, tail(out))
		}
	}
	// One with a long timeout waits for the first and then finds nothing to do.
	waiter := tenetCmd(t, dir, "apply", "-auto-approve", "-lock-timeout=60s")
	var wout bytes.Buffer
	waiter.Stdout, waiter.Stderr = &wout, &wout
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stdout)
	if err := first.Wait(); err != nil {
		t.Fatalf("first apply failed: %v", err)
	}
	if err := waiter.Wait(); err != nil {
		t.Fatalf("waiting apply failed: %v\n%s", err, tail(wout.String()))
	}
	if !strings.Contains(wout.String(), "No changes") && !strings.Contains(wout.String(), "0 added") {
		t.Errorf("waiting apply should find nothing to do:\n%s", tail(wout.String()))
	}
	if got := checkDurable(t, dir); got != durabilityFiles {
		t.Errorf("state holds %d instances, want %d", got, durabilityFiles)
	}
}

func TestUnparsableStateIsNeverOverwritten(t *testing.T) {
	dir := workdir(t, 3)
	if out, err := runTenet(t, dir, "init"); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	statePath := filepath.Join(dir, "terraform.tfstate")
	garbage := []byte(`{"version": 4, "serial": 3, "lineage": "x", "resources": [ {`)
	if err := os.WriteFile(statePath, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"apply", "-auto-approve"}, {"plan"}, {"apply", "-auto-approve", "-lock=false"}} {
		out, err := runTenet(t, dir, args...)
		if err == nil {
			t.Errorf("%v succeeded on a corrupt state:\n%s", args, tail(out))
		}
		if !strings.Contains(out, "Failed to load state") {
			t.Errorf("%v output lacks the load error:\n%s", args, tail(out))
		}
		got, _ := os.ReadFile(statePath)
		if !bytes.Equal(got, garbage) {
			t.Fatalf("%v overwrote the unparsable state file", args)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "out")); len(entries) != 0 {
		t.Errorf("%d files were created although the state could not be read", len(entries))
	}
}

// TestApplyWithoutChangesSettlesRecoveredJournal: an interrupted apply may
// have journaled every operation before it died. The next apply then has
// nothing to do, and must still write the recovered state and drop the
// journal, so the state file holds everything by itself.
func TestApplyWithoutChangesSettlesRecoveredJournal(t *testing.T) {
	dir := t.TempDir()
	writeConfig := func(count int) {
		src := fmt.Sprintf("resource \"terraform_data\" \"r\" {\n  count = %d\n  input = \"x-${count.index}\"\n}\n", count)
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	statePath := filepath.Join(dir, "terraform.tfstate")
	writeConfig(2)
	if out, err := runTenet(t, dir, "apply", "-auto-approve"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	// Take r[1] out of the state file and into a journal, as if the apply
	// that created it had been killed before writing the state.
	mgr := local.Open(statePath, local.Options{})
	f, err := mgr.Read()
	if err != nil {
		t.Fatal(err)
	}
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Absolute(addrs.RootModuleInstance).Instance(addrs.IntKey(1))
	ri := f.State.ResourceInstance(addr)
	if ri == nil || ri.Current == nil {
		t.Fatal("r[1] is not in the state")
	}
	obj, provider := ri.Current, f.State.Resource(addr.ContainingResource()).ProviderConfig
	f.State.ForgetResourceInstanceAll(addr)
	if err := mgr.Write(f.State); err != nil {
		t.Fatal(err)
	}
	mgr = local.Open(statePath, local.Options{})
	if _, err := mgr.Read(); err != nil {
		t.Fatal(err)
	}
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Record(addr, state.NotDeposed, obj, provider); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	out, err := runTenet(t, dir, "apply", "-auto-approve")
	if err != nil {
		t.Fatalf("apply after the crash: %v\n%s", err, out)
	}
	if !strings.Contains(out, "No changes") {
		t.Errorf("apply after the crash should find nothing to do:\n%s", out)
	}
	if _, err := os.Stat(statePath + ".journal"); !os.IsNotExist(err) {
		t.Errorf("journal left after an apply without changes (stat: %v)", err)
	}
	if parsed := readStateFile(t, statePath); parsed.State.ResourceInstance(addr) == nil {
		t.Error("the state file lacks the recovered r[1]")
	}
}
