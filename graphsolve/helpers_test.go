package graphsolve

import (
	"strings"
	"testing"
)

// build makes a string graph from "a->b" edges (a depends on b) and bare
// vertex names, in order.
func build(t testing.TB, specs ...string) *Graph[string] {
	t.Helper()
	g := New[string](nil)
	for _, s := range specs {
		if from, to, ok := strings.Cut(s, "->"); ok {
			g.AddEdge(from, to)
		} else {
			g.AddVertex(s)
		}
	}
	return g
}

func errorStrings(errs []error) []string {
	var out []string
	for _, err := range errs {
		out = append(out, err.Error())
	}
	return out
}
