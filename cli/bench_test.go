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
func BenchmarkCLI(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		src := fmt.Sprintf("resource \"terraform_data\" \"r\" {\n  count = %d\n  input = \"x-${count.index}\"\n}\n", n)
		b.Run(fmt.Sprintf("flat-%d", n), func(b *testing.B) {
			b.Run("plan", func(b *testing.B) {
				dir := benchDir(b, src)
				for b.Loop() {
					benchRun(b, dir, "plan")
				}
			})
			b.Run("apply", func(b *testing.B) {
				dir := benchDir(b, src)
				for b.Loop() {
					b.StopTimer()
					os.Remove(filepath.Join(dir, "terraform.tfstate"))
					b.StartTimer()
					benchRun(b, dir, "apply", "-auto-approve")
				}
			})
			b.Run("noop", func(b *testing.B) {
				dir := benchDir(b, src)
				benchRun(b, dir, "apply", "-auto-approve")
				for b.Loop() {
					benchRun(b, dir, "plan", "-detailed-exitcode")
				}
			})
		})
	}
}

func benchDir(b *testing.B, src string) string {
	b.Helper()
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
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
