package graph

import "sort"

// uiClass is what a drawn node is to OpenTofu's last graph steps: which
// nodes its pruning may drop, which keep others alive, and which count as
// evaluating references (a provider's close node waits for those).
type uiClass byte

const (
	// uiPlain nodes are never pruned and evaluate nothing: module and
	// provider close nodes, root variables, check reports, root.
	uiPlain uiClass = iota
	// uiTemp nodes hold values only other nodes read (locals, module
	// variables and outputs, variables without validations): pruned when
	// nothing that evaluates references waits for them. They expand per
	// module instance, so they keep the expansions they wait for.
	uiTemp
	// uiValue nodes expand like uiTemp but are never pruned and keep no
	// expansion alive: root outputs, and variables with validations
	// outside destroying.
	uiValue
	// uiExpand nodes expand a resource or a module call: pruned unless an
	// expanding node or an instance waits for them.
	uiExpand
	// uiCheck is a check block's expansion: never pruned, keeps what it
	// waits for.
	uiCheck
	// uiInstance nodes act on one resource instance object (create,
	// update, read, destroy, forget): never pruned.
	uiInstance
	// uiProvider nodes are pruned when nothing that evaluates references
	// waits for them, directly or not.
	uiProvider
)

// referencer reports whether nodes of the class evaluate references;
// only those keep a temporary value and a provider's close waits on them.
func (c uiClass) referencer() bool { return c != uiPlain }

// keepsExpansion reports whether a node of the class, waiting for an
// expansion node, keeps that expansion in the graph.
func (c uiClass) keepsExpansion() bool {
	switch c {
	case uiTemp, uiExpand, uiCheck, uiInstance:
		return true
	}
	return false
}

// prune drops, as OpenTofu does when applying or destroying, the nodes
// nothing needs: values nobody reads, expansions no instance or other
// expansion waits for, providers nothing uses. Dropping a node can make
// the nodes it waited for unneeded, so those are looked at again until
// nothing changes; the conditions only ever get weaker as nodes go, so
// the result does not depend on the order nodes are looked at.
func (u *UIGraph) prune() {
	for removed := true; removed; {
		removed = false
		queue := u.nodes()
		queued := make(map[string]bool, len(queue))
		for _, n := range queue {
			queued[n] = true
		}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			queued[n] = false
			if !u.has(n) || !u.unneeded(n) {
				continue
			}
			deps := make([]string, 0, len(u.deps[n]))
			for d := range u.deps[n] {
				deps = append(deps, d)
			}
			sort.Strings(deps)
			u.remove(n)
			removed = true
			for _, d := range deps {
				if !queued[d] {
					queued[d] = true
					queue = append(queue, d)
				}
			}
		}
	}
}

func (u *UIGraph) unneeded(n string) bool {
	switch u.class[n] {
	case uiTemp:
		for d := range u.rdeps[n] {
			if u.class[d].referencer() {
				return false
			}
		}
		return true
	case uiExpand:
		for d := range u.rdeps[n] {
			if u.class[d].keepsExpansion() {
				return false
			}
		}
		return true
	case uiProvider:
		seen := map[string]bool{}
		stack := u.dependents(n)
		for len(stack) > 0 {
			d := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[d] {
				continue
			}
			seen[d] = true
			if u.class[d].referencer() {
				return false
			}
			stack = append(stack, u.dependents(d)...)
		}
		return true
	}
	return false
}

// closeProviders adds each provider's close node, after the provider and
// after every node that uses it directly.
func (u *UIGraph) closeProviders() {
	for _, p := range u.nodes() {
		if u.class[p] != uiProvider {
			continue
		}
		closer := p + " (close)"
		u.draw(closer, closer, "diamond")
		u.verboseOnly[closer] = true
		u.edge(closer, p)
		for _, d := range u.dependents(p) {
			if d != closer && u.class[d].referencer() {
				u.edge(closer, d)
			}
		}
	}
}

// closeRoot adds "root", waiting for every node nothing else waits for.
func (u *UIGraph) closeRoot() {
	var tops []string
	for _, n := range u.nodes() {
		if len(u.dependents(n)) == 0 {
			tops = append(tops, n)
		}
	}
	u.add("root")
	for _, n := range tops {
		u.edge("root", n)
	}
}

// hasCycle reports whether some node waits for itself.
func (u *UIGraph) hasCycle() bool {
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	var visit func(n string) bool
	visit = func(n string) bool {
		switch state[n] {
		case visiting:
			return true
		case done:
			return false
		}
		state[n] = visiting
		for d := range u.deps[n] {
			if visit(d) {
				return true
			}
		}
		state[n] = done
		return false
	}
	for _, n := range u.nodes() {
		if visit(n) {
			return true
		}
	}
	return false
}

// Cyclic reports whether the drawn graph has a cycle: the configuration
// graph's cycles through resources are not in the graph of planning to
// destroy, which has no resource expansion.
func (u *UIGraph) Cyclic() bool { return u.cyclic }
