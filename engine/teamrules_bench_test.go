package engine_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/providers/builtin"
	"github.com/tenetplan/tenet/rules"
)

// lifecycleConfig makes 2n instances: n plain ones, and n with lifecycle
// arguments (create_before_destroy, prevent_destroy, ignore_changes).
func lifecycleConfig(n int) string {
	return fmt.Sprintf(`variable "env" {
  default = "prod"
}

resource "terraform_data" "plain" {
  count = %d
  input = { name = "p-${count.index}", tags = { team = "a", "ext/gen" = "1" } }
}

resource "terraform_data" "guarded" {
  count            = %d
  input            = { name = "g-${count.index}", doc = "{\"a\": 1}" }
  triggers_replace = "v1"
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = true
    ignore_changes        = [triggers_replace]
  }
}
`, n, n)
}

// benchTeamRules uses every extension point the way a team would: each
// rule reads values and iterates over the chunk's instances once.
var benchTeamRules = map[string]string{
	"replace.rego": `package tenet.decide

force_replace contains [i, "name changed"] if {
	some i, inst in input.instances
	inst.prior.values.input.name != inst.config.values.input.name
}

prevent_destroy contains [i, "production"] if {
	input.run.variables.env == "prod"
	some i, inst in input.instances
	startswith(inst.name, "guarded")
}
`,
	"prepare.rego": `package tenet.prepare

ignore_paths contains [i, ["input", "tags", k]] if {
	some i, inst in input.instances
	some k, _ in object.get(inst.config.values.input, "tags", {})
	startswith(k, "ext/")
}

equivalent contains [i, ["input", "doc"]] if {
	some i, inst in input.instances
	doc := inst.config.values.input.doc
	doc != inst.prior.values.input.doc
	json.unmarshal(doc) == json.unmarshal(inst.prior.values.input.doc)
}
`,
	"cbd.rego": `package tenet.cbd

force_create_before_destroy contains r.address if {
	some r in input.resources
	startswith(r.address, "terraform_data.plain")
}
`,
}

func newTeamFixture(tb testing.TB, src string, team map[string]string) *benchFixture {
	tb.Helper()
	fsys := fstest.MapFS{"main.tf": &fstest.MapFile{Data: []byte(src)}}
	cfg, diags := config.Load(fsys, ".")
	if diags.HasErrors() {
		tb.Fatalf("loading configuration: %s", diags.Error())
	}
	var opts rules.Options
	if team != nil {
		teamFS := fstest.MapFS{}
		for name, src := range team {
			teamFS[name] = &fstest.MapFile{Data: []byte(src)}
		}
		opts.Team = []rules.Source{{Name: ".tenet/rules", FS: teamFS}}
	}
	r, diags := rules.New(context.Background(), opts)
	if diags.HasErrors() {
		tb.Fatalf("loading rules: %s", diags.Error())
	}
	return &benchFixture{
		eng: &engine.Engine{Providers: builtin.Registry(), Rules: r, FS: fsys, WorkingDir: tb.TempDir(), Version: "0.0.0-bench"},
		cfg: cfg,
	}
}

// benchmarkTeamRules plans without changes against an applied state of
// 10k instances (half with lifecycle arguments): every instance is
// refreshed, prepared, planned and decided.
func benchmarkTeamRules(b *testing.B, team map[string]string) {
	const n = 5000
	f := newTeamFixture(b, lifecycleConfig(n), team)
	s := f.apply(b, f.plan(b, nil))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if p := f.plan(b, s); p.HasChanges() {
			b.Fatal("the plan after apply has changes")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/instance")
}

// BenchmarkTeamRulesOverhead compares the same plan without and with team
// rules loaded (issue 3: within 1.5x per instance).
func BenchmarkTeamRulesOverhead(b *testing.B) {
	b.Run("without", func(b *testing.B) { benchmarkTeamRules(b, nil) })
	b.Run("with", func(b *testing.B) { benchmarkTeamRules(b, benchTeamRules) })
}

// TestTeamRulesOverhead measures the ratio on the benchmark's plan, taking
// the fastest of several interleaved runs of each variant (other work on
// the machine only ever slows a run down). It is a timing test, so it runs
// only when TENET_BENCH_RATIO is set.
func TestTeamRulesOverhead(t *testing.T) {
	if os.Getenv("TENET_BENCH_RATIO") == "" {
		t.Skip("set TENET_BENCH_RATIO=1 to measure the cost of team rules")
	}
	const n = 5000
	without := newTeamFixture(t, lifecycleConfig(n), nil)
	with := newTeamFixture(t, lifecycleConfig(n), benchTeamRules)
	s := without.apply(t, without.plan(t, nil))
	best := [2]time.Duration{time.Hour, time.Hour}
	for range 4 {
		for i, f := range []*benchFixture{without, with} {
			start := time.Now()
			if p := f.plan(t, s); p.HasChanges() {
				t.Fatal("the plan after apply has changes")
			}
			best[i] = min(best[i], time.Since(start))
		}
	}
	ratio := float64(best[1]) / float64(best[0])
	t.Logf("10k instances, no-change plan: without team rules %v (%v/instance), with %v (%v/instance): ratio %.2f",
		best[0], best[0]/(2*n), best[1], best[1]/(2*n), ratio)
	if ratio > 1.5 {
		t.Errorf("team rules cost %.2fx the plan without them, want at most 1.5x", ratio)
	}
}

// TestTeamRulesBenchConverges checks what the benchmark relies on: with the
// team rules, the configuration plans, applies and then plans no changes,
// and the rules do fire (a name change replaces).
func TestTeamRulesBenchConverges(t *testing.T) {
	f := newTeamFixture(t, lifecycleConfig(5), benchTeamRules)
	s := f.apply(t, f.plan(t, nil))
	p := f.plan(t, s)
	if p.HasChanges() {
		t.Fatal("the plan after apply has changes")
	}
	if got := len(p.Changes); got != 10 {
		t.Fatalf("plan has %d changes, want 10 no-ops", got)
	}
}
