package graphsolve

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// shapes build graphs of n vertices: flat (no edges), chain (each vertex
// depends on the previous one) and fan (every vertex depends on one root).
var shapes = []struct {
	name  string
	build func(n int) *Graph[int]
}{
	{"flat", func(n int) *Graph[int] {
		g := New[int](nil)
		for i := range n {
			g.AddVertex(i)
		}
		return g
	}},
	{"chain", func(n int) *Graph[int] {
		g := New[int](nil)
		g.AddVertex(0)
		for i := 1; i < n; i++ {
			g.AddEdge(i, i-1)
		}
		return g
	}},
	{"fan", func(n int) *Graph[int] {
		g := New[int](nil)
		g.AddVertex(0)
		for i := 1; i < n; i++ {
			g.AddEdge(i, 0)
		}
		return g
	}},
}

func BenchmarkBuildAndWalk(b *testing.B) {
	nothing := func(context.Context, int) hcl.Diagnostics { return nil }
	for _, shape := range shapes {
		for _, n := range []int{1_000, 10_000, 100_000} {
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				for b.Loop() {
					g := shape.build(n)
					if errs := g.Validate(); len(errs) > 0 {
						b.Fatal(errs)
					}
					if res := g.Walk(context.Background(), 10, nothing); res.Err != nil {
						b.Fatal(res.Err)
					}
				}
			})
		}
	}
}

func BenchmarkTopoOrder(b *testing.B) {
	for _, shape := range shapes {
		g := shape.build(100_000)
		b.Run(shape.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := g.TopoOrder(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDiamondClosure(b *testing.B) {
	g := diamonds(1000)
	for b.Loop() {
		g.TransitiveDependents("l0.0")
	}
}
