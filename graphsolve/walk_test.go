package graphsolve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func warning(name string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: name}}
}

func failure(name string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: name}}
}

func summaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary)
	}
	return out
}

// randomDAG returns n vertices inserted in shuffled order, each depending on
// up to three lower-numbered vertices.
func randomDAG(seed uint64, n int) *Graph[int] {
	r := rand.New(rand.NewPCG(seed, 2))
	g := New[int](nil)
	for _, v := range r.Perm(n) {
		g.AddVertex(v)
		if v == 0 {
			continue
		}
		for range r.IntN(4) {
			g.AddEdge(v, r.IntN(v))
		}
	}
	return g
}

func TestWalkRespectsDependencies(t *testing.T) {
	for _, parallelism := range []int{1, 2, 10} {
		t.Run(fmt.Sprint("parallelism ", parallelism), func(t *testing.T) {
			g := randomDAG(uint64(parallelism), 300)
			var clock atomic.Int64
			var mu sync.Mutex
			started, finished := map[int]int64{}, map[int]int64{}
			var calls []int
			res := g.Walk(t.Context(), parallelism, func(_ context.Context, v int) hcl.Diagnostics {
				mu.Lock()
				started[v] = clock.Add(1)
				calls = append(calls, v)
				mu.Unlock()
				if v%7 == 0 {
					time.Sleep(50 * time.Microsecond)
				}
				mu.Lock()
				finished[v] = clock.Add(1)
				mu.Unlock()
				return nil
			})
			if res.Err != nil || res.Diagnostics.HasErrors() {
				t.Fatalf("walk failed: %v %v", res.Err, res.Diagnostics)
			}
			if len(calls) != g.Len() {
				t.Fatalf("fn called %d times for %d vertices", len(calls), g.Len())
			}
			for _, v := range g.Vertices() {
				if res.Status(v) != Done {
					t.Errorf("status of %d = %v, want done", v, res.Status(v))
				}
				for _, d := range g.DependenciesOf(v) {
					if finished[d] > started[v] {
						t.Errorf("%d started at %d before its dependency %d finished at %d", v, started[v], d, finished[d])
					}
				}
			}
			if parallelism == 1 {
				order, _ := g.TopoOrder()
				if diff := cmp.Diff(order, calls); diff != "" {
					t.Errorf("serial walk order differs from TopoOrder (-topo +calls):\n%s", diff)
				}
			}
		})
	}
}

func TestWalkSkipsDependentsOfFailures(t *testing.T) {
	// app fails: web (direct) and cdn (through web) are skipped, db below it
	// and the independent job branch run. cdn also depends on job, which is
	// done, yet it stays skipped.
	g := build(t, "net", "db->net", "app->db", "web->app", "cdn->web", "cdn->job", "job->net", "worker->job")
	for _, parallelism := range []int{1, 2, 10} {
		t.Run(fmt.Sprint("parallelism ", parallelism), func(t *testing.T) {
			var mu sync.Mutex
			called := map[string]bool{}
			res := g.Walk(t.Context(), parallelism, func(_ context.Context, v string) hcl.Diagnostics {
				mu.Lock()
				called[v] = true
				mu.Unlock()
				if v == "app" {
					return append(warning("app warning"), failure("app failed")...)
				}
				return warning(v)
			})
			wantStatus := map[string]Status{
				"net": Done, "db": Done, "app": Failed, "web": Skipped, "cdn": Skipped, "job": Done, "worker": Done,
			}
			gotStatus := map[string]Status{}
			for _, v := range g.Vertices() {
				gotStatus[v] = res.Status(v)
			}
			if diff := cmp.Diff(wantStatus, gotStatus); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
			if called["web"] || called["cdn"] {
				t.Errorf("fn was called for a skipped vertex: %v", called)
			}
			// Topological order net, db, app, job, worker (web and cdn
			// produce nothing), whatever the completion order.
			want := []string{"net", "db", "app warning", "app failed", "job", "worker"}
			if diff := cmp.Diff(want, summaries(res.Diagnostics)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"web", "cdn"}, res.WithStatus(Skipped)); diff != "" {
				t.Errorf("WithStatus(Skipped) (-want +got):\n%s", diff)
			}
			if res.Err != nil {
				t.Errorf("Err = %v, want nil: failures are diagnostics", res.Err)
			}
		})
	}
}

func TestWalkDiagnosticsFollowTopoOrder(t *testing.T) {
	g := randomDAG(7, 200)
	order, _ := g.TopoOrder()
	var want []string
	for _, v := range order {
		want = append(want, fmt.Sprint(v))
	}
	for range 5 {
		res := g.Walk(t.Context(), 8, func(_ context.Context, v int) hcl.Diagnostics {
			time.Sleep(time.Duration(rand.IntN(30)) * time.Microsecond)
			return warning(fmt.Sprint(v))
		})
		if diff := cmp.Diff(want, summaries(res.Diagnostics)); diff != "" {
			t.Fatalf("diagnostics (-topo +got):\n%s", diff)
		}
	}
}

func TestWalkParallelismBound(t *testing.T) {
	tests := []struct{ parallelism, want int }{{0, 1}, {1, 1}, {3, 3}, {8, 8}}
	for _, tt := range tests {
		t.Run(fmt.Sprint("parallelism ", tt.parallelism), func(t *testing.T) {
			g := New[int](nil)
			for i := range 40 {
				g.AddVertex(i)
			}
			var running, peak atomic.Int32
			g.Walk(t.Context(), tt.parallelism, func(context.Context, int) hcl.Diagnostics {
				n := running.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				time.Sleep(2 * time.Millisecond)
				running.Add(-1)
				return nil
			})
			if got := int(peak.Load()); got != tt.want {
				t.Errorf("peak concurrency %d, want %d", got, tt.want)
			}
		})
	}
}

func TestWalkCancel(t *testing.T) {
	t.Run("during the walk", func(t *testing.T) {
		g := New[int](nil)
		for i := 1; i < 100; i++ {
			g.AddEdge(i, i-1)
		}
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		var calls atomic.Int32
		res := g.Walk(ctx, 4, func(_ context.Context, v int) hcl.Diagnostics {
			calls.Add(1)
			if v == 10 {
				cancel()
			}
			return nil
		})
		if !errors.Is(res.Err, context.Canceled) {
			t.Errorf("Err = %v, want context.Canceled", res.Err)
		}
		if got := calls.Load(); got != 11 {
			t.Errorf("fn called %d times, want 11 (nothing starts after the cancel)", got)
		}
		if res.Status(10) != Done || res.Status(11) != NotRun {
			t.Errorf("status 10 = %v, 11 = %v; want done, not run", res.Status(10), res.Status(11))
		}
		if got := len(res.WithStatus(NotRun)); got != 89 {
			t.Errorf("%d vertices not run, want 89", got)
		}
	})
	t.Run("before the walk", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		res := build(t, "a->b", "c").Walk(ctx, 2, func(context.Context, string) hcl.Diagnostics {
			t.Error("fn called on a canceled walk")
			return nil
		})
		if !errors.Is(res.Err, context.Canceled) {
			t.Errorf("Err = %v, want context.Canceled", res.Err)
		}
	})
	t.Run("running calls finish", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		g := build(t, "a", "b", "c", "d")
		var finished atomic.Int32
		res := g.Walk(ctx, 4, func(ctx context.Context, v string) hcl.Diagnostics {
			if v == "a" {
				cancel()
			}
			<-ctx.Done()
			finished.Add(1)
			return nil
		})
		// Walk returned, so every call that started has returned too.
		if got, ran := int(finished.Load()), g.Len()-len(res.WithStatus(NotRun)); got != ran {
			t.Errorf("%d calls finished but %d vertices ran", got, ran)
		}
	})
}

func TestWalkCycle(t *testing.T) {
	g := build(t, "a->b", "b->a", "c")
	res := g.Walk(t.Context(), 2, func(context.Context, string) hcl.Diagnostics {
		t.Error("fn called on a cyclic graph")
		return nil
	})
	if !errors.Is(res.Err, ErrCycle) {
		t.Errorf("Err = %v, want ErrCycle", res.Err)
	}
	if diff := cmp.Diff([]string{"Cycle: a, b"}, summaries(res.Diagnostics)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, res.WithStatus(NotRun)); diff != "" {
		t.Errorf("not run (-want +got):\n%s", diff)
	}
}

func TestWalkLargeGraphs(t *testing.T) {
	chain := New[int](nil)
	for i := 1; i < 100_000; i++ {
		chain.AddEdge(i, i-1)
	}
	t.Run("100k chain", func(t *testing.T) {
		var calls atomic.Int32
		res := chain.Walk(t.Context(), 10, func(context.Context, int) hcl.Diagnostics { calls.Add(1); return nil })
		if res.Err != nil || int(calls.Load()) != chain.Len() {
			t.Errorf("err %v, %d calls for %d vertices", res.Err, calls.Load(), chain.Len())
		}
	})
	t.Run("100k chain failing at the bottom", func(t *testing.T) {
		res := chain.Walk(t.Context(), 10, func(_ context.Context, v int) hcl.Diagnostics { return failure("bottom") })
		if got := len(res.WithStatus(Skipped)); got != chain.Len()-1 {
			t.Errorf("%d skipped, want %d", got, chain.Len()-1)
		}
	})
	t.Run("500 diamonds", func(t *testing.T) {
		g := diamonds(500)
		var calls atomic.Int32
		res := g.Walk(t.Context(), 10, func(context.Context, string) hcl.Diagnostics { calls.Add(1); return nil })
		if res.Err != nil || int(calls.Load()) != g.Len() {
			t.Errorf("err %v, %d calls for %d vertices", res.Err, calls.Load(), g.Len())
		}
	})
}

func TestWalkPanic(t *testing.T) {
	for _, parallelism := range []int{1, 4} {
		t.Run(fmt.Sprint("parallelism ", parallelism), func(t *testing.T) {
			g := build(t, "a", "b->a", "c", "d", "e")
			var afterPanic atomic.Int32
			var panicked atomic.Bool
			got := func() (r any) {
				defer func() { r = recover() }()
				g.Walk(t.Context(), parallelism, func(_ context.Context, v string) hcl.Diagnostics {
					if panicked.Load() {
						afterPanic.Add(1)
					}
					if v == "a" {
						panicked.Store(true)
						panic("boom")
					}
					return nil
				})
				return nil
			}()
			p, ok := got.(PanicError)
			if !ok {
				t.Fatalf("Walk panicked with %#v, want a PanicError", got)
			}
			if p.Vertex != "a" || p.Recovered != "boom" || len(p.Stack) == 0 {
				t.Errorf("PanicError = %q, %v, %d bytes of stack", p.Vertex, p.Recovered, len(p.Stack))
			}
			if parallelism == 1 && afterPanic.Load() != 0 {
				t.Errorf("%d vertices started after the panic", afterPanic.Load())
			}
		})
	}
}
