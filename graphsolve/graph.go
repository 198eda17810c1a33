package graphsolve

import (
	"fmt"
	"maps"
	"slices"
)

// Graph is a directed graph whose edge from -> to means "from runs after to":
// from depends on to.
//
// Vertices are kept in insertion order and edges in the order they were added,
// so every result derived from a graph built the same way is the same. A Graph
// is not safe for concurrent mutation; any number of goroutines may call its
// read-only methods (including [Graph.Walk]) while nobody mutates it.
type Graph[K comparable] struct {
	name      func(K) string
	index     map[K]int32
	keys      []K
	verts     []vertex
	live      int
	edgeCount int
	// adj is the arena holding every adjacency list, so the graph has no
	// per-vertex pointers for the garbage collector to trace and no
	// per-vertex allocations. A list that outgrows its span moves to the end
	// of the arena; the abandoned span is bounded by the list's final size.
	adj []int32
	// Short adjacency lists are searched by scanning. Once a list grows past
	// hubThreshold slots it gets a neighbour -> slot map here, which keeps
	// duplicate checks and removals O(1) for hubs without paying for a map
	// per edge in the common low-degree case.
	hubDeps, hubDependents map[int32]map[int32]int32
}

// vertex holds the adjacency of one vertex as spans of the arena.
type vertex struct {
	deps, dependents span
	removed          bool
}

// span is one adjacency list in the arena. A slot of -1 is an edge that has
// been removed; a list is compacted once half its slots are dead, which keeps
// RemoveEdge amortised O(1) without reordering the survivors.
type span struct{ off, len, cap, dead int32 }

const hubThreshold = 16

// list returns the slots of s, dead ones included. The result aliases the
// arena and must not be appended to.
func (g *Graph[K]) list(s span) []int32 { return g.adj[s.off : s.off+s.len : s.off+s.len] }

func (g *Graph[K]) deps(v int32) []int32       { return g.list(g.verts[v].deps) }
func (g *Graph[K]) dependents(v int32) []int32 { return g.list(g.verts[v].dependents) }

// push appends w to the list in s.
func (g *Graph[K]) push(s *span, w int32) {
	if s.len == s.cap {
		newCap := max(2, 2*s.cap)
		end := int32(len(g.adj))
		atEnd := s.cap > 0 && s.off+s.cap == end
		need := newCap
		if atEnd {
			need -= s.cap // extend the last list in place
		}
		if cap(g.adj)-len(g.adj) < int(need) {
			// Double, as in vertexIndex.
			g.adj = slices.Grow(g.adj, max(int(need), len(g.adj)))
		}
		g.adj = g.adj[:end+need]
		if !atEnd {
			copy(g.adj[end:], g.adj[s.off:s.off+s.len])
			s.off = end
		}
		s.cap = newCap
	}
	g.adj[s.off+s.len] = w
	s.len++
}

// New returns an empty graph. name gives a vertex's display name, used in
// cycle messages and DOT output; nil means fmt.Sprint.
func New[K comparable](name func(K) string) *Graph[K] {
	if name == nil {
		name = func(k K) string { return fmt.Sprint(k) }
	}
	return &Graph[K]{name: name, index: map[K]int32{}}
}

// Grow reserves room for n more vertices, sparing rehashing and copying
// when the caller knows the size up front.
func (g *Graph[K]) Grow(n int) {
	if n <= 0 {
		return
	}
	g.keys = slices.Grow(g.keys, n)
	g.verts = slices.Grow(g.verts, n)
	if len(g.index) == 0 {
		g.index = make(map[K]int32, n)
	}
}

// Name returns k's display name.
func (g *Graph[K]) Name(k K) string { return g.name(k) }

// AddVertex adds k if it is not present yet.
func (g *Graph[K]) AddVertex(k K) { g.vertexIndex(k) }

func (g *Graph[K]) vertexIndex(k K) int32 {
	if i, ok := g.index[k]; ok {
		return i
	}
	i := int32(len(g.keys))
	if len(g.verts) == cap(g.verts) {
		// Double rather than let append grow large slices by a quarter,
		// which copies each element about four times over.
		g.verts = slices.Grow(g.verts, max(len(g.verts), 64))
		g.keys = slices.Grow(g.keys, max(len(g.keys), 64))
	}
	g.index[k] = i
	g.keys = append(g.keys, k)
	g.verts = append(g.verts, vertex{})
	g.live++
	return i
}

// AddEdge records that from depends on to, adding either vertex if missing.
// A duplicate edge is ignored. Amortised O(1).
func (g *Graph[K]) AddEdge(from, to K) {
	g.addEdge(g.vertexIndex(from), g.vertexIndex(to))
}

func (g *Graph[K]) addEdge(f, t int32) {
	if g.depSlot(f, t) >= 0 {
		return
	}
	g.pushSlot(g.hubDeps, f, &g.verts[f].deps, t)
	g.pushSlot(g.hubDependents, t, &g.verts[t].dependents, f)
	g.edgeCount++
}

// pushSlot appends w to v's list s, keeping v's hub map current if it has
// one.
func (g *Graph[K]) pushSlot(hubs map[int32]map[int32]int32, v int32, s *span, w int32) {
	g.push(s, w)
	if m, ok := hubs[v]; ok {
		m[w] = s.len - 1
	}
}

// hub returns v's neighbour -> slot map for list s, building it the first
// time a long list is searched; short lists return nil and are scanned. Maps
// are built lazily so a list that is only appended to (a resource with
// 100,000 dependents, say) never pays for one.
func (g *Graph[K]) hub(hubs *map[int32]map[int32]int32, v int32, s span) map[int32]int32 {
	if m, ok := (*hubs)[v]; ok || s.len <= hubThreshold {
		return m
	}
	if *hubs == nil {
		*hubs = map[int32]map[int32]int32{}
	}
	m := make(map[int32]int32, s.len)
	for slot, x := range g.list(s) {
		if x >= 0 {
			m[x] = int32(slot)
		}
	}
	(*hubs)[v] = m
	return m
}

// depSlot returns the slot of t in f's dependency list, or -1.
func (g *Graph[K]) depSlot(f, t int32) int32 {
	return findSlot(g.hub(&g.hubDeps, f, g.verts[f].deps), g.deps(f), t)
}

func findSlot(hub map[int32]int32, list []int32, w int32) int32 {
	if hub != nil {
		if slot, ok := hub[w]; ok {
			return slot
		}
		return -1
	}
	for slot, x := range list {
		if x == w {
			return int32(slot)
		}
	}
	return -1
}

// RemoveEdge removes the edge from -> to if present. Amortised O(1).
func (g *Graph[K]) RemoveEdge(from, to K) {
	f, ok1 := g.index[from]
	t, ok2 := g.index[to]
	if ok1 && ok2 {
		g.removeEdge(f, t)
	}
}

func (g *Graph[K]) removeEdge(f, t int32) {
	if g.depSlot(f, t) < 0 {
		return
	}
	g.removeSlot(g.hubDeps[f], &g.verts[f].deps, t)
	g.removeSlot(g.hub(&g.hubDependents, t, g.verts[t].dependents), &g.verts[t].dependents, f)
	g.edgeCount--
}

// removeSlot kills w's slot in list s and compacts s once half of it is dead,
// keeping the order of the survivors and re-recording their slots in hub.
func (g *Graph[K]) removeSlot(hub map[int32]int32, s *span, w int32) {
	list := g.list(*s)
	list[findSlot(hub, list, w)] = -1
	delete(hub, w)
	s.dead++
	if s.dead*2 <= s.len {
		return
	}
	n := int32(0)
	for _, x := range list {
		if x >= 0 {
			if hub != nil {
				hub[x] = n
			}
			list[n] = x
			n++
		}
	}
	s.len, s.dead = n, 0
}

// RemoveVertex removes k and all its edges. O(degree of k), amortised.
// Adding k again later places it at the end of the insertion order.
func (g *Graph[K]) RemoveVertex(k K) {
	i, ok := g.index[k]
	if !ok {
		return
	}
	for _, t := range slices.Clone(g.deps(i)) {
		if t >= 0 {
			g.removeEdge(i, t)
		}
	}
	for _, f := range slices.Clone(g.dependents(i)) {
		if f >= 0 {
			g.removeEdge(f, i)
		}
	}
	g.verts[i] = vertex{removed: true}
	delete(g.hubDeps, i)
	delete(g.hubDependents, i)
	var zero K
	g.keys[i] = zero
	delete(g.index, k)
	g.live--
}

// HasVertex reports whether k is in the graph.
func (g *Graph[K]) HasVertex(k K) bool {
	_, ok := g.index[k]
	return ok
}

// HasEdge reports whether from depends directly on to.
func (g *Graph[K]) HasEdge(from, to K) bool {
	f, ok1 := g.index[from]
	t, ok2 := g.index[to]
	// Read-only: use a hub map if there is one, else scan, but never build
	// one here, so concurrent readers stay safe.
	return ok1 && ok2 && findSlot(g.hubDeps[f], g.deps(f), t) >= 0
}

// Len returns the number of vertices.
func (g *Graph[K]) Len() int { return g.live }

// EdgeCount returns the number of edges.
func (g *Graph[K]) EdgeCount() int { return g.edgeCount }

// Vertices returns every vertex in insertion order.
func (g *Graph[K]) Vertices() []K {
	out := make([]K, 0, g.live)
	for i, v := range g.verts {
		if !v.removed {
			out = append(out, g.keys[i])
		}
	}
	return out
}

// DependenciesOf returns the vertices k depends on directly, in the order the
// edges were added.
func (g *Graph[K]) DependenciesOf(k K) []K {
	i, ok := g.index[k]
	if !ok {
		return nil
	}
	return g.keysOf(g.deps(i))
}

// DependentsOf returns the vertices that depend on k directly, in the order
// the edges were added.
func (g *Graph[K]) DependentsOf(k K) []K {
	i, ok := g.index[k]
	if !ok {
		return nil
	}
	return g.keysOf(g.dependents(i))
}

func (g *Graph[K]) keysOf(list []int32) []K {
	var out []K
	for _, w := range list {
		if w >= 0 {
			out = append(out, g.keys[w])
		}
	}
	return out
}

// Reverse returns a new graph with the same vertices, in the same order, and
// every edge turned around: the destroy order is the reverse of the create
// order. A vertex's dependencies in the result are its dependents in g, in
// the same order.
func (g *Graph[K]) Reverse() *Graph[K] {
	r := New(g.name)
	r.Grow(g.live)
	// Renumber so the result carries no removed vertices.
	renum := make([]int32, len(g.verts))
	for i, v := range g.verts {
		if !v.removed {
			renum[i] = r.vertexIndex(g.keys[i])
		}
	}
	for i := range g.verts {
		for _, w := range g.dependents(int32(i)) {
			if w >= 0 {
				r.addEdge(renum[i], renum[w])
			}
		}
	}
	return r
}

// Clone returns an independent copy of g.
func (g *Graph[K]) Clone() *Graph[K] {
	c := &Graph[K]{
		name:      g.name,
		index:     maps.Clone(g.index),
		keys:      slices.Clone(g.keys),
		verts:     slices.Clone(g.verts),
		live:      g.live,
		edgeCount: g.edgeCount,
		adj:       slices.Clone(g.adj),
	}
	cloneHubs := func(h map[int32]map[int32]int32) map[int32]map[int32]int32 {
		if h == nil {
			return nil
		}
		out := make(map[int32]map[int32]int32, len(h))
		for v, m := range h {
			out[v] = maps.Clone(m)
		}
		return out
	}
	c.hubDeps, c.hubDependents = cloneHubs(g.hubDeps), cloneHubs(g.hubDependents)
	return c
}

// Subgraph returns a new graph holding the vertices for which keep returns
// true, in the same order, and the edges between them. Edges through a
// dropped vertex are not bridged; to keep everything a target needs, keep
// the target and its [Graph.TransitiveDependencies].
func (g *Graph[K]) Subgraph(keep func(K) bool) *Graph[K] {
	s := New(g.name)
	renum := make([]int32, len(g.verts))
	for i, v := range g.verts {
		renum[i] = -1
		if !v.removed && keep(g.keys[i]) {
			renum[i] = s.vertexIndex(g.keys[i])
		}
	}
	for i := range g.verts {
		if renum[i] < 0 {
			continue
		}
		for _, w := range g.deps(int32(i)) {
			if w >= 0 && renum[w] >= 0 {
				s.addEdge(renum[i], renum[w])
			}
		}
	}
	return s
}
