package graph

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
)

// ImportsFor lists the import blocks whose target is the resource node.
func ImportsFor(cfg *config.Config, cr addrs.ConfigResource) []*config.Import {
	var out []*config.Import
	for _, imp := range cfg.Root.Import {
		if imp.ToResource.Equal(cr) {
			out = append(out, imp)
		}
	}
	return out
}

// connectImports adds the edges from each import block's target resource to
// what its for_each, id and `to` keys refer to (root module scope).
func (cg *Graph) connectImports(cfg *config.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, imp := range cfg.Root.Import {
		n := cg.Nodes[ResourceKey(imp.ToResource)]
		if n == nil || n.Kind != NodeResource {
			continue
		}
		var refs []*addrs.Reference
		for _, e := range append([]hcl.Expression{imp.ForEach, imp.ID}, addressKeyExprs(imp.To)...) {
			if e == nil {
				continue
			}
			r, d := config.ReferencesInExpr(e)
			diags = append(diags, d...)
			refs = append(refs, r...)
		}
		diags = append(diags, cg.resolve(n, cfg.Root, refs)...)
	}
	return diags
}

// addressKeyExprs returns the index key expressions of an address
// expression such as module.m[each.key].t.n[local.k].
func addressKeyExprs(expr hcl.Expression) []hcl.Expression {
	switch e := expr.(type) {
	case *hclsyntax.RelativeTraversalExpr:
		return addressKeyExprs(e.Source)
	case *hclsyntax.IndexExpr:
		return append(addressKeyExprs(e.Collection), e.Key)
	}
	return nil
}
