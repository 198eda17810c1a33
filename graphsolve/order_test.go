package graphsolve

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestTopoOrder(t *testing.T) {
	tests := []struct {
		name  string
		specs []string
		want  []string
	}{
		{name: "empty"},
		{name: "independent vertices keep insertion order", specs: []string{"c", "a", "b"}, want: []string{"c", "a", "b"}},
		{name: "dependencies first", specs: []string{"a->b", "b->c"}, want: []string{"c", "b", "a"}},
		{
			// x, y, z, w is valid as inserted, so it stays as it is even
			// though z and w were ready before y.
			name:  "valid insertion order is kept",
			specs: []string{"x", "y->x", "z", "w"},
			want:  []string{"x", "y", "z", "w"},
		},
		{
			name:  "earliest inserted ready vertex goes first",
			specs: []string{"app->db", "app->net", "db->net", "web->app", "cache"},
			want:  []string{"net", "db", "app", "web", "cache"},
		},
		{
			name:  "diamond",
			specs: []string{"top->l", "top->r", "l->bottom", "r->bottom"},
			want:  []string{"bottom", "l", "r", "top"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := build(t, tt.specs...).TopoOrder()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("TopoOrder() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTransitiveClosures(t *testing.T) {
	//   web -> app -> db -> net
	//          app -> net
	//   job -> db
	//   loop1 <-> loop2
	g := build(t, "web->app", "app->db", "db->net", "app->net", "job->db", "loop1->loop2", "loop2->loop1", "alone")
	tests := []struct {
		name           string
		start          []string
		deps, dependts []string
	}{
		{name: "leaf", start: []string{"net"}, dependts: []string{"web", "app", "db", "job"}},
		{name: "root", start: []string{"web"}, deps: []string{"app", "db", "net"}},
		{name: "middle", start: []string{"db"}, deps: []string{"net"}, dependts: []string{"web", "app", "job"}},
		{
			name:  "several starts include each other",
			start: []string{"job", "db"}, deps: []string{"db", "net"}, dependts: []string{"web", "app", "job"},
		},
		{name: "cycle reaches itself", start: []string{"loop1"}, deps: []string{"loop1", "loop2"}, dependts: []string{"loop1", "loop2"}},
		{name: "isolated", start: []string{"alone"}},
		{name: "unknown start", start: []string{"nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.deps, g.TransitiveDependencies(tt.start...), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("TransitiveDependencies (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.dependts, g.TransitiveDependents(tt.start...), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("TransitiveDependents (-want +got):\n%s", diff)
			}
		})
	}
}

// diamonds builds layers of width 2 where each vertex depends on both
// vertices of the layer below: 2^layers paths, which sinks any algorithm that
// re-expands shared vertices.
func diamonds(layers int) *Graph[string] {
	g := New[string](nil)
	name := func(l, i int) string { return fmt.Sprintf("l%d.%d", l, i) }
	g.AddVertex(name(0, 0))
	for l := 1; l <= layers; l++ {
		for i := range 2 {
			g.AddEdge(name(l, i), name(l-1, 0))
			if l > 1 {
				g.AddEdge(name(l, i), name(l-1, 1))
			}
		}
	}
	g.AddEdge("top", name(layers, 0))
	g.AddEdge("top", name(layers, 1))
	return g
}

func TestDiamondsAreLinear(t *testing.T) {
	const layers = 500
	g := diamonds(layers)
	if got, want := len(g.TransitiveDependents("l0.0")), 2*layers+1; got != want {
		t.Errorf("TransitiveDependents(bottom) has %d vertices, want %d", got, want)
	}
	if got, want := len(g.TransitiveDependencies("top")), 2*layers+1; got != want {
		t.Errorf("TransitiveDependencies(top) has %d vertices, want %d", got, want)
	}
	order, err := g.TopoOrder()
	if err != nil {
		t.Fatal(err)
	}
	if order[0] != "l0.0" || order[len(order)-1] != "top" {
		t.Errorf("order runs %s .. %s, want l0.0 .. top", order[0], order[len(order)-1])
	}
	if errs := g.Validate(); len(errs) > 0 {
		t.Errorf("Validate() = %v", errs)
	}
}

func TestDeepChain(t *testing.T) {
	const n = 100_000
	g := New[int](nil)
	for i := n - 1; i > 0; i-- {
		g.AddEdge(i, i-1) // inserted backwards so every step waits on the heap
	}
	order, err := g.TopoOrder()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range order {
		if v != i {
			t.Fatalf("order[%d] = %d, want %d", i, v, i)
		}
	}
	if got := len(g.TransitiveDependents(0)); got != n-1 {
		t.Errorf("TransitiveDependents(0) has %d vertices, want %d", got, n-1)
	}
}
