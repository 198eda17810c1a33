package graphsolve

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGraphEdits(t *testing.T) {
	type view struct {
		Vertices   []string
		Deps       map[string][]string
		Dependents map[string][]string
		Edges      int
	}
	snapshot := func(g *Graph[string]) view {
		v := view{Vertices: g.Vertices(), Deps: map[string][]string{}, Dependents: map[string][]string{}, Edges: g.EdgeCount()}
		for _, k := range v.Vertices {
			if d := g.DependenciesOf(k); d != nil {
				v.Deps[k] = d
			}
			if d := g.DependentsOf(k); d != nil {
				v.Dependents[k] = d
			}
		}
		return v
	}
	tests := []struct {
		name string
		edit func(g *Graph[string])
		want view
	}{
		{
			name: "duplicate edges and vertices are ignored",
			edit: func(g *Graph[string]) {
				g.AddEdge("a", "b")
				g.AddEdge("a", "b")
				g.AddVertex("a")
				g.AddVertex("c")
			},
			want: view{
				Vertices: []string{"a", "b", "c"}, Edges: 1,
				Deps: map[string][]string{"a": {"b"}}, Dependents: map[string][]string{"b": {"a"}},
			},
		},
		{
			name: "edge order is kept across removals",
			edit: func(g *Graph[string]) {
				for _, d := range []string{"b", "c", "d", "e"} {
					g.AddEdge("a", d)
				}
				g.RemoveEdge("a", "c")
				g.RemoveEdge("a", "d") // compacts the list
				g.AddEdge("a", "c")    // re-added at the end
				g.RemoveEdge("x", "y") // unknown: no-op
			},
			want: view{
				Vertices: []string{"a", "b", "c", "d", "e", "x", "y"}[:5], Edges: 3,
				Deps:       map[string][]string{"a": {"b", "e", "c"}},
				Dependents: map[string][]string{"b": {"a"}, "c": {"a"}, "e": {"a"}},
			},
		},
		{
			name: "removing a vertex removes its edges",
			edit: func(g *Graph[string]) {
				g.AddEdge("a", "b")
				g.AddEdge("b", "c")
				g.AddEdge("a", "c")
				g.RemoveVertex("b")
				g.AddVertex("b") // comes back last, without edges
			},
			want: view{
				Vertices: []string{"a", "c", "b"}, Edges: 1,
				Deps: map[string][]string{"a": {"c"}}, Dependents: map[string][]string{"c": {"a"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New[string](nil)
			tt.edit(g)
			if diff := cmp.Diff(tt.want, snapshot(g)); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
			if g.Len() != len(tt.want.Vertices) {
				t.Errorf("Len() = %d, want %d", g.Len(), len(tt.want.Vertices))
			}
		})
	}
}

// TestGraphMatchesModel applies random edits to a Graph and to a naive model
// and compares them, which exercises list compaction and slot bookkeeping.
// Vertex 0 is a hub whose lists outgrow the short-list scan.
func TestGraphMatchesModel(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 1))
			g := New[int](nil)
			var order []int
			edges := [][2]int{} // in insertion order
			present := map[int]bool{}
			const n = 40
			for range 6000 {
				a, b := r.IntN(n), r.IntN(n)
				switch r.IntN(4) {
				case 0:
					a = 0
				case 1:
					b = 0
				}
				switch r.IntN(10) {
				case 0:
					g.RemoveVertex(a)
					if present[a] {
						delete(present, a)
						order = slices.DeleteFunc(order, func(v int) bool { return v == a })
						edges = slices.DeleteFunc(edges, func(e [2]int) bool { return e[0] == a || e[1] == a })
					}
				case 1, 2, 3, 4:
					g.RemoveEdge(a, b)
					edges = slices.DeleteFunc(edges, func(e [2]int) bool { return e == [2]int{a, b} })
				default:
					g.AddEdge(a, b)
					for _, v := range []int{a, b} {
						if !present[v] {
							present[v] = true
							order = append(order, v)
						}
					}
					if !slices.Contains(edges, [2]int{a, b}) {
						edges = append(edges, [2]int{a, b})
					}
				}
			}
			if got := g.Vertices(); !slices.Equal(order, got) {
				t.Fatalf("Vertices() = %v, model has %v", got, order)
			}
			for _, v := range order {
				var deps, dependents []int
				for _, e := range edges {
					if e[0] == v {
						deps = append(deps, e[1])
					}
					if e[1] == v {
						dependents = append(dependents, e[0])
					}
				}
				if diff := cmp.Diff(deps, g.DependenciesOf(v)); diff != "" {
					t.Fatalf("DependenciesOf(%d) (-model +graph):\n%s", v, diff)
				}
				if diff := cmp.Diff(dependents, g.DependentsOf(v)); diff != "" {
					t.Fatalf("DependentsOf(%d) (-model +graph):\n%s", v, diff)
				}
			}
			for a := range n {
				for b := range n {
					if got, want := g.HasEdge(a, b), slices.Contains(edges, [2]int{a, b}); got != want {
						t.Fatalf("HasEdge(%d, %d) = %v, want %v", a, b, got, want)
					}
				}
			}
			if g.EdgeCount() != len(edges) {
				t.Fatalf("EdgeCount() = %d, want %d", g.EdgeCount(), len(edges))
			}
		})
	}
}

func TestReverseAndClone(t *testing.T) {
	g := build(t, "a->b", "a->c", "c->b", "x")
	g.RemoveVertex("x")
	g.AddVertex("d")
	c := g.Clone()
	r := g.Reverse()
	g.AddEdge("d", "a") // neither copy sees this

	type edges map[string][]string
	deps := func(g *Graph[string]) edges {
		out := edges{}
		for _, v := range g.Vertices() {
			out[v] = g.DependenciesOf(v)
		}
		return out
	}
	if diff := cmp.Diff(edges{"a": {"b", "c"}, "b": nil, "c": {"b"}, "d": nil}, deps(c)); diff != "" {
		t.Errorf("clone (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(edges{"a": nil, "b": {"a", "c"}, "c": {"a"}, "d": nil}, deps(r)); diff != "" {
		t.Errorf("reverse (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"b"}, r.DependentsOf("c")); diff != "" {
		t.Errorf("reverse dependents of c (-want +got):\n%s", diff)
	}
	// The reversed graph stays editable: removing through the slot
	// bookkeeping built by Reverse must work.
	r.RemoveEdge("b", "a")
	r.RemoveEdge("b", "c")
	if r.EdgeCount() != 1 || !slices.Equal(r.DependentsOf("a"), []string{"c"}) {
		t.Errorf("after removals: %d edges, dependents of a %v", r.EdgeCount(), r.DependentsOf("a"))
	}
	order, err := r.TopoOrder()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, order); diff != "" {
		t.Errorf("reverse topo order (-want +got):\n%s", diff)
	}
}

func TestSubgraph(t *testing.T) {
	g := build(t, "web->app", "app->db", "db->net", "job->db", "cdn->web")
	g.Grow(10)
	targets := []string{"app"}
	keep := map[string]bool{"app": true}
	for _, d := range g.TransitiveDependencies(targets...) {
		keep[d] = true
	}
	s := g.Subgraph(func(k string) bool { return keep[k] })
	order, err := s.TopoOrder()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"net", "db", "app"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"app"}, s.DependentsOf("db")); diff != "" {
		t.Errorf("dependents of db (-want +got):\n%s", diff)
	}
	if s.EdgeCount() != 2 {
		t.Errorf("EdgeCount() = %d, want 2", s.EdgeCount())
	}
}
