package planning

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/state"

	"github.com/tenetplan/tenet/engine/plan/action"
)

// relevantAttributes lists the resource attributes that contribute, by
// reference analysis, to the plan's non-no-op resource changes and root
// output changes (semantics §12). The human renderer shows drift only for
// these, so a change made outside tenet is reported when it can matter to
// the plan. References are followed through locals, module inputs and
// outputs, and the configuration of referenced resources; each (module
// instance, block) is visited once, so the cost is linear in the
// configuration and the state. Refresh-only plans fill it too (as
// OpenTofu does; the renderer shows all drift in that mode anyway).
//
// It runs under w.mu (from assemble) and reads the walk's results only.
func (w *planWalker) relevantAttributes(changes []*plan.ResourceInstanceChange, prior *state.State, outputs []*plan.OutputChange) []plan.ResourceAttr {
	if w.cg == nil {
		return nil
	}
	ra := &relevance{w: w, prior: prior, visited: map[string]bool{}, refs: map[string][]*addrs.Reference{}, seen: map[string]bool{}}
	for _, c := range changes {
		if c.Action == action.NoOp {
			continue
		}
		ra.visit(c.Addr.Module, graph.ResourceKey(c.Addr.Config()))
	}
	for _, oc := range outputs {
		if oc.Action == action.NoOp {
			continue
		}
		ra.visit(addrs.RootModuleInstance, graph.ModKey(nil, "output", oc.Name))
	}
	// Outputs of called modules are never stored, so like OpenTofu we
	// count each one of every module instance as changed.
	for _, m := range w.cfg.Modules() {
		if m.Path.IsRoot() || len(m.Outputs) == 0 {
			continue
		}
		names := graph.SortedNames(m.Outputs)
		for _, mi := range w.ev.Exp.ModuleInstances(m.Path) {
			for _, name := range names {
				ra.visit(mi, graph.ModKey(m.Path, "output", name))
			}
		}
	}
	sort.Slice(ra.out, func(i, j int) bool {
		a, b := ra.out[i], ra.out[j]
		if a.Resource != b.Resource {
			return a.Resource < b.Resource
		}
		return attrpath.ID(a.Attr) < attrpath.ID(b.Attr)
	})
	return ra.out
}

// relevance is the state of one reference analysis.
type relevance struct {
	w       *planWalker
	prior   *state.State                  // the refreshed state
	visited map[string]bool               // module instance + node key
	refs    map[string][]*addrs.Reference // node key -> references it makes
	seen    map[string]bool               // emitted resource + path
	out     []plan.ResourceAttr
	queue   []relevanceItem
}

type relevanceItem struct {
	mi  addrs.ModuleInstance
	key string
}

// visit follows the references of the block named by key in module
// instance mi, and of everything they reach.
func (ra *relevance) visit(mi addrs.ModuleInstance, key string) {
	ra.enqueue(mi, key)
	for len(ra.queue) > 0 {
		it := ra.queue[len(ra.queue)-1]
		ra.queue = ra.queue[:len(ra.queue)-1]
		n := ra.w.cg.Nodes[it.key]
		if n == nil {
			continue
		}
		refMI := it.mi
		if n.Kind == graph.NodeVariable {
			// A module input's argument is evaluated in the calling module.
			refMI = it.mi.Parent()
		}
		for _, ref := range ra.nodeRefs(n) {
			ra.follow(refMI, ref)
		}
	}
}

func (ra *relevance) enqueue(mi addrs.ModuleInstance, key string) {
	vk := mi.String() + "\x00" + key
	if ra.visited[vk] {
		return
	}
	ra.visited[vk] = true
	ra.queue = append(ra.queue, relevanceItem{mi: mi, key: key})
}

// nodeRefs returns the references a block makes that can contribute to
// its value (memoised per block: they are the same in every instance).
func (ra *relevance) nodeRefs(n *graph.Node) []*addrs.Reference {
	if refs, ok := ra.refs[n.Key]; ok {
		return refs
	}
	var refs []*addrs.Reference
	add := func(e hcl.Expression) {
		r, _ := config.ReferencesInExpr(e)
		refs = append(refs, r...)
	}
	switch n.Kind {
	case graph.NodeResource:
		refs = append(refs, n.CountRefs...)
		refs = append(refs, n.BodyRefs...)
	case graph.NodeLocal:
		add(n.Local.Expr)
	case graph.NodeOutput:
		add(n.Output.Expr)
	case graph.NodeVariable:
		if !n.Mod.Path.IsRoot() && n.Mod.Parent != nil {
			if call := n.Mod.Parent.ModuleCalls[n.Mod.Path[len(n.Mod.Path)-1]]; call != nil && call.Config != nil {
				attrs, _ := call.Config.JustAttributes()
				if a, ok := attrs[n.Name]; ok {
					add(a.Expr)
				}
			}
		}
	}
	ra.refs[n.Key] = refs
	return refs
}

// follow resolves one reference made in module instance mi.
func (ra *relevance) follow(mi addrs.ModuleInstance, ref *addrs.Reference) {
	path := mi.Module()
	switch s := ref.Subject.(type) {
	case addrs.LocalValue:
		ra.enqueue(mi, graph.ModKey(path, "local", s.Name))
	case addrs.InputVariable:
		ra.enqueue(mi, graph.ModKey(path, "var", s.Name))
	case addrs.ModuleCall:
		ra.followCall(mi, s.Name, ref.Remaining)
	case addrs.Resource:
		rem := ref.Remaining
		if len(rem) > 0 {
			if idx, ok := rem[0].(hcl.TraverseIndex); ok {
				if key, err := addrs.KeyFromValue(idx.Key); err == nil {
					ra.resource(mi, s, key, true, rem[1:])
					return
				}
			}
		}
		ra.resource(mi, s, addrs.NoKey, false, rem)
	case addrs.ResourceInstance:
		ra.resource(mi, s.Resource, s.Key, true, ref.Remaining)
	}
}

// followCall follows module.NAME[KEY].OUTPUT into the called module's
// outputs: the one named (or all of them) of the instance named (or of
// every instance of the call in mi).
func (ra *relevance) followCall(mi addrs.ModuleInstance, name string, rem hcl.Traversal) {
	childPath := mi.Module().Child(name)
	var insts []addrs.ModuleInstance
	if len(rem) > 0 {
		if idx, ok := rem[0].(hcl.TraverseIndex); ok {
			rem = rem[1:]
			if key, err := addrs.KeyFromValue(idx.Key); err == nil {
				insts = []addrs.ModuleInstance{mi.Child(name, key)}
			}
		}
	}
	if insts == nil {
		for _, ci := range ra.w.ev.Exp.ModuleInstances(childPath) {
			if ci.Parent().Equal(mi) && ci[len(ci)-1].Name == name {
				insts = append(insts, ci)
			}
		}
	}
	outName := ""
	if len(rem) > 0 {
		if a, ok := rem[0].(hcl.TraverseAttr); ok {
			outName = a.Name
		}
	}
	child := ra.w.cfg.Descendant(childPath)
	if child == nil {
		return
	}
	for _, ci := range insts {
		if outName != "" {
			ra.enqueue(ci, graph.ModKey(childPath, "output", outName))
			continue
		}
		for _, o := range graph.SortedNames(child.Outputs) {
			ra.enqueue(ci, graph.ModKey(childPath, "output", o))
		}
	}
}

// resource records the attribute a reference reads from a resource
// (every instance of it when the reference names none and the resource
// is repeated) and follows the resource's own references.
func (ra *relevance) resource(mi addrs.ModuleInstance, r addrs.Resource, key addrs.InstanceKey, keyed bool, rem hcl.Traversal) {
	key2 := graph.ResourceKey(r.InModule(mi.Module()))
	n := ra.w.cg.Nodes[key2]
	if n == nil || n.Res == nil {
		return
	}
	attr, _ := attrpath.FromTraversal(rem)
	abs := r.Absolute(mi)
	switch {
	case keyed:
		ra.emit(abs.Instance(key), attr)
	case n.Res.Count == nil && n.Res.ForEach == nil:
		ra.emit(abs.Instance(addrs.NoKey), attr)
	default:
		if mod := ra.prior.Modules[mi.String()]; mod != nil {
			if rs := mod.Resources[r.String()]; rs != nil {
				for k := range rs.Instances {
					ra.emit(abs.Instance(k), attr)
				}
			}
		}
	}
	ra.enqueue(mi, key2)
}

func (ra *relevance) emit(addr addrs.AbsResourceInstance, attr cty.Path) {
	a := addr.String()
	k := a + "\x00" + attrpath.ID(attr)
	if ra.seen[k] {
		return
	}
	ra.seen[k] = true
	ra.out = append(ra.out, plan.ResourceAttr{Resource: a, Attr: attr})
}
