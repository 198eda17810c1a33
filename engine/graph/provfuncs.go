package graph

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
)

// FuncProvider is the provider configuration a provider function call
// (provider::NAME::FUNC or provider::NAME::ALIAS::FUNC) made in module
// Mod is served by, as OpenTofu's graph resolves it: the module's own
// configuration of that name and alias, the one passed in by the module
// call, else the root module's default configuration of the provider.
type FuncProvider struct {
	Mod         *config.Module
	Name, Alias string
}

// funcCalls lists the provider functions an expression or body calls.
func funcCalls(m *config.Module, node any) []FuncProvider {
	var out []FuncProvider
	visit := func(n hclsyntax.Node) hcl.Diagnostics {
		call, ok := n.(*hclsyntax.FunctionCallExpr)
		if !ok || !strings.HasPrefix(call.Name, "provider::") {
			return nil
		}
		parts := strings.Split(call.Name, "::")
		f := FuncProvider{Mod: m}
		switch len(parts) {
		case 3:
			f.Name = parts[1]
		case 4:
			f.Name, f.Alias = parts[1], parts[2]
		default:
			return nil
		}
		for _, o := range out {
			if o == f {
				return nil
			}
		}
		out = append(out, f)
		return nil
	}
	switch n := node.(type) {
	case hclsyntax.Expression:
		_ = hclsyntax.VisitAll(n, visit)
	case *hclsyntax.Body:
		_ = hclsyntax.VisitAll(n, visit)
	}
	return out
}

// addFuncCalls records the provider functions node n calls in expr or
// body, evaluated in module m.
func (cg *Graph) addFuncCalls(n *Node, m *config.Module, exprOrBody any) {
	if exprOrBody == nil {
		return
	}
	for _, f := range funcCalls(m, exprOrBody) {
		dup := false
		for _, o := range cg.FuncProviders[n.Key] {
			dup = dup || o == f
		}
		if !dup {
			cg.FuncProviders[n.Key] = append(cg.FuncProviders[n.Key], f)
		}
	}
}

// Config resolves the provider configuration serving the call.
func (f FuncProvider) Config() addrs.AbsProviderConfig {
	m := f.Mod
	fqn := m.ImpliedProvider(f.Name)
	key := f.Name
	if f.Alias != "" {
		key += "." + f.Alias
	}
	if _, ok := m.ProviderConfigs[key]; ok || m.Path.IsRoot() {
		return addrs.AbsProviderConfig{Module: m.Path, Provider: fqn, Alias: f.Alias}
	}
	// A passed-in configuration stands for the caller's, which may be
	// passed in again from further up.
	for pp := passedProvider(m, key); pp != nil; {
		parent := m.Parent
		pkey := pp.InParent.String()
		if _, ok := parent.ProviderConfigs[pkey]; ok || parent.Path.IsRoot() {
			return addrs.AbsProviderConfig{Module: parent.Path, Provider: fqn, Alias: pp.InParent.Alias}
		}
		m, pp = parent, passedProvider(parent, pkey)
	}
	return addrs.AbsProviderConfig{Provider: fqn}
}
