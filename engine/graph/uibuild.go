package graph

import (
	"slices"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/state"
)

// UIMode is which of OpenTofu's graphs `graph` draws.
type UIMode byte

const (
	// UIModePlan is the plan graph (-type=plan and plan-refresh-only).
	UIModePlan UIMode = iota
	// UIModePlanDestroy is the graph of planning to destroy: one node per
	// object in state, no resource expansion.
	UIModePlanDestroy
	// UIModeApply is the graph of applying a plan's changes.
	UIModeApply
	// UIModeDestroy is the graph of applying a destroy plan.
	UIModeDestroy
)

func (m UIMode) destroying() bool { return m == UIModePlanDestroy || m == UIModeDestroy }

func (m UIMode) applying() bool { return m == UIModeApply || m == UIModeDestroy }

// UIOptions says which graph to draw and from what.
type UIOptions struct {
	Mode UIMode
	// Changes are the plan's resource changes (apply modes).
	Changes []*plan.ResourceInstanceChange
	// State is the state the graph is drawn against: the state being
	// planned from, or the plan's prior state when applying.
	State *state.State
	// Targets and Excludes are the -target and -exclude addresses of
	// the plan being applied.
	Targets, Excludes []addrs.Targetable
}

// uiBuilder derives one UIGraph from the configuration graph.
type uiBuilder struct {
	cg   *Graph
	opts UIOptions
	u    *UIGraph
	// instances are, by resource key, the instance nodes that other
	// nodes' references reach (creates, updates, reads, forgets).
	instances map[string][]string
	// order lists the instance and destroy nodes in the order added.
	order []string
}

func modPrefix(p addrs.Module) string {
	if p.IsRoot() {
		return ""
	}
	return p.String() + "."
}

// uiNames gives the name other nodes' edges point at (in) and the name
// this node's own edges leave from (out); they differ only for
// variables, which OpenTofu splits into a reference node and an input
// (module) or value (root) node.
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
func (cg *Graph) UIPlan() *UIGraph { return cg.UI(UIOptions{Mode: UIModePlan}) }

// UI derives the graph OpenTofu draws for opts from the configuration
// graph, in the steps OpenTofu takes: the configuration's nodes and the
// nodes of the objects acted on, reference and module edges, the edges
// that order destroying, pruning (applying and destroying only), close
// nodes for providers and the root, and transitive reduction.
func (cg *Graph) UI(opts UIOptions) *UIGraph {
	b := &uiBuilder{cg: cg, opts: opts, u: newUIGraph(), instances: map[string][]string{}}
	switch opts.Mode {
	case UIModePlanDestroy, UIModePlan:
		b.addStateObjects()
	default:
		b.addChanges()
	}
	b.addConfig()
	b.addRemovedModules()
	b.connectObjects()
	b.checkStart()
	b.destroyEdges()
	if opts.Mode != UIModePlan {
		b.u.prune()
	}
	b.target()
	b.u.closeProviders()
	b.u.closeRoot()
	b.u.cyclic = b.u.hasCycle()
	b.u.reduce()
	return b.u
}

// hasExpansion reports whether resources have expansion nodes: not when
// planning to destroy, which works from the state alone.
func (b *uiBuilder) hasExpansion() bool { return b.opts.Mode != UIModePlanDestroy }

// targets are the nodes a reference to the node key reaches: a
// resource's expansion and its instances, another block's (first) node.
func (b *uiBuilder) targets(key string) []string {
	n := b.cg.Nodes[key]
	switch n.Kind {
	case NodeOrphan:
		return nil
	case NodeResource:
		var out []string
		if b.hasExpansion() {
			in, _ := uiNames(n)
			out = append(out, in)
		}
		return append(out, b.instances[key]...)
	case NodeCheck:
		if b.opts.Mode.destroying() {
			return nil
		}
	}
	in, _ := uiNames(n)
	return []string{in}
}

func closeOf(p addrs.Module) string { return p.String() + " (close)" }

// addConfig adds the configuration's nodes with their reference edges
// and the module expansion and close nodes.
func (b *uiBuilder) addConfig() {
	u, cg, mode := b.u, b.cg, b.opts.Mode
	for _, key := range cg.Order {
		n := cg.Nodes[key]
		switch {
		case n.Kind == NodeOrphan,
			n.Kind == NodeResource && !b.hasExpansion(),
			n.Kind == NodeCheck && mode.destroying():
			continue
		}
		home := n.Mod.Path
		in, out := uiNames(n)
		u.add(out)
		// Root outputs refer to nothing while destroying: their values
		// are only removed.
		if !(n.Kind == NodeOutput && home.IsRoot() && mode.destroying()) {
			for _, dep := range ownDeps(cg, n) {
				// A variable's validations are checked by its reference
				// node, the module call's argument by its input node.
				from := out
				if slices.Contains(n.ValidationDeps, dep) {
					from = in
				}
				for _, t := range b.targets(dep) {
					u.edge(from, t)
				}
			}
			for _, m := range cg.WholeModuleRefs[key] {
				u.edge(out, closeOf(m))
			}
			for _, f := range cg.FuncProviders[key] {
				b.useProvider(out, f.Config())
			}
		}
		switch n.Kind {
		case NodeVariable:
			u.edge(in, out)
			u.class[in] = uiTemp
			if len(n.Variable.Validations) > 0 && !mode.destroying() {
				u.class[in] = uiValue
			}
			if home.IsRoot() {
				u.draw(out, out, "note")
				u.class[out] = uiPlain
			} else {
				u.class[out] = uiTemp
			}
		case NodeLocal:
			u.class[out] = uiTemp
		case NodeOutput:
			u.class[out] = uiTemp
			if home.IsRoot() {
				u.class[out] = uiValue
			}
		case NodeResource:
			u.draw(out, n.Addr.String(), "box")
			u.class[out] = uiExpand
			u.expands[out] = &n.Addr
			b.useProvider(out, n.Provider)
		case NodeCheck:
			u.class[out] = uiCheck
			if mode == UIModePlan {
				report := modPrefix(home) + "check." + n.Name + " (report)"
				u.edge(out, report)
				u.class[report] = uiPlain
				// The report also waits for the check's own data source.
				for _, r := range n.Check.DataResources {
					u.edge(r.Addr().InModule(home).String()+" (expand)", report)
				}
			}
		case NodeCall:
			child := home.Child(n.Name)
			u.class[out] = uiExpand
			u.edge(closeOf(child), out)
			u.class[closeOf(child)] = uiPlain
			if !home.IsRoot() {
				u.edge(closeOf(home), closeOf(child))
			}
		}
		if n.Kind != NodeCall && !home.IsRoot() {
			u.edge(closeOf(home), out)
			if n.Kind == NodeVariable {
				u.edge(closeOf(home), in)
			}
		}
	}
}

// useProvider makes node wait for the provider configuration prov. A
// provider node waits for what its configuration refers to and, in a
// child module, for the module's expansion; the module's close waits
// for it.
func (b *uiBuilder) useProvider(node string, prov addrs.AbsProviderConfig) {
	u, name := b.u, prov.String()
	if u.class[name] != uiProvider {
		u.draw(name, name, "diamond")
		u.class[name] = uiProvider
		for _, dep := range b.cg.ProviderDeps[name] {
			for _, t := range b.targets(dep) {
				u.edge(name, t)
			}
		}
		if m := prov.Module; !m.IsRoot() && b.configHasModule(m) {
			u.edge(name, modPrefix(m.Parent())+"module."+m[len(m)-1]+" (expand)")
			u.edge(closeOf(m), name)
		}
	}
	u.edge(node, name)
}

// addRemovedModules adds a close node, waiting for nothing, for each
// module that has objects in state but is no longer called.
func (b *uiBuilder) addRemovedModules() {
	if b.opts.State == nil {
		return
	}
	for _, m := range b.opts.State.Modules {
		path := m.Addr.Module()
		if b.configHasModule(path) {
			continue
		}
		b.u.add(closeOf(path))
		b.u.class[closeOf(path)] = uiPlain
	}
}

// configHasModule reports whether the configuration calls the module
// at path.
func (b *uiBuilder) configHasModule(path addrs.Module) bool {
	for i := range path {
		if b.cg.Nodes[ModKey(path[:i], "module", path[i])] == nil {
			return false
		}
	}
	return true
}

// ownDeps are the dependencies of n's own expressions: without those only
// its provider configuration gives it, which OpenTofu draws as the
// provider's.
func ownDeps(cg *Graph, n *Node) []string {
	deps := cg.G.DependenciesOf(n.Key)
	if len(n.ProviderOnlyDeps) == 0 {
		return deps
	}
	return slices.DeleteFunc(slices.Clone(deps), func(d string) bool { return slices.Contains(n.ProviderOnlyDeps, d) })
}
