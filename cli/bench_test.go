package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCLI runs whole commands in-process, the way scripts/perf.sh
// runs the binary, so that a profile (-cpuprofile) shows everything a user
// waits for: rule compilation, configuration and state loading, planning,
// rendering and writing. The engine's own benchmarks leave those out.
//
//	go test ./cli -run XXX -bench 'CLI/flat-5000/noop' -cpuprofile cpu.out
//
// The "-x" variants add the team rules of examples/rules and the policies
// of examples/policies, as scripts/perf.sh -x does. flat-100000 guards the
// 100k targets (apply within 5 s, no-change plan within 3 s on the 2-core
// machine docs/performance.md describes); -short skips it.
func BenchmarkCLI(b *testing.B) {
	for _, n := range []int{1000, 5000, 100000} {
		src := fmt.Sprintf("resource \"terraform_data\" \"r\" {\n  count = %d\n  input = \"x-${count.index}\"\n}\n", n)
		for _, extras := range []bool{false, true} {
			name := fmt.Sprintf("flat-%d", n)
			if extras {
				name += "-x"
			}
			b.Run(name, func(b *testing.B) {
				if n > 10000 && testing.Short() {
					b.Skip("100k instances take seconds per operation")
				}
				b.Run("plan", func(b *testing.B) {
					dir := benchDir(b, src, extras)
					defer reportCPU(b)()
					for b.Loop() {
						benchRun(b, dir, "plan")
					}
				})
				b.Run("apply", func(b *testing.B) {
					dir := benchDir(b, src, extras)
					defer reportCPU(b)()
					for b.Loop() {
						b.StopTimer()
						os.Remove(filepath.Join(dir, "terraform.tfstate"))
						b.StartTimer()
						benchRun(b, dir, "apply", "-auto-approve")
					}
				})
				b.Run("noop", func(b *testing.B) {
					dir := benchDir(b, src, extras)
					benchRun(b, dir, "apply", "-auto-approve")
					defer reportCPU(b)()
					for b.Loop() {
						benchRun(b, dir, "plan", "-detailed-exitcode")
					}
				})
			})
		}
	}
}

// reportCPU starts counting the process's CPU time; the returned function
// reports it per operation (including what the timer was stopped for,
// which here is only removing a file).
func reportCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		if used := processCPU() - start; used > 0 && b.N > 0 {
			b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// benchDir makes a working directory with main.tf, and with extras the
// example team rules and policies.
func benchDir(b *testing.B, src string, extras bool) string {
	b.Helper()
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	if extras {
		for from, to := range map[string]string{"../examples/rules": ".tenet/rules", "../examples/policies": ".tenet/policy"} {
			files, err := filepath.Glob(filepath.Join(from, "*"))
			if err != nil {
				b.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, to), 0o755); err != nil {
				b.Fatal(err)
			}
			for _, f := range files {
				if strings.HasSuffix(f, "_test.rego") {
					continue
				}
				data, err := os.ReadFile(f)
				if err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, to, filepath.Base(f)), data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	benchRun(b, dir, "init")
	return dir
}

func benchRun(b *testing.B, dir string, args ...string) {
	b.Helper()
	var stderr strings.Builder
	full := append([]string{"-chdir=" + dir}, args...)
	if code := Main(full, strings.NewReader(""), io.Discard, &stderr, os.Environ()); code != 0 {
		b.Fatalf("tenet %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
}
