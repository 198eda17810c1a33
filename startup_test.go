package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Start-up and the smallest plan are fixed costs every command pays, so
// they are measured on the built binary, as a user runs it, against two
// references built next to it: a Go program that only links OPA's rego
// package (internal/cmd/startupref; linking OPA is a cost tenet cannot
// avoid) and an empty Go program (what the machine charges for starting
// any process). docs/performance.md quotes these.
//
//	go test . -run XXX -bench Startup -benchtime 30x
//
// Each sub-benchmark reports ns/op (wall) and cpu-ns/op (the child's user
// and system time, the steadier figure on a shared machine).
func BenchmarkStartup(b *testing.B) {
	bins := referenceBinaries(b)
	tenet := tenetBinary(b)
	one := oneResourceDir(b, tenet)
	for _, bc := range []struct {
		name string
		dir  string
		argv []string
	}{
		{"empty-go", "", []string{bins.empty}},
		{"opa-reference", "", []string{bins.opa}},
		{"tenet-version", "", []string{tenet, "version"}},
		{"tenet-noop-plan-1", one, []string{tenet, "plan", "-detailed-exitcode", "-no-color"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				cpu += runOnce(b, bc.dir, bc.argv)
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestStartupNearOPAReference fails when `tenet version` costs much more
// than the OPA-only program: something tenet runs before main (a table
// built eagerly, a dependency with a heavy init) would show here. It
// compares CPU time (user + system), medians of interleaved runs, with a
// bound generous enough not to fail on a loaded machine: 3x the reference
// plus 20 ms. The benchmark above gives the real ratio.
func TestStartupNearOPAReference(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	bins := referenceBinaries(t)
	tenet := tenetBinary(t)
	const runs = 15
	var ref, own []time.Duration
	for range runs {
		ref = append(ref, runOnce(t, "", []string{bins.opa}))
		own = append(own, runOnce(t, "", []string{tenet, "version"}))
	}
	refMedian, ownMedian := median(ref), median(own)
	t.Logf("CPU medians of %d runs: tenet version %v, OPA-only program %v", runs, ownMedian, refMedian)
	if limit := 3*refMedian + 20*time.Millisecond; ownMedian > limit {
		t.Errorf("tenet version takes %v of CPU to start, more than %v (3x the OPA-only program's %v + 20 ms): look at GODEBUG=inittrace=1 for what runs before main", ownMedian, limit, refMedian)
	}
}

// TestNoCollectionBeforeMain fails when the collector runs during
// start-up: the dependencies' init functions allocate past the runtime's
// initial heap goal, and a collection then (scanning the binary's large
// data segments) costs milliseconds of CPU on every command. Package
// internal/gcstart turns the collector off before those inits; cli.Main
// keeps it off for a short run, so `tenet version` collects nothing.
func TestNoCollectionBeforeMain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	cmd := exec.Command(tenetBinary(t), "version")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GODEBUG=gctrace=1", "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tenet version: %v\n%s", err, stderr.String())
	}
	for line := range strings.Lines(stderr.String()) {
		if strings.HasPrefix(line, "gc ") {
			t.Errorf("a collection ran during `tenet version` (GODEBUG=gctrace=1):\n%s", line)
		}
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// runOnce runs argv in dir and returns the child's CPU time.
func runOnce(tb testing.TB, dir string, argv []string) time.Duration {
	tb.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("%v: %v\n%s", argv, err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// oneResourceDir is a working directory with one applied terraform_data
// resource, for timing the smallest no-change plan.
func oneResourceDir(tb testing.TB, tenet string) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"terraform_data\" \"r\" {\n  input = \"x\"\n}\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	runOnce(tb, dir, []string{tenet, "init"})
	runOnce(tb, dir, []string{tenet, "apply", "-auto-approve"})
	return dir
}

type startupBinaries struct{ opa, empty string }

var startupRefBuild tempBuild

// referenceBinaries builds the OPA-only program (with this module's
// go.mod, so the same OPA version) and an empty program, once per test
// process.
func referenceBinaries(tb testing.TB) startupBinaries {
	tb.Helper()
	dir := startupRefBuild.do(tb, "tenet-startup-ref", "building the start-up references", func(dir string) ([]byte, error) {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "opa-only"), "./internal/cmd/startupref").CombinedOutput(); err != nil {
			return out, err
		}
		src := filepath.Join(dir, "empty.go")
		if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
			return nil, err
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "empty"), src)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GO111MODULE=off")
		return cmd.CombinedOutput()
	})
	return startupBinaries{opa: filepath.Join(dir, "opa-only"), empty: filepath.Join(dir, "empty")}
}
