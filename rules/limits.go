package rules

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// Team rules run while the state is locked, so a rule that loops or
// allocates without end must not hold it: each evaluation of a stage with
// team rules loaded is bounded in time and in the heap it may grow, and
// fails closed (a RuleError) when it crosses either bound.

// Default bounds, and the environment variables that change them.
const (
	DefaultTimeLimit   = 10 * time.Second
	DefaultMemoryLimit = 1 << 30 // bytes

	TimeLimitEnv   = "TENET_RULES_TIME_LIMIT"   // a Go duration: 30s, 2m
	MemoryLimitEnv = "TENET_RULES_MEMORY_LIMIT" // bytes, or with a unit: 512MiB, 2GiB
)

// memorySampleEvery is how often the heap is read during an evaluation.
// Reading it costs about a microsecond.
const memorySampleEvery = time.Millisecond

// evalLimits bound one evaluation of a stage's query.
type evalLimits struct {
	time   time.Duration
	memory uint64
}

// limitsFrom resolves the bounds: options first, then the environment,
// then the defaults.
func limitsFrom(opts Options, getenv func(string) string) (evalLimits, error) {
	l := evalLimits{time: opts.TimeLimit, memory: opts.MemoryLimit}
	if l.time == 0 {
		l.time = DefaultTimeLimit
		if s := getenv(TimeLimitEnv); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				return l, fmt.Errorf("%s=%q is not a positive duration (e.g. 30s or 2m)", TimeLimitEnv, s)
			}
			l.time = d
		}
	}
	if l.memory == 0 {
		l.memory = DefaultMemoryLimit
		if s := getenv(MemoryLimitEnv); s != "" {
			n, err := parseBytes(s)
			if err != nil {
				return l, fmt.Errorf("%s=%q is not a size (e.g. 512MiB or 2GiB)", MemoryLimitEnv, s)
			}
			l.memory = n
		}
	}
	return l, nil
}

// parseBytes reads a positive byte count with an optional binary unit.
func parseBytes(s string) (uint64, error) {
	units := []struct {
		suffix string
		scale  uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	scale := uint64(1)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, scale = strings.TrimSpace(rest), u.scale
			break
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 || n > (1<<62)/scale {
		return 0, fmt.Errorf("invalid size")
	}
	return n * scale, nil
}

func defaultGetenv(name string) string { return os.Getenv(name) }

// watch cancels ctx, with a RuleError as its cause, when the evaluation
// outlives the time limit or the heap grows by more than the memory limit
// from where it stood (or was heading: the GC goal) when it started. The
// heap is the process's, so the memory bound is approximate: evaluation
// stops at its next step after the heap crossed it.
func (l evalLimits) watch(ctx context.Context, cancel context.CancelCauseFunc) (stop func()) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	read := func() (objects, goal uint64) {
		metrics.Read(samples)
		return sampleUint(samples[0]), sampleUint(samples[1])
	}
	objects, goal := read()
	ceiling := max(objects, goal) + l.memory
	done := make(chan struct{})
	go func() {
		deadline := time.NewTimer(l.time)
		defer deadline.Stop()
		tick := time.NewTicker(memorySampleEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-deadline.C:
				cancel(&RuleError{
					Problem: fmt.Sprintf("evaluating the team rules took longer than the limit of %s", l.time),
					Fix:     fmt.Sprintf("make the rules cheaper (iterate over input.instances once, avoid nested comprehensions), or raise the limit with %s (e.g. %s=1m).", TimeLimitEnv, TimeLimitEnv),
				})
				return
			case <-tick.C:
				if objects, _ := read(); objects > ceiling {
					cancel(&RuleError{
						Problem: fmt.Sprintf("evaluating the team rules used more than the memory limit of %s", formatBytes(l.memory)),
						Fix:     fmt.Sprintf("make the rules build smaller values, or raise the limit with %s (e.g. %s=4GiB).", MemoryLimitEnv, MemoryLimitEnv),
					})
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

func sampleUint(s metrics.Sample) uint64 {
	if s.Value.Kind() == metrics.KindUint64 {
		return s.Value.Uint64()
	}
	return 0
}

func formatBytes(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%dB", n)
}
