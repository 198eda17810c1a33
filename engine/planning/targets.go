package planning

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/graphsolve"
)

// -target, -exclude and -replace (semantics §10). Targeting works on the
// static graph first (which nodes are walked at all, which resource nodes
// may change), then on instances once each resource has expanded.

// targetFilter is the outcome of -target or -exclude for one plan.
type targetFilter struct {
	// change holds the resource nodes whose instances may get changes;
	// other walked resource nodes are only evaluated.
	change map[string]bool
	// only: for a node named by a target, the targets that name it; only
	// the instances they match are planned. Absent: every instance.
	only map[string][]addrs.Targetable
	// except: for a node named by an exclude, the excludes that name it;
	// the instances they match are left alone.
	except map[string][]addrs.Targetable
}

// targetGraph checks the single-run options and returns the graph to walk:
// the whole configuration graph, or the part -target / -exclude keep.
func (w *planWalker) targetGraph() (*graphsolve.Graph[string], hcl.Diagnostics) {
	var diags hcl.Diagnostics
	if len(w.opts.ForceReplace) > 0 && w.opts.Mode != plan.NormalMode {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported plan mode",
			Detail:   fmt.Sprintf("Resource replacement with -replace is only available in the normal planning mode, not in %s mode. Remove the -replace options to make this plan.", modeName(w.opts.Mode)),
		}}
	}
	// Indexing changes for replace_triggered_by costs per change: only
	// when some resource uses it.
	g := w.cg.G
	if len(w.opts.Targets) == 0 && len(w.opts.Excludes) == 0 {
		return g, nil
	}
	diags = append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Resource targeting is in effect",
		Detail:   "You are creating a plan with either the -target option or the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target and -exclude options are not for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when tenet specifically suggests to use it as part of an error message.",
	})
	f := &targetFilter{change: map[string]bool{}, only: map[string][]addrs.Targetable{}, except: map[string][]addrs.Targetable{}}
	w.targets = f
	destroy := w.opts.Mode == plan.DestroyMode
	var walk map[string]bool
	if len(w.opts.Targets) > 0 {
		named := w.namedResourceNodes(w.opts.Targets, f.only)
		seeds := named
		if destroy {
			// Destroying a target first destroys everything that depends on it.
			seeds = append(seeds, resourceKeysOf(w.cg, g.TransitiveDependents(named...))...)
		}
		deps := g.TransitiveDependencies(seeds...)
		walk = setOf(seeds, deps)
		for _, k := range seeds {
			f.change[k] = true
		}
		for _, k := range deps {
			delete(f.only, k) // needed whole by another target
			if !destroy {
				f.change[k] = true
			}
		}
		if destroy {
			for _, k := range resourceKeysOf(w.cg, g.TransitiveDependents(named...)) {
				delete(f.only, k)
			}
		}
		w.keepRootOutputs(walk, walk)
	} else {
		named := w.namedResourceNodes(w.opts.Excludes, f.except)
		walk = map[string]bool{}
		var removed map[string]bool
		if destroy {
			// Keeping an object also keeps everything it depends on.
			removed = setOf(resourceKeysOf(w.cg, g.TransitiveDependencies(named...)))
		} else {
			removed = setOf(g.TransitiveDependents(named...))
		}
		for _, k := range w.cg.Order {
			if destroy || !removed[k] {
				walk[k] = true
				if !removed[k] {
					f.change[k] = true
				}
			}
		}
		targeted := make(map[string]bool, len(walk))
		for k := range walk {
			targeted[k] = true
		}
		for _, k := range named {
			if removed[k] {
				// Depended upon by an excluded node: kept whole.
				delete(f.except, k)
			} else if excludedWhole(f.except[k]) {
				delete(targeted, k)
			}
		}
		w.keepRootOutputs(walk, targeted)
	}
	return g.Subgraph(func(k string) bool { return walk[k] }), diags
}

// namedResourceNodes returns the resource nodes the addresses name, and
// records per node which addresses name it.
func (w *planWalker) namedResourceNodes(ts []addrs.Targetable, by map[string][]addrs.Targetable) []string {
	var out []string
	for _, key := range w.cg.Order {
		n := w.cg.Nodes[key]
		if n.Kind != graph.NodeResource && n.Kind != graph.NodeOrphan {
			continue
		}
		for _, t := range ts {
			if targetNamesNode(t, n.Addr) {
				if by[key] == nil {
					out = append(out, key)
				}
				by[key] = append(by[key], t)
			}
		}
	}
	return out
}

// keepRootOutputs decides which root outputs a plan with -target or
// -exclude walks, as OpenTofu does: an output derived from at least one
// resource, every one of them targeted (a walked resource that -exclude
// names whole is not), is kept with everything it depends on; any other
// is left out, an output of constants or variables alone included.
func (w *planWalker) keepRootOutputs(walk, targeted map[string]bool) {
	for _, key := range w.cg.Order {
		n := w.cg.Nodes[key]
		if n.Kind != graph.NodeOutput || !n.Mod.Path.IsRoot() {
			continue
		}
		deps := w.cg.G.TransitiveDependencies(key)
		resources := 0
		for _, d := range deps {
			if dn := w.cg.Nodes[d]; dn == nil || (dn.Kind != graph.NodeResource && dn.Kind != graph.NodeOrphan) {
				continue
			}
			if !targeted[d] {
				resources = 0
				break
			}
			resources++
		}
		if resources == 0 {
			delete(walk, key)
			continue
		}
		walk[key] = true
		for _, d := range deps {
			walk[d] = true
		}
	}
}

// excludedWhole reports whether one of the excludes naming a resource
// node names all of its instances: the resource, or a module containing
// it, without instance keys.
func excludedWhole(excludes []addrs.Targetable) bool {
	for _, t := range excludes {
		var mod addrs.ModuleInstance
		switch t := t.(type) {
		case addrs.AbsResource:
			mod = t.Module
		case addrs.ModuleInstance:
			mod = t
		default:
			continue
		}
		keyless := true
		for _, step := range mod {
			keyless = keyless && step.Key == addrs.NoKey
		}
		if keyless {
			return true
		}
	}
	return false
}

func resourceKeysOf(cg *graph.Graph, keys []string) []string {
	out := keys[:0:0]
	for _, k := range keys {
		if n := cg.Nodes[k]; n != nil && (n.Kind == graph.NodeResource || n.Kind == graph.NodeOrphan) {
			out = append(out, k)
		}
	}
	return out
}

func setOf(lists ...[]string) map[string]bool {
	out := map[string]bool{}
	for _, l := range lists {
		for _, k := range l {
			out[k] = true
		}
	}
	return out
}

// targetNamesNode reports whether an address names (some instances of) a
// configuration resource.
func targetNamesNode(t addrs.Targetable, cr addrs.ConfigResource) bool {
	switch t := t.(type) {
	case addrs.ModuleInstance:
		mod := t.Module()
		return len(cr.Module) >= len(mod) && cr.Module[:len(mod)].Equal(mod)
	case addrs.AbsResource:
		return t.Config().Equal(cr)
	case addrs.AbsResourceInstance:
		return t.Config().Equal(cr)
	}
	return false
}

// targetMatchesInstance reports whether an address names a resource
// instance. A keyless last module step matches every instance of that
// module; other keyless steps match only unkeyed instances.
func targetMatchesInstance(t addrs.Targetable, addr addrs.AbsResourceInstance) bool {
	switch t := t.(type) {
	case addrs.ModuleInstance:
		if len(addr.Module) < len(t) {
			return false
		}
		for i, step := range t {
			got := addr.Module[i]
			if got.Name != step.Name {
				return false
			}
			if i == len(t)-1 && step.Key == addrs.NoKey {
				continue
			}
			if got.Key != step.Key {
				return false
			}
		}
		return true
	case addrs.AbsResource:
		return addr.Resource.Resource == t.Resource && addr.Module.Equal(t.Module)
	case addrs.AbsResourceInstance:
		return addr.Equal(t)
	}
	return false
}

// targetsInstance reports whether targeting lets an instance of node n be
// planned.
func (w *planWalker) targetsInstance(n *graph.Node, addr addrs.AbsResourceInstance) bool {
	f := w.targets
	if f == nil {
		return true
	}
	if !f.change[n.Key] {
		return false
	}
	if ts, ok := f.only[n.Key]; ok {
		for _, t := range ts {
			if targetMatchesInstance(t, addr) {
				return true
			}
		}
		return false
	}
	for _, t := range f.except[n.Key] {
		if targetMatchesInstance(t, addr) {
			return false
		}
	}
	return true
}

// filterTargetInstances drops the instances targeting leaves alone.
func (w *planWalker) filterTargetInstances(n *graph.Node, items []*instPlan) []*instPlan {
	if w.targets == nil {
		return items
	}
	kept := items[:0:0]
	for _, it := range items {
		if w.targetsInstance(n, it.addr) {
			kept = append(kept, it)
		}
	}
	return kept
}

// forceReplaceWarnings warns about -replace addresses without a key for a
// resource that has count or for_each: they match no instance.
func (w *planWalker) forceReplaceWarnings() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range w.opts.ForceReplace {
		if a.Resource.Key != addrs.NoKey {
			continue
		}
		m := w.cfg.Descendant(a.Module.Module())
		if m == nil {
			continue
		}
		r := m.ManagedResources[a.Resource.Resource.String()]
		if r == nil || (r.Count == nil && r.ForEach == nil) {
			continue
		}
		var suggestions []string
		for _, c := range w.res.recordedChanges() {
			if c.DeposedKey == "" && c.Addr.ContainingResource().Equal(a.ContainingResource()) {
				suggestions = append(suggestions, fmt.Sprintf("\n  -replace=%q", c.Addr.String()))
			}
		}
		detail := fmt.Sprintf("The -replace option names %s, which has no instance without a key: the resource uses count or for_each, so this option replaces nothing.", a)
		if len(suggestions) > 0 {
			detail += " Did you mean one of these?\n" + strings.Join(suggestions, "")
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Incompletely-matched force-replace resource instance", Detail: detail})
	}
	return diags
}
