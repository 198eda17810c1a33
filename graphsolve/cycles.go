package graphsolve

import (
	"errors"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// ErrCycle matches every [CycleError] with [errors.Is].
var ErrCycle = errors.New("dependency cycle")

// CycleError reports one strongly-connected component of more than one
// vertex, or one vertex that depends on itself.
type CycleError[K comparable] struct {
	// Members are the vertices of the cycle, sorted by display name.
	Members []K
	// SelfReference is true when the error is about a single vertex with an
	// edge to itself.
	SelfReference bool
	msg           string
}

func (e *CycleError[K]) Error() string { return e.msg }

// Is makes errors.Is(err, ErrCycle) true.
func (e *CycleError[K]) Is(target error) bool { return target == ErrCycle }

// Validate reports the cycles in g: one [*CycleError] per strongly-connected
// component of more than one vertex ("Cycle: a, b, c", members sorted by
// name) and one per vertex with an edge to itself ("Self reference: a").
// The errors are sorted by message. O(V+E), iterative, so arbitrarily deep
// chains are fine.
func (g *Graph[K]) Validate() []error {
	var errs []error
	for _, comp := range g.components() {
		errs = append(errs, g.cycleError(comp, false))
	}
	for i, v := range g.verts {
		if !v.removed && slices.Contains(g.deps(int32(i)), int32(i)) {
			errs = append(errs, g.cycleError([]int32{int32(i)}, true))
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errs
}

// ValidateDiagnostics is [Graph.Validate] as error diagnostics whose summary
// is the cycle message, the way cycles surface to users.
func (g *Graph[K]) ValidateDiagnostics() hcl.Diagnostics {
	return ErrorDiagnostics(g.Validate())
}

// ErrorDiagnostics turns errors into sourceless error diagnostics, one per
// error, with the error text as summary.
func ErrorDiagnostics(errs []error) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, err := range errs {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: err.Error()})
	}
	return diags
}

func (g *Graph[K]) cycleError(members []int32, self bool) *CycleError[K] {
	type named struct {
		k    K
		name string
	}
	ns := make([]named, len(members))
	for i, m := range members {
		ns[i] = named{g.keys[m], g.name(g.keys[m])}
	}
	slices.SortStableFunc(ns, func(a, b named) int { return strings.Compare(a.name, b.name) })
	e := &CycleError[K]{Members: make([]K, len(ns)), SelfReference: self}
	names := make([]string, len(ns))
	for i, n := range ns {
		e.Members[i], names[i] = n.k, n.name
	}
	if self {
		e.msg = "Self reference: " + names[0]
	} else {
		e.msg = "Cycle: " + strings.Join(names, ", ")
	}
	return e
}

// components returns the strongly-connected components of more than one
// vertex, using Tarjan's algorithm with an explicit stack.
func (g *Graph[K]) components() [][]int32 {
	n := len(g.verts)
	order := make([]int32, n) // DFS discovery number + 1; 0 = unvisited
	low := make([]int32, n)
	onStack := make([]bool, n)
	var stack []int32
	type frame struct{ v, next int32 }
	var calls []frame
	var comps [][]int32
	counter := int32(0)

	visit := func(v int32) {
		counter++
		order[v], low[v] = counter, counter
		stack = append(stack, v)
		onStack[v] = true
		calls = append(calls, frame{v: v})
	}
	for root := range n {
		if g.verts[root].removed || order[root] != 0 {
			continue
		}
		visit(int32(root))
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			deps := g.deps(f.v)
			if int(f.next) < len(deps) {
				w := deps[f.next]
				f.next++
				switch {
				case w < 0:
				case order[w] == 0:
					visit(w) // f is invalid from here on
				case onStack[w]:
					low[f.v] = min(low[f.v], order[w])
				}
				continue
			}
			v := f.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != order[v] {
				continue
			}
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			comp := stack[i:]
			for _, m := range comp {
				onStack[m] = false
			}
			if len(comp) > 1 {
				comps = append(comps, slices.Clone(comp))
			}
			stack = stack[:i]
		}
	}
	return comps
}
