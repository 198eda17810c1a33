package graphsolve

import (
	"errors"
	"slices"
)

// TopoOrder returns every vertex with its dependencies before it. Among the
// vertices ready at the same time the one added first comes first, so a graph
// whose insertion order is already a valid order is returned unchanged. If g
// has cycles the error joins the [Graph.Validate] errors (errors.Is(err,
// ErrCycle) holds) and the order is nil. O((V+E) log V).
func (g *Graph[K]) TopoOrder() ([]K, error) {
	order, err := g.topoIndices()
	if err != nil {
		return nil, err
	}
	out := make([]K, len(order))
	for i, v := range order {
		out[i] = g.keys[v]
	}
	return out, nil
}

// topoIndices is Kahn's algorithm with a min-heap of vertex indices as the
// ready set; in-degrees are computed once.
func (g *Graph[K]) topoIndices() ([]int32, error) {
	pending := g.pendingDeps()
	var ready minHeap
	for i, v := range g.verts {
		if !v.removed && pending[i] == 0 {
			ready = append(ready, int32(i)) // ascending, so already a heap
		}
	}
	order := make([]int32, 0, g.live)
	for len(ready) > 0 {
		v := ready.pop()
		order = append(order, v)
		for _, d := range g.dependents(v) {
			if d < 0 {
				continue
			}
			pending[d]--
			if pending[d] == 0 {
				ready.push(d)
			}
		}
	}
	if len(order) != g.live {
		return nil, errors.Join(g.Validate()...)
	}
	return order, nil
}

// pendingDeps returns, per vertex index, the number of its dependencies.
func (g *Graph[K]) pendingDeps() []int32 {
	pending := make([]int32, len(g.verts))
	for i, v := range g.verts {
		pending[i] = v.deps.len - v.deps.dead
	}
	return pending
}

// TransitiveDependencies returns every vertex reachable from the start
// vertices by following one or more dependency edges, in insertion order. A
// start vertex is included only if it is itself such a dependency (another
// start depends on it, or it sits on a cycle). Unknown start vertices are
// ignored. O(size of the result and the edges it touches).
func (g *Graph[K]) TransitiveDependencies(start ...K) []K {
	return g.closure(start, g.deps)
}

// TransitiveDependents is [Graph.TransitiveDependencies] following edges the
// other way: everything that depends, directly or not, on a start vertex.
func (g *Graph[K]) TransitiveDependents(start ...K) []K {
	return g.closure(start, g.dependents)
}

func (g *Graph[K]) closure(start []K, next func(int32) []int32) []K {
	seen := newBitset(len(g.verts))
	var found []int32
	queue := make([]int32, 0, len(start))
	for _, k := range start {
		if i, ok := g.index[k]; ok {
			queue = append(queue, i)
		}
	}
	for head := 0; head < len(queue); head++ {
		for _, w := range next(queue[head]) {
			if w < 0 || seen.has(w) {
				continue
			}
			seen.set(w)
			found = append(found, w)
			queue = append(queue, w)
		}
	}
	slices.Sort(found)
	out := make([]K, len(found))
	for i, v := range found {
		out[i] = g.keys[v]
	}
	return out
}

type bitset []uint64

func newBitset(n int) bitset      { return make(bitset, (n+63)/64) }
func (b bitset) has(i int32) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b bitset) set(i int32)      { b[i>>6] |= 1 << (i & 63) }

// minHeap is a binary min-heap of int32 without container/heap's interface
// calls, which matter at 100k pushes.
type minHeap []int32

func (h *minHeap) push(x int32) {
	*h = append(*h, x)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p] <= x {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = x
}

func (h *minHeap) pop() int32 {
	s := *h
	top := s[0]
	last := s[len(s)-1]
	s = s[:len(s)-1]
	*h = s
	if len(s) == 0 {
		return top
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= len(s) {
			break
		}
		if c+1 < len(s) && s[c+1] < s[c] {
			c++
		}
		if last <= s[c] {
			break
		}
		s[i] = s[c]
		i = c
	}
	s[i] = last
	return top
}
