package graph

import (
	"github.com/hashicorp/hcl/v2"

	"bufio"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tenetplan/tenet/addrs"
)

// UIGraph is the graph `tenet graph` draws. It has OpenTofu's node names
// ("terraform_data.a (expand)", "var.x (expand, reference)", "module.m
// (close)", provider nodes, "root", instance and "(destroy)" nodes)
// because users feed the DOT to tools and compare it with what OpenTofu
// prints; tenet's own graph has one node per block and no bookkeeping
// nodes, so this one is derived from it (see uibuild.go).
type UIGraph struct {
	deps  map[string]map[string]bool
	rdeps map[string]map[string]bool // the same edges, by target
	shape map[string]string          // drawn nodes: name -> DOT shape
	label map[string]string
	// verboseOnly are the drawn nodes OpenTofu declares only with -verbose
	// (provider close nodes).
	verboseOnly map[string]bool
	// class says what each node is to the pruning and closing steps.
	class map[string]uiClass
	// res holds the resource facts of instance and destroy nodes.
	res map[string]*uiRes
	// expands maps each resource expansion node to its resource.
	expands map[string]*addrs.ConfigResource
	// cyclic is set when the graph had a cycle before reduction.
	cyclic bool
}

func newUIGraph() *UIGraph {
	return &UIGraph{deps: map[string]map[string]bool{}, rdeps: map[string]map[string]bool{}, shape: map[string]string{}, label: map[string]string{}, verboseOnly: map[string]bool{}, class: map[string]uiClass{}, res: map[string]*uiRes{}, expands: map[string]*addrs.ConfigResource{}}
}

func (u *UIGraph) add(name string) {
	if u.deps[name] == nil {
		u.deps[name] = map[string]bool{}
		u.rdeps[name] = map[string]bool{}
	}
}

func (u *UIGraph) edge(from, to string) {
	u.add(from)
	u.add(to)
	u.deps[from][to] = true
	u.rdeps[to][from] = true
}

func (u *UIGraph) removeEdge(from, to string) {
	delete(u.deps[from], to)
	delete(u.rdeps[to], from)
}

func (u *UIGraph) has(name string) bool { _, ok := u.deps[name]; return ok }

func (u *UIGraph) draw(name, label, shape string) {
	u.add(name)
	u.label[name], u.shape[name] = label, shape
}

// remove deletes a node and its edges both ways.
func (u *UIGraph) remove(name string) {
	for d := range u.deps[name] {
		delete(u.rdeps[d], name)
	}
	for d := range u.rdeps[name] {
		delete(u.deps[d], name)
	}
	delete(u.deps, name)
	delete(u.rdeps, name)
	delete(u.shape, name)
	delete(u.label, name)
	delete(u.verboseOnly, name)
	delete(u.class, name)
	delete(u.res, name)
	delete(u.expands, name)
}

// dependents lists the nodes with an edge to name, sorted.
func (u *UIGraph) dependents(name string) []string {
	out := make([]string, 0, len(u.rdeps[name]))
	for from := range u.rdeps[name] {
		out = append(out, from)
	}
	sort.Strings(out)
	return out
}

// nodes lists every node, sorted.
func (u *UIGraph) nodes() []string {
	out := make([]string, 0, len(u.deps))
	for n := range u.deps {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// HasEdge reports whether the drawn graph has the edge from -> to.
func (u *UIGraph) HasEdge(from, to string) bool { return u.deps[from][to] }

func (u *UIGraph) hasDependents(name string) bool {
	for _, deps := range u.deps {
		if deps[name] {
			return true
		}
	}
	return false
}

// reduce removes every edge a -> c that a longer path a -> b -> ... -> c
// implies. On an acyclic graph the result is unique, so it matches
// OpenTofu's reduction whatever order either visits nodes in.
func (u *UIGraph) reduce() {
	names := u.nodes()
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	words := (len(names) + 63) / 64
	// reach[i] is the set of nodes i reaches by one edge or more.
	reach := make([][]uint64, len(names))
	var visit func(i int) []uint64
	visit = func(i int) []uint64 {
		if r := reach[i]; r != nil {
			return r
		}
		r := make([]uint64, words)
		reach[i] = r // guards against cycles, which are reported elsewhere
		for d := range u.deps[names[i]] {
			j := index[d]
			r[j/64] |= 1 << (j % 64)
			for w, bits := range visit(j) {
				r[w] |= bits
			}
		}
		return r
	}
	type edge struct{ from, to string }
	var drop []edge
	union := make([]uint64, words)
	for _, n := range names {
		clear(union)
		for d := range u.deps[n] {
			for w, bits := range visit(index[d]) {
				union[w] |= bits
			}
		}
		for d := range u.deps[n] {
			if j := index[d]; union[j/64]&(1<<(j%64)) != 0 {
				drop = append(drop, edge{n, d})
			}
		}
	}
	for _, e := range drop {
		u.removeEdge(e.from, e.to)
	}
}

// DOT writes the graph as OpenTofu's graph command does: drawn nodes
// (resources, providers, root variables) declared with a label and shape,
// then every edge (with verbose, provider close nodes are drawn too), each group sorted, all inside a "root" subgraph.
func (u *UIGraph) DOT(w io.Writer, verbose bool) error {
	quoted := func(name string) string {
		q := strconv.Quote("[root] " + name)
		return q
	}
	var drawn []string
	for name := range u.shape {
		if u.verboseOnly[name] && !verbose {
			continue
		}
		drawn = append(drawn, name)
	}
	// OpenTofu sorts nodes by their escaped names without the quotes, so
	// "x" comes before "x (expand)".
	escaped := func(name string) string { q := strconv.Quote(name); return q[1 : len(q)-1] }
	sort.Slice(drawn, func(i, j int) bool { return escaped(drawn[i]) < escaped(drawn[j]) })
	var edges []string
	for from, deps := range u.deps {
		for to := range deps {
			edges = append(edges, quoted(from)+" -> "+quoted(to))
		}
	}
	sort.Strings(edges)
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n")
	for _, name := range drawn {
		bw.WriteString("\t\t" + quoted(name) + " [label = " + strconv.Quote(u.label[name]) + ", shape = " + strconv.Quote(u.shape[name]) + "]\n")
	}
	for _, e := range edges {
		bw.WriteString("\t\t" + e + "\n")
	}
	bw.WriteString("\t}\n}\n")
	return bw.Flush()
}

// UICycles renames the members of cycle errors to the node names OpenTofu's
// graph command reports them by: its plan graph has only the expansion
// node of a resource, so "terraform_data.a" becomes "terraform_data.a
// (expand)". Members stay in the order they were reported in.
func UICycles(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		members, ok := strings.CutPrefix(d.Summary, "Cycle: ")
		if !ok {
			out[i] = d
			continue
		}
		renamed := splitCycleMembers(members)
		for j, m := range renamed {
			if !strings.HasSuffix(m, ")") {
				renamed[j] = m + " (expand)"
			}
		}
		c := *d
		c.Summary = "Cycle: " + strings.Join(renamed, ", ")
		out[i] = &c
	}
	return out
}

// WithoutResourceCycles drops from diags the cycles that go through a
// resource.
func (cg *Graph) WithoutResourceCycles(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if members, ok := strings.CutPrefix(d.Summary, "Cycle: "); ok {
			if slices.ContainsFunc(splitCycleMembers(members), func(m string) bool { return cg.Nodes["resource:"+m] != nil }) {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// splitCycleMembers splits "a, b (expand, input), c" at the commas that
// are outside parentheses.
func splitCycleMembers(s string) []string {
	var members []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				members = append(members, s[start:i])
				start = i + len(", ")
				i++
			}
		}
	}
	return append(members, s[start:])
}
