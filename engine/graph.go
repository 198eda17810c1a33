package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/graphsolve"
	"github.com/tenetplan/tenet/providers"
)

type nodeKind byte

const (
	nodeVariable nodeKind = 'v'
	nodeLocal    nodeKind = 'l'
	nodeOutput   nodeKind = 'o'
	nodeCall     nodeKind = 'c' // expansion of a module call
	nodeResource nodeKind = 'r' // a resource block (all its instances)
	nodeOrphan   nodeKind = 'x' // a resource in state with no resource block
	nodeProvider nodeKind = 'p' // a provider configuration
	nodeDestroy  nodeKind = 'd' // apply only: the deletes of one resource
	nodeCheck    nodeKind = 'k' // a check block's assertions
)

// gnode is one vertex of the configuration graph. Nodes are static: one
// per block per module path; the walk handles every module instance.
type gnode struct {
	kind nodeKind
	key  string
	mod  *config.Module

	name     string
	variable *config.Variable
	local    *config.Local
	output   *config.Output
	call     *config.ModuleCall
	res      *config.Resource
	check    *config.Check
	provCfg  *config.Provider // nil for an implied empty provider configuration

	// resource data
	addr      addrs.ConfigResource
	provider  addrs.AbsProviderConfig
	schema    *providers.Schema
	spec      hcldec.Spec
	bodyRefs  []*addrs.Reference
	countRefs []*addrs.Reference
	dependsOn []string // resource node keys named by depends_on (incl. module depends_on)
	resDeps   []string // nearest upstream resource node keys (through locals etc.)
}

func (n *gnode) String() string { return n.key }

// configGraph is the graph of one configuration plus the resources only
// the state knows about.
type configGraph struct {
	g     *graphsolve.Graph[string]
	nodes map[string]*gnode
	order []string // insertion order, deterministic
}

func resourceKey(cr addrs.ConfigResource) string { return "resource:" + cr.String() }

func (cg *configGraph) add(n *gnode) {
	if _, ok := cg.nodes[n.key]; ok {
		return
	}
	cg.nodes[n.key] = n
	cg.order = append(cg.order, n.key)
	cg.g.AddVertex(n.key)
}

func modKey(m addrs.Module, kind, name string) string {
	if len(m) == 0 {
		return kind + ":" + name
	}
	return kind + ":" + m.String() + "." + name
}

// buildGraph builds the configuration graph: one node per block, edges
// from references. It also validates references (undeclared objects).
func buildGraph(ctx context.Context, cfg *config.Config, ps *providercall.Set, orphans []addrs.ConfigResource) (*configGraph, hcl.Diagnostics) {
	cg := &configGraph{g: graphsolve.New[string](func(s string) string { return displayName(s) }), nodes: map[string]*gnode{}}
	var diags hcl.Diagnostics
	mods := cfg.Modules()
	// Vertices first, so references can find them.
	for _, m := range mods {
		for _, name := range sortedNames(m.Variables) {
			cg.add(&gnode{kind: nodeVariable, key: modKey(m.Path, "var", name), mod: m, name: name, variable: m.Variables[name]})
		}
		for _, name := range sortedNames(m.Locals) {
			cg.add(&gnode{kind: nodeLocal, key: modKey(m.Path, "local", name), mod: m, name: name, local: m.Locals[name]})
		}
		for _, name := range sortedNames(m.Outputs) {
			cg.add(&gnode{kind: nodeOutput, key: modKey(m.Path, "output", name), mod: m, name: name, output: m.Outputs[name]})
		}
		for _, name := range sortedNames(m.ModuleCalls) {
			cg.add(&gnode{kind: nodeCall, key: modKey(m.Path, "module", name), mod: m, name: name, call: m.ModuleCalls[name]})
		}
		for _, name := range sortedNames(m.Checks) {
			cg.add(&gnode{kind: nodeCheck, key: modKey(m.Path, "check", name), mod: m, name: name, check: m.Checks[name]})
		}
		for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources} {
			for _, name := range sortedNames(rs) {
				r := rs[name]
				addr := r.Addr().InModule(m.Path)
				n := &gnode{kind: nodeResource, key: resourceKey(addr), mod: m, name: name, res: r, addr: addr}
				d := resolveResourceProvider(ctx, n, ps)
				diags = append(diags, d...)
				cg.add(n)
			}
		}
	}
	for _, o := range orphans {
		key := resourceKey(o)
		if _, ok := cg.nodes[key]; ok {
			continue
		}
		cg.add(&gnode{kind: nodeOrphan, key: key, addr: o, mod: cfg.Descendant(o.Module)})
	}
	if diags.HasErrors() {
		return cg, diags
	}
	// Edges.
	for _, key := range append([]string(nil), cg.order...) {
		n := cg.nodes[key]
		diags = append(diags, cg.connect(n)...)
	}
	diags = append(diags, cg.connectImports(cfg)...)
	cg.computeResourceDeps()
	return cg, diags
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// displayName turns a node key into the name cycle errors show.
func displayName(key string) string {
	i := strings.IndexByte(key, ':')
	if i < 0 {
		return key
	}
	kind, rest := key[:i], key[i+1:]
	switch kind {
	case "resource":
		return rest
	case "destroy":
		return rest + " (destroy)"
	case "check":
		if j := strings.LastIndexByte(rest, '.'); j >= 0 {
			return rest[:j] + ".check." + rest[j+1:]
		}
		return "check." + rest
	case "var", "local", "output":
		// module.a.local.x style
		return rest
	case "module":
		return "module." + rest + " (expand)"
	case "provider":
		return rest
	}
	return key
}

func resolveResourceProvider(ctx context.Context, n *gnode, ps *providercall.Set) hcl.Diagnostics {
	r := n.res
	fqn, ref := n.mod.ProviderForResource(r)
	// A child module without its own provider block uses its ancestors'.
	// A configuration passed in through a module call's providers map is
	// the caller's, under the caller's name.
	declMod := n.mod
	key, alias := ref.Name, ref.Alias
	if alias != "" {
		key += "." + alias
	}
	for declMod != nil {
		if _, ok := declMod.ProviderConfigs[key]; ok {
			break
		}
		if pp := passedProvider(declMod, key); pp != nil {
			key, alias = pp.InParent.String(), pp.InParent.Alias
		}
		declMod = declMod.Parent
	}
	var path addrs.Module
	if declMod != nil {
		path = declMod.Path
		n.provCfg = declMod.ProviderConfigs[key]
	}
	n.provider = addrs.AbsProviderConfig{Module: path, Provider: fqn, Alias: alias}
	sch, err := ps.ResourceSchema(ctx, fqn, r.Mode, r.Type)
	if err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Provider not available",
			Detail:   err.Error() + ".",
			Subject:  r.DeclRange.Ptr(),
		}}
	}
	if sch == nil {
		what := "resource type"
		if r.Mode == addrs.DataResourceMode {
			what = "data source"
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + what,
			Detail:   fmt.Sprintf("The provider %s does not support %s %q.", fqn, what, r.Type),
			Subject:  r.TypeRange.Ptr(),
		}}
	}
	n.schema = sch
	n.spec = ps.Spec(fqn, r.Mode, r.Type, sch.Block)
	return nil
}

// passedProvider finds the entry of the providers map of m's module call
// that gives m its provider configuration key, or nil.
func passedProvider(m *config.Module, key string) *config.PassedProvider {
	if m.Parent == nil || len(m.Path) == 0 {
		return nil
	}
	call := m.Parent.ModuleCalls[m.Path[len(m.Path)-1]]
	if call == nil {
		return nil
	}
	for i := range call.Providers {
		if call.Providers[i].InChild.String() == key {
			return &call.Providers[i]
		}
	}
	return nil
}

// connect adds the edges of one node from the references it makes.
func (cg *configGraph) connect(n *gnode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var refs []*addrs.Reference
	addExpr := func(e hcl.Expression) {
		if e == nil {
			return
		}
		r, d := config.ReferencesInExpr(e)
		diags = append(diags, d...)
		refs = append(refs, r...)
	}
	var moduleWide []string // module call expansion that owns this node
	if n.kind != nodeOrphan && !n.mod.Path.IsRoot() {
		moduleWide = append(moduleWide, modKey(n.mod.Path.Parent(), "module", n.mod.Path[len(n.mod.Path)-1]))
	}
	switch n.kind {
	case nodeVariable:
		if !n.mod.Path.IsRoot() {
			// Inputs are evaluated in the calling module.
			parent := n.mod.Parent
			call := parent.ModuleCalls[n.mod.Path[len(n.mod.Path)-1]]
			if call != nil {
				attrs, _ := call.Config.JustAttributes()
				if a, ok := attrs[n.name]; ok {
					r, d := config.ReferencesInExpr(a.Expr)
					diags = append(diags, d...)
					diags = append(diags, cg.resolve(n, parent, r)...)
				}
			}
		}
		for _, v := range n.variable.Validations {
			addExpr(v.Condition)
			addExpr(v.ErrorMessage)
		}
		// Validation conditions refer to the variable itself: drop that edge.
		var kept []*addrs.Reference
		for _, r := range refs {
			if iv, ok := r.Subject.(addrs.InputVariable); ok && iv.Name == n.name {
				continue
			}
			kept = append(kept, r)
		}
		refs = kept
	case nodeLocal:
		addExpr(n.local.Expr)
	case nodeOutput:
		addExpr(n.output.Expr)
		addRules(addExpr, n.output.Preconditions)
		for _, t := range n.output.DependsOn {
			diags = append(diags, cg.dependsOnEdge(n, t)...)
		}
	case nodeCheck:
		addRules(addExpr, n.check.Asserts)
		// Assertions run after the check's own data sources are read.
		for _, r := range n.check.DataResources {
			cg.g.AddEdge(n.key, resourceKey(r.Addr().InModule(n.mod.Path)))
		}
	case nodeCall:
		addExpr(n.call.Count)
		addExpr(n.call.ForEach)
		for _, t := range n.call.DependsOn {
			diags = append(diags, cg.dependsOnEdge(n, t)...)
		}
	case nodeResource:
		r := n.res
		addExpr(r.Count)
		addExpr(r.ForEach)
		n.countRefs = append(n.countRefs, refs...)
		bodyRefs, d := eval.BodyReferences(r.Config, n.spec)
		diags = append(diags, d...)
		n.bodyRefs = bodyRefs
		refs = append(refs, bodyRefs...)
		for _, t := range r.DependsOn {
			diags = append(diags, cg.dependsOnEdge(n, t)...)
		}
		addRules(addExpr, r.Preconditions)
		addRules(addExpr, r.Postconditions)
		if r.Managed != nil {
			for _, e := range r.Managed.ReplaceTriggeredBy {
				addExpr(e)
			}
		}
		if n.provCfg != nil && n.provCfg.Config != nil {
			declMod := n.mod
			for declMod != nil && !declMod.Path.Equal(n.provider.Module) {
				declMod = declMod.Parent
			}
			if declMod != nil {
				provRefs, d := config.ReferencesInBody(n.provCfg.Config)
				diags = append(diags, d...)
				diags = append(diags, cg.resolve(n, declMod, provRefs)...)
			}
		}
	}
	for _, k := range moduleWide {
		cg.g.AddEdge(n.key, k)
	}
	diags = append(diags, cg.resolve(n, n.mod, refs)...)
	return diags
}

// inCheck reports whether node n belongs to the check block named name:
// the block itself or one of its scoped data sources.
func inCheck(n *gnode, name string) bool {
	switch {
	case n.check != nil:
		return n.check.Name == name
	case n.res != nil:
		return n.res.CheckName == name
	}
	return false
}

// addRules adds the references of condition rules.
func addRules(addExpr func(hcl.Expression), rules []*config.CheckRule) {
	for _, r := range rules {
		addExpr(r.Condition)
		addExpr(r.ErrorMessage)
	}
}

// dependsOnEdge adds an explicit depends_on edge.
func (cg *configGraph) dependsOnEdge(n *gnode, t hcl.Traversal) hcl.Diagnostics {
	ref, diags := addrs.ParseRef(t)
	if diags.HasErrors() {
		return diags
	}
	before := len(cg.g.DependenciesOf(n.key))
	diags = append(diags, cg.resolve(n, n.mod, []*addrs.Reference{ref})...)
	for _, dep := range cg.g.DependenciesOf(n.key)[before:] {
		if strings.HasPrefix(dep, "resource:") {
			n.dependsOn = append(n.dependsOn, dep)
		}
	}
	return diags
}

// resolve adds an edge from n to the node each reference names, in module m.
func (cg *configGraph) resolve(n *gnode, m *config.Module, refs []*addrs.Reference) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, ref := range refs {
		var target string
		switch s := ref.Subject.(type) {
		case addrs.InputVariable:
			if _, ok := m.Variables[s.Name]; !ok {
				diags = append(diags, undeclared(ref, "input variable", fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", s.Name, s.Name)))
				continue
			}
			target = modKey(m.Path, "var", s.Name)
		case addrs.LocalValue:
			if _, ok := m.Locals[s.Name]; !ok {
				diags = append(diags, undeclared(ref, "local value", fmt.Sprintf("A local value with the name %q has not been declared.", s.Name)))
				continue
			}
			target = modKey(m.Path, "local", s.Name)
		case addrs.ModuleCall:
			call, ok := m.ModuleCalls[s.Name]
			if !ok {
				diags = append(diags, undeclared(ref, "module", fmt.Sprintf("No module call named %q is declared in %s.", s.Name, moduleDisplay(m.Path))))
				continue
			}
			child := m.Children[call.Name]
			cg.g.AddEdge(n.key, modKey(m.Path, "module", s.Name))
			if child == nil {
				continue
			}
			outName := ""
			rem := ref.Remaining
			if len(rem) > 0 {
				if _, isIdx := rem[0].(hcl.TraverseIndex); isIdx {
					rem = rem[1:]
				}
			}
			if len(rem) > 0 {
				if a, ok := rem[0].(hcl.TraverseAttr); ok {
					outName = a.Name
				}
			}
			if outName != "" {
				if _, ok := child.Outputs[outName]; !ok {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Unsupported attribute",
						Detail:   fmt.Sprintf("This object does not have an attribute named %q.", outName),
						Subject:  ref.SourceRange.Ptr(),
					})
					continue
				}
				cg.g.AddEdge(n.key, modKey(child.Path, "output", outName))
				continue
			}
			for name := range child.Outputs {
				cg.g.AddEdge(n.key, modKey(child.Path, "output", name))
			}
			continue
		case addrs.Resource:
			target = cg.resourceTarget(m, s, ref, &diags)
		case addrs.ResourceInstance:
			target = cg.resourceTarget(m, s.Resource, ref, &diags)
		default:
			continue
		}
		if target == "" {
			continue
		}
		if t := cg.nodes[target]; t != nil && t.res != nil && t.res.CheckName != "" && !inCheck(n, t.res.CheckName) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reference to scoped resource",
				Detail:   fmt.Sprintf("The data source %s is declared in check block %q and can only be referenced from inside that block. Move the data block out of the check block to use it elsewhere.", t.addr, t.res.CheckName),
				Subject:  ref.SourceRange.Ptr(),
			})
			continue
		}
		if target == n.key {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Self-referential block",
				Detail:   fmt.Sprintf("Configuration for %s may not refer to itself.", displayName(n.key)),
				Subject:  ref.SourceRange.Ptr(),
			})
			continue
		}
		cg.g.AddEdge(n.key, target)
	}
	return diags
}

func (cg *configGraph) resourceTarget(m *config.Module, r addrs.Resource, ref *addrs.Reference, diags *hcl.Diagnostics) string {
	var found bool
	if r.Mode == addrs.DataResourceMode {
		_, found = m.DataResources[r.String()]
	} else {
		_, found = m.ManagedResources[r.String()]
	}
	if !found {
		what := "resource"
		detail := fmt.Sprintf("A managed resource %q %q has not been declared in %s.", r.Type, r.Name, moduleDisplay(m.Path))
		if r.Mode == addrs.DataResourceMode {
			what = "data resource"
			detail = fmt.Sprintf("A data resource %q %q has not been declared in %s.", r.Type, r.Name, moduleDisplay(m.Path))
		}
		*diags = append(*diags, undeclared(ref, what, detail))
		return ""
	}
	return resourceKey(r.InModule(m.Path))
}

func moduleDisplay(p addrs.Module) string {
	if p.IsRoot() {
		return "the root module"
	}
	return p.String()
}

func undeclared(ref *addrs.Reference, what, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Reference to undeclared " + what,
		Detail:   detail,
		Subject:  ref.SourceRange.Ptr(),
	}
}

// computeResourceDeps finds, for each resource node, the nearest resource
// nodes upstream of it (looking through variables, locals, outputs and
// module expansions). These are the dependencies recorded in state and
// used to order destroys. Only the nearest ones are kept, which keeps the
// work and the state file linear on long chains.
func (cg *configGraph) computeResourceDeps() {
	memo := map[string][]string{}
	var visit func(key string, stack map[string]bool) []string
	visit = func(key string, stack map[string]bool) []string {
		if v, ok := memo[key]; ok {
			return v
		}
		if stack[key] {
			return nil // cycles are reported elsewhere
		}
		stack[key] = true
		seen := map[string]bool{}
		var out []string
		for _, dep := range cg.g.DependenciesOf(key) {
			dn := cg.nodes[dep]
			if dn != nil && (dn.kind == nodeResource || dn.kind == nodeOrphan) {
				if !seen[dep] {
					seen[dep] = true
					out = append(out, dep)
				}
				continue
			}
			for _, r := range visit(dep, stack) {
				if !seen[r] {
					seen[r] = true
					out = append(out, r)
				}
			}
		}
		delete(stack, key)
		sort.Strings(out)
		memo[key] = out
		return out
	}
	for _, key := range cg.order {
		n := cg.nodes[key]
		if n.kind == nodeResource {
			n.resDeps = visit(key, map[string]bool{})
		}
	}
}
