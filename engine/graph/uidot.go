package graph

import (
	"github.com/hashicorp/hcl/v2"

	"bufio"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// UIGraph is the graph `tenet graph` draws. It has OpenTofu's node names
// ("terraform_data.a (expand)", "var.x (expand, reference)", "module.m
// (close)", provider nodes, "root") because users feed the DOT to tools
// and compare it with what OpenTofu prints; tenet's own graph has one node
// per block and no bookkeeping nodes, so this one is derived from it.
type UIGraph struct {
	deps  map[string]map[string]bool
	shape map[string]string // drawn nodes: name -> DOT shape
	label map[string]string
	// verboseOnly are the drawn nodes OpenTofu declares only with -verbose
	// (provider close nodes).
	verboseOnly map[string]bool
}

func newUIGraph() *UIGraph {
	return &UIGraph{deps: map[string]map[string]bool{}, shape: map[string]string{}, label: map[string]string{}, verboseOnly: map[string]bool{}}
}

func (u *UIGraph) add(name string) {
	if u.deps[name] == nil {
		u.deps[name] = map[string]bool{}
	}
}

func (u *UIGraph) edge(from, to string) {
	u.add(from)
	u.add(to)
	u.deps[from][to] = true
}

func (u *UIGraph) draw(name, label, shape string) {
	u.add(name)
	u.label[name], u.shape[name] = label, shape
}

// HasEdge reports whether the drawn graph has the edge from -> to.
func (u *UIGraph) HasEdge(from, to string) bool { return u.deps[from][to] }

func modPrefix(p addrs.Module) string {
	if p.IsRoot() {
		return ""
	}
	return p.String() + "."
}

// uiNames gives the name other nodes' edges point at (in) and the name
// this node's own edges leave from (out); they differ only for module
// input variables, which OpenTofu splits into an input and a reference
// node.
func uiNames(n *Node) (in, out string) {
	switch n.Kind {
	case NodeResource, NodeOrphan:
		s := n.Addr.String() + " (expand)"
		return s, s
	case NodeVariable:
		base := modPrefix(n.Mod.Path) + "var." + n.Name
		if n.Mod.Path.IsRoot() {
			return base + " (expand, reference)", base
		}
		return base + " (expand, reference)", base + " (expand, input)"
	case NodeLocal:
		s := modPrefix(n.Mod.Path) + "local." + n.Name + " (expand)"
		return s, s
	case NodeOutput:
		s := modPrefix(n.Mod.Path) + "output." + n.Name + " (expand)"
		return s, s
	case NodeCall:
		s := modPrefix(n.Mod.Path) + "module." + n.Name + " (expand)"
		return s, s
	case NodeCheck:
		s := modPrefix(n.Mod.Path) + "check." + n.Name + " (expand)"
		return s, s
	}
	return n.Key, n.Key
}

// UIPlan derives the plan graph OpenTofu draws from the configuration
// graph, transitively reduced as OpenTofu reduces its own.
func (cg *Graph) UIPlan() *UIGraph { return cg.uiGraph(nil) }

// UIApply derives the apply graph of a plan. changed maps the key of each
// resource the plan creates, updates or reads to its instances' addresses.
// As in OpenTofu, each such instance is a node its dependents, its
// module's close and its provider's close wait for; it follows its
// resource's expansion node, except in a module called with count or
// for_each, where the instances stand in for that node.
func (cg *Graph) UIApply(changed map[string][]string) *UIGraph { return cg.uiGraph(changed) }

func (cg *Graph) uiGraph(changed map[string][]string) *UIGraph {
	u := newUIGraph()
	targets := func(key string) []string {
		if insts := changed[key]; len(insts) > 0 {
			return insts
		}
		in, _ := uiNames(cg.Nodes[key])
		return []string{in}
	}
	u.add("root")
	closeOf := func(p addrs.Module) string { return p.String() + " (close)" }
	for _, key := range cg.Order {
		n := cg.Nodes[key]
		_, out := uiNames(n)
		sources := []string{out}
		if len(changed[key]) > 0 && inExpandedModule(n) {
			sources = changed[key]
		}
		for _, src := range sources {
			u.add(src)
			for _, dep := range cg.G.DependenciesOf(key) {
				for _, t := range targets(dep) {
					u.edge(src, t)
				}
			}
		}
		var home addrs.Module
		if n.Mod != nil {
			home = n.Mod.Path
		}
		switch n.Kind {
		case NodeVariable:
			in, _ := uiNames(n)
			u.edge(in, out)
			if home.IsRoot() {
				u.draw(out, out, "note")
			}
		case NodeResource, NodeOrphan:
			for _, src := range sources {
				u.draw(src, n.Addr.String(), "box")
			}
			for _, t := range targets(key) {
				u.draw(t, n.Addr.String(), "box")
				if sources[0] == out && t != out {
					u.edge(t, out)
				}
			}
			if n.Kind == NodeResource {
				prov := n.Provider.String()
				u.draw(prov, prov, "diamond")
				u.draw(prov+" (close)", prov+" (close)", "diamond")
				u.verboseOnly[prov+" (close)"] = true
				for _, src := range sources {
					u.edge(src, prov)
				}
				for _, t := range targets(key) {
					u.edge(prov+" (close)", t)
				}
			}
		case NodeCheck:
			u.edge(out, strings.TrimSuffix(out, " (expand)")+" (report)")
		case NodeCall:
			child := home.Child(n.Name)
			u.edge(closeOf(child), out)
			if !home.IsRoot() {
				u.edge(closeOf(home), closeOf(child))
			}
		}
		if n.Kind != NodeCall && n.Kind != NodeOrphan && !home.IsRoot() {
			if n.Kind == NodeResource {
				for _, t := range targets(key) {
					u.edge(closeOf(home), t)
				}
			} else {
				u.edge(closeOf(home), out)
			}
			if n.Kind == NodeVariable {
				in, _ := uiNames(n)
				u.edge(closeOf(home), in)
			}
		}
	}
	for name := range u.deps {
		if name != "root" && !u.hasDependents(name) {
			u.edge("root", name)
		}
	}
	u.reduce()
	return u
}

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
	reach := map[string]map[string]bool{}
	var reachable func(string) map[string]bool
	reachable = func(v string) map[string]bool {
		if r, ok := reach[v]; ok {
			return r
		}
		r := map[string]bool{}
		reach[v] = r // guards against cycles, which are reported elsewhere
		for d := range u.deps[v] {
			r[d] = true
			for w := range reachable(d) {
				r[w] = true
			}
		}
		return r
	}
	for _, deps := range u.deps {
		var drop []string
		for d := range deps {
			for other := range deps {
				if other != d && reachable(other)[d] {
					drop = append(drop, d)
					break
				}
			}
		}
		for _, d := range drop {
			delete(deps, d)
		}
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

// ChangedResources gives, by resource key, the addresses of the instances
// a plan creates, updates or reads: the ones OpenTofu's apply graph has
// instance nodes for.
func ChangedResources(p *plan.Plan) map[string][]string {
	changed := map[string][]string{}
	for _, c := range p.Changes {
		switch c.Action {
		case action.Create, action.Update, action.Read, action.DeleteThenCreate, action.CreateThenDelete:
			if c.DeposedKey == "" {
				key := ResourceKey(c.Addr.Config())
				changed[key] = append(changed[key], c.Addr.String())
			}
		}
	}
	return changed
}

// inExpandedModule reports whether n is inside a module called with count
// or for_each, at any depth.
func inExpandedModule(n *Node) bool {
	for m := n.Mod; m != nil && m.Parent != nil && len(m.Path) > 0; m = m.Parent {
		if call := m.Parent.ModuleCalls[m.Path[len(m.Path)-1]]; call != nil && (call.Count != nil || call.ForEach != nil) {
			return true
		}
	}
	return false
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
