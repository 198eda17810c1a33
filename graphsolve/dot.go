package graphsolve

import (
	"bufio"
	"cmp"
	"io"
	"slices"
	"strings"
)

// DOT writes g in Graphviz DOT syntax for `tenet graph`. An edge a -> b means
// a depends on b. Vertices are sorted by display name and edges by (from,
// to) name, so the output depends only on the graph's content.
func (g *Graph[K]) DOT(w io.Writer, title string) error {
	names := make([]string, len(g.verts))
	live := make([]int32, 0, g.live)
	for i, v := range g.verts {
		if !v.removed {
			names[i] = g.name(g.keys[i])
			live = append(live, int32(i))
		}
	}
	slices.SortStableFunc(live, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
	type edge struct{ from, to int32 }
	edges := make([]edge, 0, g.edgeCount)
	for _, f := range live {
		for _, t := range g.deps(f) {
			if t >= 0 {
				edges = append(edges, edge{f, t})
			}
		}
	}
	slices.SortStableFunc(edges, func(a, b edge) int {
		return cmp.Or(strings.Compare(names[a.from], names[b.from]), strings.Compare(names[a.to], names[b.to]))
	})

	bw := bufio.NewWriter(w)
	bw.WriteString("digraph ")
	if title != "" {
		bw.WriteString(dotQuote(title) + " ")
	}
	bw.WriteString("{\n\trankdir = \"RL\";\n\tnode [shape = \"rect\"];\n")
	for _, v := range live {
		bw.WriteString("\t" + dotQuote(names[v]) + ";\n")
	}
	for _, e := range edges {
		bw.WriteString("\t" + dotQuote(names[e.from]) + " -> " + dotQuote(names[e.to]) + ";\n")
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func dotQuote(s string) string { return `"` + dotEscaper.Replace(s) + `"` }
