package rules

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// benchInstances builds n terraform_data-like instances with a few string
// attributes: mostly unchanged, some updates, some creates, some orphans.
func benchInstances(n int) []Instance {
	batch := make([]Instance, n)
	for i := range batch {
		addr := fmt.Sprintf("terraform_data.a[%d]", i)
		obj := cty.ObjectVal(map[string]cty.Value{
			"id":               cty.StringVal(fmt.Sprintf("id-%d", i)),
			"input":            cty.StringVal("value"),
			"output":           cty.StringVal("value"),
			"triggers_replace": cty.NullVal(cty.String),
		})
		in := Instance{
			Address: addr, Resource: "terraform_data.a", Mode: "managed", Type: "terraform_data", Name: "a", Key: i,
			HasConfig: true, Config: obj, ConfigKnown: true,
			HasPrior: true, Prior: obj, HasPlanned: true, Planned: obj, PlannedEqualsPrior: true,
			Orphan: Orphan{Repetition: "count"},
		}
		switch i % 10 {
		case 1:
			in.PlannedEqualsPrior = false
		case 2:
			in.HasPrior = false
			in.Prior = cty.NullVal(obj.Type())
		case 3:
			in.HasConfig = false
			in.Config = cty.NilVal
			in.Orphan = Orphan{ResourceInConfig: true, ModuleDeclared: true, Repetition: "count"}
		}
		batch[i] = in
	}
	return batch
}

func benchmarkDecide(b *testing.B, n int, team map[string]string) {
	e := newTestEngine(b, team)
	batch := benchInstances(n)
	run := Run{Mode: ModeNormal, Timestamp: time.Unix(0, 0)}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := e.Decide(ctx, run, batch); err != nil {
			b.Fatal(err)
		}
	}
	// Wall time per instance, and process CPU time per instance: the latter
	// stays meaningful when other work shares the machine.
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/instance")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/instance")
}

func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkDecide(b, n, nil) })
	}
}

// replaceChangedInput is the team rule the benchmarks run: it replaces
// every terraform_data whose input changed.
const replaceChangedInput = `package tenet.decide

force_replace contains [i, "input changed"] if {
	some i, inst in input.instances
	inst.type == "terraform_data"
	inst.config.values.input != inst.prior.values.input
}
`

// BenchmarkDecideWithTeamRules measures the cost of team extension points:
// values are presented to the rules, which iterate over the chunk.
func BenchmarkDecideWithTeamRules(b *testing.B) {
	team := map[string]string{"replace.rego": replaceChangedInput}
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkDecide(b, n, team) })
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDecideSingle measures the chain shape: the engine walks resources
// in dependency order and decides one instance per call. Instances cycle
// through no-op, update and create; "evaluated" turns the memo off.
func BenchmarkDecideSingle(b *testing.B) {
	team := map[string]string{"replace.rego": replaceChangedInput}
	for _, tc := range []struct {
		name string
		memo bool
		team map[string]string
	}{{"memo", true, nil}, {"evaluated", false, nil}, {"team", true, team}} {
		b.Run(tc.name, func(b *testing.B) {
			e := newTestEngine(b, tc.team)
			e.memo.enabled = tc.memo
			batch := benchInstances(3)
			run := Run{Mode: ModeNormal, Timestamp: time.Unix(0, 0)}
			ctx := context.Background()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := e.Decide(ctx, run, batch[i%3:i%3+1]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkDecideEvaluated evaluates the decision table for whole chunks,
// the memo off: what a batch of distinct instances costs the rules.
func BenchmarkDecideEvaluated(b *testing.B) {
	for _, n := range []int{1, 100, 500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := newTestEngine(b, nil)
			e.memo.enabled = false
			batch := benchInstances(n)
			run := Run{Mode: ModeNormal, Timestamp: time.Unix(0, 0)}
			ctx := context.Background()
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := e.Decide(ctx, run, batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/instance")
		})
	}
}

// BenchmarkCompileDecide measures the fixed cost of a run: parsing and
// compiling the default decide rules and preparing their query.
func BenchmarkCompileDecide(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, err := compileDefaultFiles("decide")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := prepareQuery(ctx, c, defaultStages[0].query); err != nil {
			b.Fatal(err)
		}
	}
}
