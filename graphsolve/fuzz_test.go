package graphsolve

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// FuzzGraph reads pairs of bytes as edge additions (high bit clear) or
// removals among 16 vertices and checks that the algorithms agree with each
// other: an order exists exactly when Validate finds no cycle, the order puts
// every dependency first, and a walk runs every vertex exactly once.
func FuzzGraph(f *testing.F) {
	f.Add([]byte{0x01, 0x12, 0x23})
	f.Add([]byte{0x01, 0x10})
	f.Add([]byte{0x11, 0x01, 0x81})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := New[int](nil)
		for i := 0; i+1 < len(data); i += 2 {
			from, to := int(data[i]&0x0f), int(data[i+1]&0x0f)
			if data[i]&0x80 != 0 {
				g.RemoveEdge(from, to)
			} else {
				g.AddEdge(from, to)
			}
		}
		errs := g.Validate()
		order, err := g.TopoOrder()
		if (err != nil) != (len(errs) > 0) {
			t.Fatalf("TopoOrder error %v but Validate %v", err, errs)
		}
		var calls atomic.Int32
		res := g.Walk(context.Background(), 3, func(context.Context, int) hcl.Diagnostics {
			calls.Add(1)
			return nil
		})
		if err != nil {
			if !errors.Is(res.Err, ErrCycle) || calls.Load() != 0 {
				t.Fatalf("walk of a cyclic graph: err %v, %d calls", res.Err, calls.Load())
			}
			return
		}
		pos := map[int]int{}
		for i, v := range order {
			pos[v] = i
		}
		if len(pos) != g.Len() {
			t.Fatalf("order has %d distinct vertices, graph %d", len(pos), g.Len())
		}
		for _, v := range order {
			for _, d := range g.DependenciesOf(v) {
				if pos[d] >= pos[v] {
					t.Fatalf("%d comes before its dependency %d", v, d)
				}
			}
		}
		if int(calls.Load()) != g.Len() || res.Err != nil {
			t.Fatalf("walk: err %v, %d calls for %d vertices", res.Err, calls.Load(), g.Len())
		}
	})
}
