package graph

import (
	"github.com/tenetplan/tenet/addrs"
)

// uiTargetable is a drawn node's address for -target and -exclude: an
// instance node's instance, an expansion node's resource.
type uiTargetable struct {
	inst   *addrs.AbsResourceInstance
	config *addrs.ConfigResource
}

func (u *UIGraph) targetable(n string) (uiTargetable, bool) {
	if r := u.res[n]; r != nil {
		return uiTargetable{inst: &r.addr}, true
	}
	if c := u.expands[n]; c != nil {
		return uiTargetable{config: c}, true
	}
	return uiTargetable{}, false
}

// moduleContains reports whether the module instance target t holds the
// module instance m: steps match by name and key, except that a last
// step without a key holds every instance.
func moduleContains(t, m addrs.ModuleInstance) bool {
	if len(m) < len(t) {
		return false
	}
	for i, step := range t {
		if step.Name != m[i].Name {
			return false
		}
		if i == len(t)-1 && step.Key == addrs.NoKey {
			return true
		}
		if step.Key != m[i].Key {
			return false
		}
	}
	return true
}

// modulePrefix reports whether module m is t or under it; keyed reports
// whether t has instance keys, which no module (without keys) matches.
func modulePrefix(t addrs.ModuleInstance, m addrs.Module, keysMatchNothing bool) bool {
	if len(m) < len(t) {
		return false
	}
	for i, step := range t {
		if (keysMatchNothing && step.Key != addrs.NoKey) || step.Name != m[i] {
			return false
		}
	}
	return true
}

// targetContains reports whether target holds the node address x, as
// OpenTofu compares them. With byResource, an expansion node is compared
// by resource: an instance target stands for its resource and a module
// instance for its module (how -target selects, and how -exclude finds
// what waits for an excluded resource).
func targetContains(target addrs.Targetable, x uiTargetable, byResource bool) bool {
	if x.config != nil {
		switch t := target.(type) {
		case addrs.ModuleInstance:
			return modulePrefix(t, x.config.Module, !byResource)
		case addrs.AbsResource:
			if byResource {
				return t.Config().String() == x.config.String()
			}
			return t.String() == x.config.String()
		case addrs.AbsResourceInstance:
			if byResource {
				return t.ContainingResource().Config().String() == x.config.String()
			}
			return t.String() == x.config.String()
		}
		return false
	}
	switch t := target.(type) {
	case addrs.ModuleInstance:
		return moduleContains(t, x.inst.Module)
	case addrs.AbsResource:
		return t.String() == x.inst.ContainingResource().String()
	case addrs.AbsResourceInstance:
		return t.String() == x.inst.String()
	}
	return false
}

// ancestors lists every node n waits for, directly or not.
func (u *UIGraph) ancestors(n string) []string {
	seen := map[string]bool{n: true}
	var out []string
	stack := []string{n}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range u.deps[v] {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				stack = append(stack, d)
			}
		}
	}
	return out
}

// target keeps, as OpenTofu does for a plan made with -target or
// -exclude, only the targeted resource nodes (with -exclude: those not
// excluded, nor waiting for an excluded one), what they wait for, and the
// root outputs and validated variables whose resources are all kept.
func (b *uiBuilder) target() {
	u := b.u
	targets, excludes := b.opts.Targets, b.opts.Excludes
	if len(targets) == 0 && len(excludes) == 0 {
		return
	}
	kept := map[string]bool{}
	keep := func(n string) {
		kept[n] = true
		for _, d := range u.ancestors(n) {
			kept[d] = true
		}
	}
	nodes := u.nodes()
	if len(targets) > 0 {
		for _, n := range nodes {
			x, ok := u.targetable(n)
			if !ok {
				continue
			}
			for _, t := range targets {
				if targetContains(t, x, true) {
					keep(n)
					break
				}
			}
		}
	} else {
		excluded := map[string]bool{}
		var targetable []string
		for _, n := range nodes {
			x, ok := u.targetable(n)
			if !ok {
				continue
			}
			targetable = append(targetable, n)
			isExcluded := false
			for _, e := range excludes {
				isExcluded = isExcluded || targetContains(e, x, false)
			}
			if isExcluded {
				excluded[n] = true
			}
			if isExcluded || excludesBelow(excludes, x) {
				for _, d := range u.descendants(n) {
					if y, ok := u.targetable(d); ok && !sameOrWithin(x, y) {
						excluded[d] = true
					}
				}
			}
		}
		for _, n := range targetable {
			if !excluded[n] {
				keep(n)
			}
		}
	}
	for _, n := range nodes {
		if u.class[n] != uiValue {
			continue
		}
		found := 0
		for _, d := range u.ancestors(n) {
			if _, ok := u.targetable(d); !ok {
				continue
			}
			if !kept[d] {
				found = 0
				break
			}
			found++
		}
		if found > 0 {
			keep(n)
		}
	}
	for _, n := range nodes {
		if !kept[n] {
			u.remove(n)
		}
	}
}

// excludesBelow reports whether an exclude, compared by resource, holds
// x (for an instance node, as compared directly).
func excludesBelow(excludes []addrs.Targetable, x uiTargetable) bool {
	for _, e := range excludes {
		if targetContains(e, x, true) {
			return true
		}
	}
	return false
}

// sameOrWithin reports whether x's address holds y's: the same resource
// for an expansion node, the same instance for an instance node.
func sameOrWithin(x, y uiTargetable) bool {
	if x.config != nil {
		if y.config != nil {
			return x.config.String() == y.config.String()
		}
		return x.config.String() == y.inst.ContainingResource().Config().String()
	}
	if y.inst != nil {
		return x.inst.String() == y.inst.String()
	}
	return x.inst.String() == y.config.String()
}

// descendants lists every node that waits for n, directly or not.
func (u *UIGraph) descendants(n string) []string {
	seen := map[string]bool{n: true}
	var out []string
	stack := []string{n}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range u.rdeps[v] {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				stack = append(stack, d)
			}
		}
	}
	return out
}
