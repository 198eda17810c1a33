package rules

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// newLimitedEngine is newTestEngine with explicit bounds.
func newLimitedEngine(t *testing.T, src string, timeLimit time.Duration, memory uint64) *Engine {
	t.Helper()
	e, diags := New(context.Background(), Options{
		Team:      []Source{{Name: ".tenet/rules", FS: fstest.MapFS{"t.rego": {Data: []byte(src)}}}},
		TimeLimit: timeLimit, MemoryLimit: memory,
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return e
}

// TestTeamRulesTimeLimit: a rule that would run for minutes stops at the
// time limit with an error that names the limit and how to raise it.
func TestTeamRulesTimeLimit(t *testing.T) {
	e := newLimitedEngine(t, `package tenet.decide

prevent_destroy contains [i, "slow"] if {
	some i, _ in input.instances
	n := count([x |
		some a in numbers.range(1, 1000)
		some b in numbers.range(1, 1000)
		some c in numbers.range(1, 1000)
		x := a + b + c
	])
	n > 0
}
`, 300*time.Millisecond, 0)
	start := time.Now()
	err := evalStageOnce(context.Background(), e, "decide")
	var re *RuleError
	if !errors.As(err, &re) {
		t.Fatalf("error = %v, want a RuleError", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("evaluation took %s, want it stopped near the 300ms limit", took)
	}
	for _, want := range []string{"limit of 300ms", TimeLimitEnv} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// TestTeamRulesMemoryLimit: a rule that doubles a string, or one call
// that would build a huge value, is refused by the built-ins' bound; a
// rule that grows a collection step by step stops once the heap has grown
// by the memory limit. Each error names the limit's variable and the file
// and line.
func TestTeamRulesMemoryLimit(t *testing.T) {
	var doubling strings.Builder
	doubling.WriteString("package tenet.decide\n\nprevent_destroy contains [i, s30] if {\n\tsome i, _ in input.instances\n\ts0 := \"abcdefgh\"\n")
	for k := 1; k <= 30; k++ {
		fmt.Fprintf(&doubling, "\ts%d := concat(\"\", [s%d, s%d])\n", k, k-1, k-1)
	}
	doubling.WriteString("}\n")
	tests := []struct {
		name, src string
		want      []string
	}{
		{"doubling a string", doubling.String(), []string{"t.rego:25:", "concat: would build a value of about 8.0MiB, more than 8MiB", MemoryLimitEnv}},
		{"one call", `package tenet.decide

prevent_destroy contains [i, s] if {
	some i, _ in input.instances
	kb := concat("", [x | some _ in numbers.range(1, 1024); x := "a"])
	mb := replace(kb, "", kb)
	s := replace(mb, "", kb)
}
`, []string{"t.rego:7:", "replace: would build", MemoryLimitEnv}},
		{"growing a collection", `package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, _ in input.instances
	n := count([x | some a in numbers.range(1, 3000); some b in numbers.range(1, 3000); x := sprintf("%d-%d-padding-padding", [a, b])])
	n > 0
}
`, []string{"memory limit of 32MiB", MemoryLimitEnv}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newLimitedEngine(t, tt.src, time.Minute, 32<<20)
			err := evalStageOnce(context.Background(), e, "decide")
			var re *RuleError
			if !errors.As(err, &re) {
				t.Fatalf("error = %v, want a RuleError", err)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

func TestLimitsFrom(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		env  map[string]string
		want evalLimits
		err  string
	}{
		{"defaults", Options{}, nil, evalLimits{DefaultTimeLimit, DefaultMemoryLimit}, ""},
		{"environment", Options{}, map[string]string{TimeLimitEnv: "2m", MemoryLimitEnv: "512MiB"}, evalLimits{2 * time.Minute, 512 << 20}, ""},
		{"plain bytes", Options{}, map[string]string{MemoryLimitEnv: "1000000"}, evalLimits{DefaultTimeLimit, 1000000}, ""},
		{"options win", Options{TimeLimit: time.Second, MemoryLimit: 1 << 20}, map[string]string{TimeLimitEnv: "2m"}, evalLimits{time.Second, 1 << 20}, ""},
		{"bad duration", Options{}, map[string]string{TimeLimitEnv: "soon"}, evalLimits{}, TimeLimitEnv},
		{"zero duration", Options{}, map[string]string{TimeLimitEnv: "0s"}, evalLimits{}, TimeLimitEnv},
		{"bad size", Options{}, map[string]string{MemoryLimitEnv: "lots"}, evalLimits{}, MemoryLimitEnv},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := limitsFrom(tt.opts, func(k string) string { return tt.env[k] })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want one naming %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(evalLimits{})); diff != "" {
				t.Errorf("limits (-want +got):\n%s", diff)
			}
		})
	}
}
