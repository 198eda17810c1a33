package graphsolve

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// Status is what happened to one vertex during [Graph.Walk].
type Status uint8

const (
	// NotRun: the walk ended before the vertex could start, because ctx was
	// canceled or the graph has cycles.
	NotRun Status = iota
	// Done: fn ran and returned no error diagnostics.
	Done
	// Failed: fn ran and returned error diagnostics.
	Failed
	// Skipped: a transitive dependency failed, so fn was not called.
	Skipped
)

func (s Status) String() string {
	switch s {
	case NotRun:
		return "not run"
	case Done:
		return "done"
	case Failed:
		return "failed"
	case Skipped:
		return "skipped"
	}
	return "unknown"
}

// WalkResult is the outcome of [Graph.Walk].
type WalkResult[K comparable] struct {
	// Diagnostics holds what fn returned for every vertex it ran, ordered by
	// the vertices' position in [Graph.TopoOrder] (never by completion), or
	// the cycle errors if the graph has cycles.
	Diagnostics hcl.Diagnostics
	// Err is non-nil when some vertex was not run for a reason outside fn:
	// the graph has cycles (errors.Is(Err, ErrCycle)) or ctx ended (ctx's
	// error). The cycle case is also in Diagnostics; cancellation is not,
	// since the caller decides how to word an interruption.
	Err error

	g      *Graph[K]
	order  []int32 // nil when the graph has cycles
	status []Status
}

// Status returns what happened to k; NotRun for an unknown vertex.
func (r *WalkResult[K]) Status(k K) Status {
	i, ok := r.g.index[k]
	if !ok || int(i) >= len(r.status) {
		return NotRun
	}
	return r.status[i]
}

// WithStatus returns the vertices that ended with status s, in topological
// order (insertion order if the graph has cycles).
func (r *WalkResult[K]) WithStatus(s Status) []K {
	var out []K
	add := func(i int32) {
		if r.status[i] == s {
			out = append(out, r.g.keys[i])
		}
	}
	if r.order != nil {
		for _, i := range r.order {
			add(i)
		}
		return out
	}
	for i, v := range r.g.verts[:len(r.status)] {
		if !v.removed {
			add(int32(i))
		}
	}
	return out
}

// Walk calls fn for every vertex once all its dependencies are Done, with at
// most parallelism calls running at once (values below 1 mean 1). fn may be
// called concurrently from several goroutines.
//
// When fn returns error diagnostics the vertex is Failed and every transitive
// dependent is Skipped: fn is not called for it and it produces no
// diagnostics. Independent vertices keep running. When ctx ends no new vertex
// starts; Walk waits for the running calls and returns. With parallelism 1
// the calls happen in [Graph.TopoOrder] order.
//
// A graph with cycles runs nothing and returns the cycle errors. If fn
// panics, no new vertex starts and, once the running calls have returned,
// Walk panics in the caller's goroutine with a [PanicError]. g must not be
// mutated during the walk.
func (g *Graph[K]) Walk(ctx context.Context, parallelism int, fn func(ctx context.Context, k K) hcl.Diagnostics) *WalkResult[K] {
	res := &WalkResult[K]{g: g, status: make([]Status, len(g.verts))}
	order, err := g.topoIndices()
	if err != nil {
		res.Err = err
		res.Diagnostics = ErrorDiagnostics(g.Validate())
		return res
	}
	res.order = order
	if len(order) == 0 {
		return res
	}
	w := &walker[K]{
		g:       g,
		fn:      fn,
		status:  res.status,
		pending: g.pendingDeps(),
		pos:     make([]int32, len(g.verts)),
		diags:   make([]hcl.Diagnostics, len(g.verts)),
	}
	w.cond.L = &w.mu
	for p, v := range order {
		w.pos[v] = int32(p)
	}
	for p, v := range order {
		if w.pending[v] == 0 {
			w.ready = append(w.ready, int32(p)) // ascending, so already a heap
		}
	}

	stop := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		w.canceled = true
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	defer stop()

	workers := min(max(parallelism, 1), len(order))
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(func() { w.work(ctx, order) })
	}
	w.work(ctx, order)
	wg.Wait()
	if w.panicked != nil {
		panic(*w.panicked)
	}

	// The AfterFunc may still be running, so read under the lock. Only a
	// cancellation stops a walk early.
	w.mu.Lock()
	if w.done < len(order) {
		res.Err = ctx.Err()
	}
	w.mu.Unlock()
	for _, v := range order {
		res.Diagnostics = append(res.Diagnostics, w.diags[v]...)
	}
	return res
}

// walker is the state shared by the workers of one walk; every field below mu
// is guarded by it.
type walker[K comparable] struct {
	g  *Graph[K]
	fn func(context.Context, K) hcl.Diagnostics

	mu       sync.Mutex
	cond     sync.Cond
	ready    minHeap // topological positions of vertices ready to run
	inflight int
	waiting  int
	done     int // vertices that reached a final status
	canceled bool
	panicked *PanicError
	status   []Status
	pending  []int32 // dependencies not yet Done, per vertex
	pos      []int32 // topological position, per vertex
	diags    []hcl.Diagnostics
	queue    []int32 // scratch for skipping
}

func (w *walker[K]) work(ctx context.Context, order []int32) {
	// No deferred Unlock: if fn calls runtime.Goexit, call's cleanup has
	// already released everything and this frame must not touch mu again.
	w.mu.Lock()
	for {
		for !w.canceled && len(w.ready) == 0 && w.inflight > 0 {
			w.waiting++
			w.cond.Wait()
			w.waiting--
		}
		// The AfterFunc above only wakes waiters, and asynchronously; asking
		// ctx directly means nothing starts once cancel has returned.
		if !w.canceled && ctx.Err() != nil {
			w.canceled = true
		}
		if w.canceled || len(w.ready) == 0 {
			// Either stopped, or nothing is ready and nothing is running:
			// the walk is over. Wake the others so they notice too.
			w.cond.Broadcast()
			w.mu.Unlock()
			return
		}
		v := order[w.ready.pop()]
		w.inflight++
		w.mu.Unlock()
		diags, ok := w.call(ctx, v)
		w.mu.Lock()
		w.inflight--
		if !ok {
			w.canceled = true // stop the walk; Walk re-panics
			continue
		}
		w.finish(v, diags)
		// This worker takes one ready vertex itself; wake one waiter per
		// other ready vertex rather than all of them.
		for n := min(len(w.ready)-1, w.waiting); n > 0; n-- {
			w.cond.Signal()
		}
	}
}

// call runs fn for v, turning a panic into a recorded PanicError so the
// other workers can be stopped and the panic raised in Walk's caller.
func (w *walker[K]) call(ctx context.Context, v int32) (diags hcl.Diagnostics, ok bool) {
	defer func() {
		if ok {
			return
		}
		r := recover()
		p := &PanicError{Vertex: w.g.name(w.g.keys[v]), Recovered: r, Stack: debug.Stack()}
		w.mu.Lock()
		if w.panicked == nil {
			w.panicked = p
		}
		if r == nil {
			// runtime.Goexit (t.FailNow in a test): this goroutine is
			// going away, so do its share of the bookkeeping now.
			p.Recovered = "runtime.Goexit called"
			w.inflight--
			w.canceled = true
			w.cond.Broadcast()
		}
		w.mu.Unlock()
	}()
	return w.fn(ctx, w.g.keys[v]), true
}

// PanicError is what [Graph.Walk] panics with when fn panicked.
type PanicError struct {
	Vertex    string // display name of the vertex whose fn panicked
	Recovered any    // the value fn panicked with
	Stack     []byte // fn's goroutine stack at the panic
}

func (p PanicError) Error() string {
	return fmt.Sprintf("panic while walking %s: %v\n\n%s", p.Vertex, p.Recovered, p.Stack)
}

func (w *walker[K]) finish(v int32, diags hcl.Diagnostics) {
	w.diags[v] = diags
	w.done++
	dependents := w.g.dependents(v)
	if !diags.HasErrors() {
		w.status[v] = Done
		for _, d := range dependents {
			if d < 0 {
				continue
			}
			w.pending[d]--
			if w.pending[d] == 0 && w.status[d] == NotRun {
				w.ready.push(w.pos[d])
			}
		}
		return
	}
	w.status[v] = Failed
	// Every transitive dependent is skipped; each is visited once per walk
	// because an already skipped vertex stops the search.
	q := append(w.queue[:0], v)
	for head := 0; head < len(q); head++ {
		for _, d := range w.g.dependents(q[head]) {
			if d < 0 || w.status[d] != NotRun {
				continue
			}
			w.status[d] = Skipped
			w.done++
			q = append(q, d)
		}
	}
	w.queue = q
}
