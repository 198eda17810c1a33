package graph

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/state"
)

// uiRes is what the destroy ordering needs to know of a node acting on
// one resource instance object.
type uiRes struct {
	addr addrs.AbsResourceInstance
	// provider is the provider configuration the node uses, if noProvider
	// is unset (dropping a data source's object needs none).
	provider   addrs.AbsProviderConfig
	noProvider bool
	// destroyer nodes destroy an object; creator nodes create, update or
	// read one (changing marks the creators whose change does something).
	destroyer, creator, changing bool
	// referenced nodes are reached by references to their resource.
	referenced bool
	// cbd destroyers run after their replacement is created.
	cbd bool
	// deps are the resources the object depended on when last applied
	// (hasDeps), else nil until derived from the configuration.
	deps    []addrs.ConfigResource
	hasDeps bool
}

func (b *uiBuilder) addObject(name string, r *uiRes) {
	b.u.draw(name, r.addr.Config().String(), "box")
	b.u.class[name] = uiInstance
	b.u.res[name] = r
	b.order = append(b.order, name)
	if r.referenced {
		key := ResourceKey(r.addr.Config())
		b.instances[key] = append(b.instances[key], name)
	}
}

// storedDeps gives the dependencies the state records for addr's current
// object: OpenTofu orders every node of an instance by them, deposed
// objects included.
func storedDeps(st *state.State, addr addrs.AbsResourceInstance) ([]addrs.ConfigResource, bool, bool) {
	if st == nil {
		return nil, false, false
	}
	ri := st.ResourceInstance(addr)
	if ri == nil || ri.Current == nil {
		return nil, false, false
	}
	return ri.Current.Dependencies, true, ri.Current.CreateBeforeDestroy
}

// addStateObjects adds the nodes planning gives the objects in state:
// planning to destroy has one destroying node per current object, other
// plans one per current object of a resource no longer configured; every
// plan has one node per deposed object. Nothing refers to these nodes.
func (b *uiBuilder) addStateObjects() {
	for _, ref := range b.opts.State.AllResourceInstances() {
		r := &uiRes{addr: ref.Addr, provider: ref.Provider}
		r.deps, r.hasDeps, _ = storedDeps(b.opts.State, ref.Addr)
		name := ref.Addr.String()
		switch {
		case ref.Deposed != "":
			name = fmt.Sprintf("%s (deposed %s)", ref.Addr, ref.Deposed)
		case b.opts.Mode == UIModePlanDestroy:
			r.destroyer = true
		case b.configNode(ref.Addr.Config()) == nil:
			// Planning removes an object whose resource is gone.
			name += " (orphan)"
		default:
			continue
		}
		b.addObject(name, r)
	}
}

// addChanges adds the nodes applying gives a plan's changes: one that
// creates, updates or reads the instance, one that destroys or forgets
// its object, or both for a replacement.
func (b *uiBuilder) addChanges() {
	for _, c := range b.opts.Changes {
		deps, hasDeps, stateCBD := storedDeps(b.opts.State, c.Addr)
		var update, del, forget, cbd bool
		switch c.Action {
		case action.NoOp:
			// Checking conditions after applying needs a node.
			update = b.hasConditions(c.Addr.Config())
		case action.Delete:
			del = true
		case action.Forget:
			forget = true
		case action.DeleteThenCreate:
			update, del = true, true
		case action.CreateThenDelete:
			update, del, cbd = true, true, true
		default:
			update = true
		}
		prov := c.Provider
		if update {
			b.addObject(c.Addr.String(), &uiRes{addr: c.Addr, provider: prov, creator: true, changing: c.Action != action.NoOp, referenced: true, deps: deps, hasDeps: hasDeps})
		}
		dk := string(c.DeposedKey)
		if cbd {
			// The current object is deposed before its replacement is
			// created, under a new random key, as OpenTofu does.
			dk = newDeposedKey(b.opts.State, c.Addr)
		}
		switch {
		case del && dk == "":
			r := &uiRes{addr: c.Addr, provider: prov, destroyer: true, deps: deps, hasDeps: hasDeps}
			if c.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
				r.noProvider = true
			}
			r.cbd = stateCBD
			if !hasDeps {
				r.cbd = b.configCBD(c.Addr.Config())
			}
			b.addObject(c.Addr.String()+" (destroy)", r)
		case del:
			b.addObject(fmt.Sprintf("%s (destroy deposed %s)", c.Addr, dk), &uiRes{addr: c.Addr, provider: prov, destroyer: true, cbd: true, deps: deps, hasDeps: hasDeps})
		case forget && dk == "":
			b.addObject(c.Addr.String()+" (forget)", &uiRes{addr: c.Addr, provider: prov, referenced: true})
		case forget:
			b.addObject(fmt.Sprintf("%s (forget deposed %s)", c.Addr, dk), &uiRes{addr: c.Addr, provider: prov})
		}
	}
}

// newDeposedKey picks a random key no object of addr has.
func newDeposedKey(st *state.State, addr addrs.AbsResourceInstance) string {
	var used map[state.DeposedKey]*state.ObjectSrc
	if st != nil {
		if ri := st.ResourceInstance(addr); ri != nil {
			used = ri.Deposed
		}
	}
	for {
		var buf [4]byte
		_, _ = rand.Read(buf[:])
		k := hex.EncodeToString(buf[:])
		if _, ok := used[state.DeposedKey(k)]; !ok {
			return k
		}
	}
}

func (b *uiBuilder) configNode(cr addrs.ConfigResource) *Node {
	n := b.cg.Nodes[ResourceKey(cr)]
	if n == nil || n.Res == nil {
		return nil
	}
	return n
}

func (b *uiBuilder) hasConditions(cr addrs.ConfigResource) bool {
	n := b.configNode(cr)
	return n != nil && len(n.Res.Preconditions)+len(n.Res.Postconditions) > 0
}

func (b *uiBuilder) configCBD(cr addrs.ConfigResource) bool {
	n := b.configNode(cr)
	return n != nil && n.Res.Managed != nil && n.Res.Managed.CreateBeforeDestroy
}

// connectObjects gives the object nodes their edges: the provider, and,
// for the nodes that are not destroying, the references of their
// resource's configuration, its expansion (when no module instance key
// stands between), and their module's expansion and close.
func (b *uiBuilder) connectObjects() {
	u := b.u
	for _, name := range b.order {
		r := u.res[name]
		if !r.noProvider {
			b.useProvider(name, r.provider)
		}
		if r.destroyer {
			continue
		}
		cr := r.addr.Config()
		if !cr.Module.IsRoot() && b.configHasModule(cr.Module) {
			u.edge(closeOf(cr.Module), name)
			call := modPrefix(cr.Module.Parent()) + "module." + cr.Module[len(cr.Module)-1] + " (expand)"
			if u.has(call) {
				u.edge(name, call)
			}
		}
		key := ResourceKey(cr)
		n := b.cg.Nodes[key]
		if n == nil || n.Kind != NodeResource {
			continue
		}
		if !r.creator {
			continue
		}
		if b.hasExpansion() && r.addr.ContainingResource().String() == cr.String() {
			in, _ := uiNames(n)
			u.edge(name, in)
		}
		for _, f := range b.cg.FuncProviders[key] {
			b.useProvider(name, f.Config())
		}
		for _, dep := range ownDeps(b.cg, n) {
			for _, t := range b.targets(dep) {
				if o := u.res[t]; o != nil && inOtherModuleInstance(r.addr.Module, o.addr.Module) {
					continue
				}
				if t != name {
					u.edge(name, t)
				}
			}
		}
	}
}

// checkStart adds, when applying reads a check block's data source, the
// node that starts checking: it waits for the managed instances nothing
// else created waits for, and the check blocks' reads wait for it.
func (b *uiBuilder) checkStart() {
	if b.opts.Mode != UIModeApply {
		return
	}
	u := b.u
	managed := func(r *uiRes) bool { return r.addr.Resource.Resource.Mode == addrs.ManagedResourceMode }
	var leaves, nested []string
	for _, name := range b.order {
		r := u.res[name]
		if !r.creator {
			continue
		}
		if managed(r) {
			leaf := true
			for _, d := range u.dependents(name) {
				if o := u.res[d]; o != nil && o.creator && managed(o) {
					leaf = false
					break
				}
			}
			if leaf {
				leaves = append(leaves, name)
			}
			continue
		}
		if n := b.configNode(r.addr.Config()); n != nil && n.Res.CheckName != "" {
			nested = append(nested, name)
		}
	}
	if len(nested) == 0 {
		return
	}
	const start = "(execute checks)"
	u.add(start)
	u.class[start] = uiPlain
	for _, n := range nested {
		u.edge(n, start)
	}
	for _, l := range leaves {
		u.edge(start, l)
	}
}

// inOtherModuleInstance reports whether a and b are different instances
// of the same module: instances there never wait for each other.
func inOtherModuleInstance(a, b addrs.ModuleInstance) bool {
	return a.Module().Equal(b.Module()) && !a.Equal(b)
}

// destroyEdges orders destroying: an instance's object is destroyed
// before it is created again, an object is destroyed before the objects
// it depends on, and an instance is created or updated after the objects
// of its dependencies are destroyed. A create_before_destroy object is
// destroyed after its replacement is created instead.
func (b *uiBuilder) destroyEdges() {
	u := b.u
	destroyers := map[string][]string{} // instance address -> destroyers
	byResource := map[string][]string{} // config resource -> destroyers
	creators := map[string][]string{}   // config resource -> changing creators
	for _, name := range b.order {
		r := u.res[name]
		switch {
		case r.destroyer:
			destroyers[r.addr.String()] = append(destroyers[r.addr.String()], name)
			cr := r.addr.Config().String()
			byResource[cr] = append(byResource[cr], name)
		case r.creator && r.changing:
			cr := r.addr.Config().String()
			creators[cr] = append(creators[cr], name)
		}
	}
	if len(destroyers) == 0 {
		return
	}
	// A new object's dependencies are the resources it waits for.
	for _, name := range b.order {
		if r := u.res[name]; r.creator && !r.hasDeps {
			r.deps = u.resourceAncestors(name)
		}
	}
	for _, name := range b.order {
		if r := u.res[name]; r.creator {
			for _, d := range destroyers[r.addr.String()] {
				u.edge(name, d)
			}
		}
	}
	for _, name := range b.order {
		r := u.res[name]
		if !r.creator || !r.changing {
			continue
		}
		for _, dep := range r.deps {
			for _, d := range byResource[dep.String()] {
				if !inOtherModuleInstance(r.addr.Module, u.res[d].addr.Module) {
					u.edge(name, d)
				}
			}
		}
	}
	for _, name := range b.order {
		r := u.res[name]
		if !r.destroyer {
			continue
		}
		for _, dep := range r.deps {
			for _, d := range byResource[dep.String()] {
				if !inOtherModuleInstance(u.res[d].addr.Module, r.addr.Module) {
					u.edge(d, name)
				}
			}
			for _, c := range creators[dep.String()] {
				if !inOtherModuleInstance(u.res[c].addr.Module, r.addr.Module) {
					u.edge(c, name)
				}
			}
		}
	}
	// create_before_destroy turns every creator -> destroyer edge around.
	for _, name := range b.order {
		r := u.res[name]
		if !r.destroyer || !r.cbd {
			continue
		}
		for _, from := range u.dependents(name) {
			if f := u.res[from]; f != nil && f.creator {
				u.removeEdge(from, name)
				u.edge(name, from)
			}
		}
	}
}

// resourceAncestors lists the resources name waits for, directly or not,
// other than its own.
func (u *UIGraph) resourceAncestors(name string) []addrs.ConfigResource {
	self := u.res[name].addr.Config()
	seen := map[string]bool{}
	var out []addrs.ConfigResource
	stack := []string{name}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range u.deps[n] {
			if seen[d] {
				continue
			}
			seen[d] = true
			stack = append(stack, d)
			var cr addrs.ConfigResource
			switch {
			case u.res[d] != nil:
				cr = u.res[d].addr.Config()
			case u.expands[d] != nil:
				cr = *u.expands[d]
			default:
				continue
			}
			if !cr.Equal(self) && !slices.ContainsFunc(out, cr.Equal) {
				out = append(out, cr)
			}
		}
	}
	return out
}
