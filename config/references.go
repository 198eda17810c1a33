package config

import (
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
)

// ReferencesInExpr lists the references an expression makes, in source
// order. Malformed references (var without a name, …) are diagnostics.
func ReferencesInExpr(expr hcl.Expression) ([]*addrs.Reference, hcl.Diagnostics) {
	if expr == nil {
		return nil, nil
	}
	return addrs.References(expr.Variables())
}

// metaBlockTypes are hidden by PartialContent in resource bodies, but a
// hclsyntax.Body still lists them in Blocks.
var metaBlockTypes = map[string]bool{"lifecycle": true, "connection": true, "provisioner": true}

// ReferencesInBody lists the references of every attribute of a body and
// of its nested blocks, without a schema. In native syntax, `dynamic`
// blocks are understood: their iterator symbol is not a reference. JSON
// bodies are read attribute by attribute, nested objects included.
func ReferencesInBody(body hcl.Body) ([]*addrs.Reference, hcl.Diagnostics) {
	if body == nil {
		return nil, nil
	}
	return addrs.References(bodyTraversals(nil, body, true))
}

func bodyTraversals(travs []hcl.Traversal, body hcl.Body, top bool) []hcl.Traversal {
	switch b := body.(type) {
	case *hclsyntax.Body:
		// JustAttributes respects the attributes PartialContent hid; it
		// complains about blocks, which we walk ourselves.
		attrs, _ := b.JustAttributes()
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			travs = append(travs, attrs[name].Expr.Variables()...)
		}
		for _, blk := range b.Blocks {
			if top && metaBlockTypes[blk.Type] {
				continue
			}
			travs = appendBlockTraversals(travs, blk, nil)
		}
	case *mergedBody:
		// Override arguments and block types hide the primary's.
		overAttrs, _ := b.over.JustAttributes()
		baseAttrs, _ := b.base.JustAttributes()
		for _, name := range slices.Sorted(maps.Keys(baseAttrs)) {
			if _, hidden := overAttrs[name]; !hidden {
				travs = append(travs, baseAttrs[name].Expr.Variables()...)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(overAttrs)) {
			travs = append(travs, overAttrs[name].Expr.Variables()...)
		}
		overSyntax, ok1 := b.over.(*hclsyntax.Body)
		baseSyntax, ok2 := b.base.(*hclsyntax.Body)
		if ok1 && ok2 {
			overTypes := map[string]bool{}
			for _, blk := range overSyntax.Blocks {
				overTypes[blk.Type] = true
			}
			for _, blk := range baseSyntax.Blocks {
				if !overTypes[blk.Type] && !(top && metaBlockTypes[blk.Type]) {
					travs = appendBlockTraversals(travs, blk, nil)
				}
			}
			for _, blk := range overSyntax.Blocks {
				if !(top && metaBlockTypes[blk.Type]) {
					travs = appendBlockTraversals(travs, blk, nil)
				}
			}
		}
	default:
		// JSON: nested blocks look like attributes holding objects, and
		// their expressions' Variables cover the nested strings.
		attrs, _ := body.JustAttributes()
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			travs = append(travs, attrs[name].Expr.Variables()...)
		}
	}
	return travs
}

// appendBlockTraversals collects the traversals of a nested block,
// dropping those rooted at an enclosing dynamic block's iterator.
func appendBlockTraversals(travs []hcl.Traversal, b *hclsyntax.Block, iterators []string) []hcl.Traversal {
	add := func(ts []hcl.Traversal, its []string) {
		for _, t := range ts {
			if !rootedAt(t, its) {
				travs = append(travs, t)
			}
		}
	}
	if b.Type == "dynamic" && len(b.Labels) == 1 {
		iterator := b.Labels[0]
		for _, name := range slices.Sorted(maps.Keys(b.Body.Attributes)) {
			attr := b.Body.Attributes[name]
			switch name {
			case "iterator":
				if kw := hcl.ExprAsKeyword(attr.Expr); kw != "" {
					iterator = kw
				}
			case "for_each":
				add(attr.Expr.Variables(), iterators)
			}
		}
		inner := append(append([]string(nil), iterators...), iterator)
		if attr, ok := b.Body.Attributes["labels"]; ok {
			add(attr.Expr.Variables(), inner)
		}
		for _, cb := range b.Body.Blocks {
			if cb.Type == "content" {
				travs = appendBodyTraversals(travs, cb.Body, inner)
			}
		}
		return travs
	}
	return appendBodyTraversals(travs, b.Body, iterators)
}

func appendBodyTraversals(travs []hcl.Traversal, body *hclsyntax.Body, iterators []string) []hcl.Traversal {
	for _, name := range slices.Sorted(maps.Keys(body.Attributes)) {
		for _, t := range body.Attributes[name].Expr.Variables() {
			if !rootedAt(t, iterators) {
				travs = append(travs, t)
			}
		}
	}
	for _, b := range body.Blocks {
		travs = appendBlockTraversals(travs, b, iterators)
	}
	return travs
}

func rootedAt(t hcl.Traversal, names []string) bool {
	root := t.RootName()
	for _, n := range names {
		if n == root {
			return true
		}
	}
	return false
}
