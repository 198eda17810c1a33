package engine_test

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/providers/builtin"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
)

// The shapes of issue 6, generated in memory. Each returns main.tf for n
// and the number of resource instances it makes.
var benchShapes = []struct {
	name      string
	generate  func(n int) string
	instances func(n int) int
	sizes     []int
}{
	{"flat", flatConfig, func(n int) int { return n }, []int{1000, 10000, 100000}},
	{"pairs", pairsConfig, func(n int) int { return 2 * n }, []int{1000, 10000, 100000}},
	{"fan", fanConfig, func(n int) int { return n + 2 }, []int{1000, 10000, 100000}},
	// The issue asks chain and pairs to keep their per-instance cost to
	// 10k; a 100k-block chain is left out (100k graph nodes, one Rego
	// evaluation each).
	{"chain", chainConfig, func(n int) int { return n }, []int{1000, 10000}},
}

func flatConfig(n int) string {
	return fmt.Sprintf("resource \"terraform_data\" \"r\" {\n  count = %d\n  input = \"x-${count.index}\"\n}\n", n)
}

func pairsConfig(n int) string {
	return fmt.Sprintf(`resource "terraform_data" "a" {
  count = %d
  input = "x-${count.index}"
}

resource "terraform_data" "b" {
  count = %d
  input = terraform_data.a[count.index].output
}
`, n, n)
}

func fanConfig(n int) string {
	return fmt.Sprintf(`resource "terraform_data" "hub" {
  input = "hub"
}

resource "terraform_data" "b" {
  count = %d
  input = "${terraform_data.hub.output}-${count.index}"
}

resource "terraform_data" "sink" {
  input = terraform_data.b[*].output
}
`, n)
}

func chainConfig(n int) string {
	var sb strings.Builder
	sb.WriteString("resource \"terraform_data\" \"r0\" {\n  input = \"x\"\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&sb, "\nresource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, i-1)
	}
	return sb.String()
}

// benchFixture is a loaded configuration with an engine to run it.
type benchFixture struct {
	eng *engine.Engine
	cfg *config.Config
}

func newBenchFixture(tb testing.TB, src string) *benchFixture {
	tb.Helper()
	fsys := fstest.MapFS{"main.tf": &fstest.MapFile{Data: []byte(src)}}
	cfg, diags := config.Load(fsys, ".")
	if diags.HasErrors() {
		tb.Fatalf("loading configuration: %s", diags.Error())
	}
	r, diags := rules.New(context.Background(), rules.Options{})
	if diags.HasErrors() {
		tb.Fatalf("loading rules: %s", diags.Error())
	}
	if err := r.Wait(context.Background()); err != nil { // time planning, not compiling
		tb.Fatal(err)
	}
	return &benchFixture{
		eng: &engine.Engine{Providers: builtin.Registry(), Rules: r, FS: fsys, WorkingDir: tb.TempDir(), Version: "0.0.0-bench"},
		cfg: cfg,
	}
}

func (f *benchFixture) plan(tb testing.TB, prev *state.State) *plan.Plan {
	tb.Helper()
	p, diags := f.eng.Plan(context.Background(), f.cfg, prev, engine.PlanOpts{})
	if diags.HasErrors() {
		tb.Fatalf("plan: %s", diags.Error())
	}
	return p
}

func (f *benchFixture) apply(tb testing.TB, p *plan.Plan) *state.State {
	tb.Helper()
	s, diags := f.eng.Apply(context.Background(), f.cfg, p, engine.ApplyOpts{}, nil)
	if diags.HasErrors() {
		tb.Fatalf("apply: %s", diags.Error())
	}
	return s
}

// benchCases runs body for every shape and size, skipping 100k in -short.
func benchCases(b *testing.B, body func(b *testing.B, f *benchFixture, instances int)) {
	for _, sh := range benchShapes {
		for _, n := range sh.sizes {
			b.Run(fmt.Sprintf("%s-%d", sh.name, n), func(b *testing.B) {
				if n >= 100000 && testing.Short() {
					b.Skip("100k cases are skipped in -short mode")
				}
				f := newBenchFixture(b, sh.generate(n))
				body(b, f, sh.instances(n))
			})
		}
	}
}

// cpuClock reads the process's user+system CPU time. Shared machines make
// wall time noisy; CPU time per instance is the steadier figure.
func cpuClock() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// perInstance reports wall and CPU time per instance of the timed loop;
// start is cpuClock() taken when the timer (re)started.
type perInstance struct {
	cpu       time.Duration
	cpuStart  time.Duration
	instances int
}

func startPerInstance(instances int) *perInstance {
	return &perInstance{instances: instances, cpuStart: cpuClock()}
}

func (p *perInstance) pause()  { p.cpu += cpuClock() - p.cpuStart }
func (p *perInstance) resume() { p.cpuStart = cpuClock() }

func (p *perInstance) report(b *testing.B) {
	p.pause()
	n := float64(b.N) * float64(p.instances)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/instance")
	b.ReportMetric(float64(p.cpu.Nanoseconds())/n, "cpu-ns/instance")
}

// BenchmarkPlan plans each shape from an empty state.
func BenchmarkPlan(b *testing.B) {
	benchCases(b, func(b *testing.B, f *benchFixture, instances int) {
		b.ReportAllocs()
		pi := startPerInstance(instances)
		for b.Loop() {
			f.plan(b, nil)
		}
		pi.report(b)
	})
}

// BenchmarkApply applies a plan made from an empty state (the planning
// is not timed).
func BenchmarkApply(b *testing.B) {
	benchCases(b, func(b *testing.B, f *benchFixture, instances int) {
		b.ReportAllocs()
		b.ResetTimer()
		pi := startPerInstance(instances)
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			pi.pause()
			p := f.plan(b, nil)
			pi.resume()
			b.StartTimer()
			f.apply(b, p)
		}
		pi.report(b)
	})
}

// BenchmarkNoChangePlan plans against the state an apply left: every
// instance is refreshed, evaluated, planned and decided as a no-op.
func BenchmarkNoChangePlan(b *testing.B) {
	benchCases(b, func(b *testing.B, f *benchFixture, instances int) {
		s := f.apply(b, f.plan(b, nil))
		b.ReportAllocs()
		b.ResetTimer()
		pi := startPerInstance(instances)
		for b.Loop() {
			if p := f.plan(b, s); p.HasChanges() {
				b.Fatal("the plan after apply has changes")
			}
		}
		pi.report(b)
	})
}

// TestBenchShapesConverge checks what the benchmarks rely on: each shape
// plans, applies, and then plans no changes.
func TestBenchShapesConverge(t *testing.T) {
	for _, sh := range benchShapes {
		t.Run(sh.name, func(t *testing.T) {
			const n = 25
			f := newBenchFixture(t, sh.generate(n))
			p := f.plan(t, nil)
			creates := 0
			for _, c := range p.Changes {
				if c.Action == action.Create {
					creates++
				}
			}
			if creates != sh.instances(n) {
				t.Fatalf("first plan creates %d instances, want %d", creates, sh.instances(n))
			}
			s := f.apply(t, p)
			if p2 := f.plan(t, s); p2.HasChanges() {
				var changed []string
				for _, c := range p2.Changes {
					if c.Action != action.NoOp {
						changed = append(changed, c.Addr.String()+" "+c.Action.String())
					}
				}
				t.Fatalf("plan after apply has changes: %v", changed)
			}
		})
	}
}
