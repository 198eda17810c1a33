package graph

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/graphsolve"
	"github.com/tenetplan/tenet/providers"
)

type NodeKind byte

const (
	NodeVariable NodeKind = 'v'
	NodeLocal    NodeKind = 'l'
	NodeOutput   NodeKind = 'o'
	NodeCall     NodeKind = 'c' // expansion of a module call
	NodeResource NodeKind = 'r' // a resource block (all its instances)
	NodeOrphan   NodeKind = 'x' // a resource in state with no resource block
	nodeProvider NodeKind = 'p' // a provider configuration
	nodeDestroy  NodeKind = 'd' // apply only: the deletes of one resource
	NodeCheck    NodeKind = 'k' // a check block's assertions
)

// Node is one vertex of the configuration graph. Nodes are static: one
// per block per module path; the walk handles every module instance.
type Node struct {
	Kind NodeKind
	Key  string
	Mod  *config.Module

	Name     string
	Variable *config.Variable
	Local    *config.Local
	Output   *config.Output
	Call     *config.ModuleCall
	Res      *config.Resource
	Check    *config.Check
	ProvCfg  *config.Provider // nil for an implied empty provider configuration

	// resource data
	Addr      addrs.ConfigResource
	Provider  addrs.AbsProviderConfig
	Schema    *providers.Schema
	Spec      hcldec.Spec
	BodyRefs  []*addrs.Reference
	CountRefs []*addrs.Reference
	DependsOn []string // resource node keys named by depends_on (incl. module depends_on)
	ResDeps   []string // nearest upstream resource node keys (through locals etc.)
	// ProviderOnlyDeps are the dependencies only the provider
	// configuration's references give the resource.
	ProviderOnlyDeps []string
	// ValidationDeps are the dependencies a variable's validations give
	// it (the others come from the module call's argument).
	ValidationDeps []string
}

func (n *Node) String() string { return n.Key }

// Graph is the graph of one configuration plus the resources only
// the state knows about.
type Graph struct {
	G     *graphsolve.Graph[string]
	Nodes map[string]*Node
	Order []string // insertion order, deterministic
	// WholeModuleRefs lists, by node key, the modules the node refers to
	// as a whole (module.m, module.m[0], module.m[*].x): OpenTofu's graph
	// has such a reference wait for the module's close node.
	WholeModuleRefs map[string][]addrs.Module
	// resourcesByModule indexes resource node keys by module path, for
	// whole-module references (built on first use).
	resourcesByModule map[string][]string
	// ProviderDeps lists, by provider configuration address, the nodes
	// its configuration refers to.
	ProviderDeps map[string][]string
	// FuncProviders lists, by node key, the provider functions the
	// node's expressions call.
	FuncProviders map[string][]FuncProvider

	byModuleOnce  sync.Once
	byModule      map[string][]string // module path -> keys of the nodes in it and under it
	byAddressOnce sync.Once
	byAddress     []string // resource node keys sorted by address
}

func ResourceKey(cr addrs.ConfigResource) string { return "resource:" + cr.String() }

func (cg *Graph) add(n *Node) {
	if _, ok := cg.Nodes[n.Key]; ok {
		return
	}
	cg.Nodes[n.Key] = n
	cg.Order = append(cg.Order, n.Key)
	cg.G.AddVertex(n.Key)
}

func ModKey(m addrs.Module, kind, name string) string {
	if len(m) == 0 {
		return kind + ":" + name
	}
	return kind + ":" + m.String() + "." + name
}

// Build builds the configuration graph: one node per block, edges
// from references. It also validates references (undeclared objects)
// and reports dependency cycles. As in OpenTofu, which finds cycles
// when it builds its graph, before it evaluates any reference, a
// configuration with a cycle gets only the cycle errors.
func Build(ctx context.Context, cfg *config.Config, ps *providercall.Set, orphans []addrs.ConfigResource) (*Graph, hcl.Diagnostics) {
	cg := &Graph{G: graphsolve.New[string](cycleMemberName), Nodes: map[string]*Node{}, WholeModuleRefs: map[string][]addrs.Module{}, ProviderDeps: map[string][]string{}, FuncProviders: map[string][]FuncProvider{}}
	var diags hcl.Diagnostics
	mods := cfg.Modules()
	// Vertices first, so references can find them.
	for _, m := range mods {
		for _, name := range SortedNames(m.Variables) {
			cg.add(&Node{Kind: NodeVariable, Key: ModKey(m.Path, "var", name), Mod: m, Name: name, Variable: m.Variables[name]})
		}
		for _, name := range SortedNames(m.Locals) {
			cg.add(&Node{Kind: NodeLocal, Key: ModKey(m.Path, "local", name), Mod: m, Name: name, Local: m.Locals[name]})
		}
		for _, name := range SortedNames(m.Outputs) {
			cg.add(&Node{Kind: NodeOutput, Key: ModKey(m.Path, "output", name), Mod: m, Name: name, Output: m.Outputs[name]})
		}
		for _, name := range SortedNames(m.ModuleCalls) {
			cg.add(&Node{Kind: NodeCall, Key: ModKey(m.Path, "module", name), Mod: m, Name: name, Call: m.ModuleCalls[name]})
		}
		for _, name := range SortedNames(m.Checks) {
			cg.add(&Node{Kind: NodeCheck, Key: ModKey(m.Path, "check", name), Mod: m, Name: name, Check: m.Checks[name]})
		}
		for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources} {
			for _, name := range SortedNames(rs) {
				r := rs[name]
				addr := r.Addr().InModule(m.Path)
				n := &Node{Kind: NodeResource, Key: ResourceKey(addr), Mod: m, Name: name, Res: r, Addr: addr}
				d := resolveResourceProvider(ctx, n, ps)
				diags = append(diags, d...)
				cg.add(n)
			}
		}
	}
	for _, o := range orphans {
		key := ResourceKey(o)
		if _, ok := cg.Nodes[key]; ok {
			continue
		}
		cg.add(&Node{Kind: NodeOrphan, Key: key, Addr: o, Mod: cfg.Descendant(o.Module)})
	}
	if diags.HasErrors() {
		return cg, diags
	}
	// Edges.
	for _, key := range append([]string(nil), cg.Order...) {
		n := cg.Nodes[key]
		diags = append(diags, cg.connect(n)...)
	}
	diags = append(diags, cg.connectImports(cfg)...)
	if cycles := cg.G.ValidateDiagnostics(); cycles.HasErrors() {
		var kept hcl.Diagnostics
		for _, d := range diags {
			if d.Severity != hcl.DiagError {
				kept = append(kept, d)
			}
		}
		return cg, append(kept, cycles...)
	}
	cg.computeResourceDeps()
	return cg, diags
}

func SortedNames[V any](m map[string]V) []string {
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

// cycleMemberName turns a node key into the name cycle errors show: the
// name of OpenTofu's graph node for the block, so "Cycle: local.a
// (expand), terraform_data.x" reads as in OpenTofu. A module input
// variable is two nodes there (its input and its reference), both in
// any cycle through it; the two names sort next to each other, so one
// vertex may carry both.
func cycleMemberName(key string) string {
	kind, rest, _ := strings.Cut(key, ":")
	switch kind {
	case "local", "output", "var":
		modPath, name := "", rest
		if i := strings.LastIndexByte(rest, '.'); i >= 0 {
			modPath, name = rest[:i+1], rest[i+1:]
		}
		base := modPath + kind + "." + name
		switch {
		case kind != "var":
			return base + " (expand)"
		case modPath != "":
			return base + " (expand, input), " + base + " (expand, reference)"
		}
		return base
	}
	return displayName(key)
}

func resolveResourceProvider(ctx context.Context, n *Node, ps *providercall.Set) hcl.Diagnostics {
	r := n.Res
	fqn, ref := n.Mod.ProviderForResource(r)
	// A child module without its own provider block uses its ancestors'.
	// A configuration passed in through a module call's providers map is
	// the caller's, under the caller's name.
	declMod := n.Mod
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
		n.ProvCfg = declMod.ProviderConfigs[key]
	}
	n.Provider = addrs.AbsProviderConfig{Module: path, Provider: fqn, Alias: alias}
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
	n.Schema = sch
	n.Spec = ps.Spec(fqn, r.Mode, r.Type, sch.Block)
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
func (cg *Graph) connect(n *Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var refs []*addrs.Reference
	addExpr := func(e hcl.Expression) {
		if e == nil {
			return
		}
		r, d := config.ReferencesInExpr(e)
		diags = append(diags, d...)
		refs = append(refs, r...)
		cg.addFuncCalls(n, n.Mod, e)
	}
	var moduleWide []string // module call expansion that owns this node
	if n.Kind != NodeOrphan && !n.Mod.Path.IsRoot() {
		moduleWide = append(moduleWide, ModKey(n.Mod.Path.Parent(), "module", n.Mod.Path[len(n.Mod.Path)-1]))
	}
	switch n.Kind {
	case NodeVariable:
		if !n.Mod.Path.IsRoot() {
			// Inputs are evaluated in the calling module.
			parent := n.Mod.Parent
			call := parent.ModuleCalls[n.Mod.Path[len(n.Mod.Path)-1]]
			if call != nil {
				attrs, _ := call.Config.JustAttributes()
				if a, ok := attrs[n.Name]; ok {
					cg.addFuncCalls(n, parent, a.Expr)
					r, d := config.ReferencesInExpr(a.Expr)
					diags = append(diags, d...)
					diags = append(diags, cg.resolve(n, parent, r)...)
				}
			}
		}
		for _, v := range n.Variable.Validations {
			addExpr(v.Condition)
			addExpr(v.ErrorMessage)
		}
		// Validation conditions refer to the variable itself: drop that edge.
		var kept []*addrs.Reference
		for _, r := range refs {
			if iv, ok := r.Subject.(addrs.InputVariable); ok && iv.Name == n.Name {
				continue
			}
			kept = append(kept, r)
		}
		refs = kept
	case NodeLocal:
		addExpr(n.Local.Expr)
	case NodeOutput:
		addExpr(n.Output.Expr)
		addRules(addExpr, n.Output.Preconditions)
		for _, t := range n.Output.DependsOn {
			diags = append(diags, cg.dependsOnEdge(n, t)...)
		}
	case NodeCheck:
		addRules(addExpr, n.Check.Asserts)
		// Assertions run after the check's own data sources are read.
		for _, r := range n.Check.DataResources {
			cg.G.AddEdge(n.Key, ResourceKey(r.Addr().InModule(n.Mod.Path)))
		}
	case NodeCall:
		addExpr(n.Call.Count)
		addExpr(n.Call.ForEach)
		for _, t := range n.Call.DependsOn {
			diags = append(diags, cg.dependsOnEdge(n, t)...)
		}
	case NodeResource:
		r := n.Res
		addExpr(r.Count)
		addExpr(r.ForEach)
		n.CountRefs = append(n.CountRefs, refs...)
		cg.addFuncCalls(n, n.Mod, r.Config)
		bodyRefs, d := eval.BodyReferences(r.Config, n.Spec)
		diags = append(diags, d...)
		n.BodyRefs = bodyRefs
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
			// Creation-time provisioners run with the resource's apply and
			// read what their bodies and connections name then; the
			// destroy-time ones may name only the object itself.
			addBody := func(b hcl.Body) {
				found, d := config.ReferencesInBody(b)
				diags = append(diags, d...)
				for _, ref := range found {
					// As OpenTofu, a provisioner of a resource without
					// count or for_each may name the resource itself: it
					// runs once the object exists.
					if r.Count == nil && r.ForEach == nil && refersTo(ref, r.Addr()) {
						continue
					}
					refs = append(refs, ref)
				}
			}
			if r.Managed.Connection != nil {
				addBody(r.Managed.Connection)
			}
			for _, p := range r.Managed.Provisioners {
				if p.When != "create" {
					continue
				}
				if p.Connection != nil {
					addBody(p.Connection)
				}
				addBody(p.Config)
			}
		}
	}
	for _, k := range moduleWide {
		cg.G.AddEdge(n.Key, k)
	}
	before := len(cg.G.DependenciesOf(n.Key))
	diags = append(diags, cg.resolve(n, n.Mod, refs)...)
	if n.Kind == NodeVariable {
		n.ValidationDeps = cg.G.DependenciesOf(n.Key)[before:]
	}
	if n.Kind == NodeResource && n.ProvCfg != nil && n.ProvCfg.Config != nil {
		// The provider configuration's references are the resource's
		// too: it cannot be planned before its provider is configured.
		declMod := n.Mod
		for declMod != nil && !declMod.Path.Equal(n.Provider.Module) {
			declMod = declMod.Parent
		}
		if declMod != nil {
			provRefs, d := config.ReferencesInBody(n.ProvCfg.Config)
			diags = append(diags, d...)
			before = len(cg.G.DependenciesOf(n.Key))
			diags = append(diags, cg.resolve(n, declMod, provRefs)...)
			n.ProviderOnlyDeps = cg.G.DependenciesOf(n.Key)[before:]
			cg.providerDeps(n, declMod, provRefs)
		}
	}
	return diags
}

// refersTo reports whether ref names the resource r (of its module).
func refersTo(ref *addrs.Reference, r addrs.Resource) bool {
	switch s := ref.Subject.(type) {
	case addrs.Resource:
		return s == r
	case addrs.ResourceInstance:
		return s.Resource == r
	}
	return false
}

// providerDeps records, once per provider configuration, the nodes its
// references name (OpenTofu's graph draws them as the provider's edges).
func (cg *Graph) providerDeps(n *Node, m *config.Module, refs []*addrs.Reference) {
	key := n.Provider.String()
	if _, ok := cg.ProviderDeps[key]; ok {
		return
	}
	probe := &Graph{G: graphsolve.New[string](cycleMemberName), Nodes: cg.Nodes, WholeModuleRefs: map[string][]addrs.Module{}}
	probe.G.AddVertex(n.Key)
	_ = probe.resolve(n, m, refs) // reported by the real resolution
	cg.ProviderDeps[key] = probe.G.DependenciesOf(n.Key)
}

// inCheck reports whether node n belongs to the check block named name:
// the block itself or one of its scoped data sources.
func inCheck(n *Node, name string) bool {
	switch {
	case n.Check != nil:
		return n.Check.Name == name
	case n.Res != nil:
		return n.Res.CheckName == name
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
func (cg *Graph) dependsOnEdge(n *Node, t hcl.Traversal) hcl.Diagnostics {
	ref, diags := addrs.ParseRef(t)
	if diags.HasErrors() {
		return diags
	}
	before := len(cg.G.DependenciesOf(n.Key))
	diags = append(diags, cg.resolve(n, n.Mod, []*addrs.Reference{ref})...)
	for _, dep := range cg.G.DependenciesOf(n.Key)[before:] {
		if strings.HasPrefix(dep, "resource:") {
			n.DependsOn = append(n.DependsOn, dep)
		}
	}
	return diags
}

// resolve adds an edge from n to the node each reference names, in module m.
func (cg *Graph) resolve(n *Node, m *config.Module, refs []*addrs.Reference) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, ref := range refs {
		if d := UndeclaredReference(m, ref); d != nil {
			diags = append(diags, d)
			continue
		}
		var target string
		switch s := ref.Subject.(type) {
		case addrs.InputVariable:
			target = ModKey(m.Path, "var", s.Name)
		case addrs.LocalValue:
			target = ModKey(m.Path, "local", s.Name)
		case addrs.ModuleCall:
			child := m.Children[s.Name]
			cg.G.AddEdge(n.Key, ModKey(m.Path, "module", s.Name))
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
				cg.G.AddEdge(n.Key, ModKey(child.Path, "output", outName))
				continue
			}
			for name := range child.Outputs {
				cg.G.AddEdge(n.Key, ModKey(child.Path, "output", name))
			}
			if !slices.ContainsFunc(cg.WholeModuleRefs[n.Key], child.Path.Equal) {
				cg.WholeModuleRefs[n.Key] = append(cg.WholeModuleRefs[n.Key], child.Path)
			}
			// A whole module (depends_on = [module.b], or module.b as a
			// value) is complete only when every resource in it and its
			// descendants is: OpenTofu waits for the module's close.
			for _, rk := range cg.resourcesUnder(child.Path) {
				if rk != n.Key {
					cg.G.AddEdge(n.Key, rk)
				}
			}
			continue
		case addrs.Resource:
			target = ResourceKey(s.InModule(m.Path))
		case addrs.ResourceInstance:
			target = ResourceKey(s.Resource.InModule(m.Path))
		default:
			continue
		}
		if target == "" {
			continue
		}
		if t := cg.Nodes[target]; t != nil && t.Res != nil && t.Res.CheckName != "" && !inCheck(n, t.Res.CheckName) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reference to scoped resource",
				Detail:   fmt.Sprintf("The data source %s is declared in check block %q and can only be referenced from inside that block. Move the data block out of the check block to use it elsewhere.", t.Addr, t.Res.CheckName),
				Subject:  ref.SourceRange.Ptr(),
			})
			continue
		}
		if target == n.Key {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Self-referential block",
				Detail:   fmt.Sprintf("Configuration for %s may not refer to itself.", displayName(n.Key)),
				Subject:  ref.SourceRange.Ptr(),
			})
			continue
		}
		cg.G.AddEdge(n.Key, target)
	}
	return diags
}

func ModuleDisplay(p addrs.Module) string {
	if p.IsRoot() {
		return "the root module"
	}
	return p.String()
}

func Undeclared(ref *addrs.Reference, what, detail string) *hcl.Diagnostic {
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
func (cg *Graph) computeResourceDeps() {
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
		for _, dep := range cg.G.DependenciesOf(key) {
			dn := cg.Nodes[dep]
			if dn != nil && (dn.Kind == NodeResource || dn.Kind == NodeOrphan) {
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
	for _, key := range cg.Order {
		n := cg.Nodes[key]
		if n.Kind == NodeResource {
			n.ResDeps = visit(key, map[string]bool{})
		}
	}
}

// resourcesUnder lists the resource nodes of the module at path and of
// the modules it calls, directly or not, in a stable order.
func (cg *Graph) resourcesUnder(path addrs.Module) []string {
	if cg.resourcesByModule == nil {
		cg.resourcesByModule = map[string][]string{}
		for key, n := range cg.Nodes {
			if n.Kind == NodeResource {
				mk := n.Mod.Path.String()
				cg.resourcesByModule[mk] = append(cg.resourcesByModule[mk], key)
			}
		}
	}
	var out []string
	for mk, keys := range cg.resourcesByModule {
		if mod := path.String(); mk == mod || strings.HasPrefix(mk, mod+".") {
			out = append(out, keys...)
		}
	}
	slices.Sort(out)
	return out
}
