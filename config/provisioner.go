package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Provisioner is a `provisioner "type"` block of a managed resource or of
// a removed block.
type Provisioner struct {
	Type string
	// Config is the block's body without when, on_failure and connection,
	// merged with the `_` escaping block's body when there is one.
	Config     hcl.Body
	Connection hcl.Body // nil when absent
	// When is "create" (default) or "destroy"; OnFailure is "fail" (default) or "continue".
	When, OnFailure string
	DeclRange       hcl.Range
	TypeRange       hcl.Range
}

// removedProvisioners are the types OpenTofu dropped; it names them in
// its own error.
var removedProvisioners = map[string]bool{"chef": true, "habitat": true, "puppet": true, "salt-masterless": true}

var provisionerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "when"}, {Name: "on_failure"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"}, // escapes arguments named like the meta-arguments
		{Type: "connection"},
		{Type: "lifecycle"}, // reserved
	},
}

func (m *ManagedResource) hasDestroyProvisioner() bool {
	for _, p := range m.Provisioners {
		if p.When == "destroy" {
			return true
		}
	}
	return false
}

func decodeProvisionerBlock(block *hcl.Block) (*Provisioner, hcl.Diagnostics) {
	p := &Provisioner{Type: block.Labels[0], When: "create", OnFailure: "fail", DeclRange: block.DefRange, TypeRange: labelRange(block, 0)}
	content, remain, diags := block.Body.PartialContent(provisionerSchema)
	p.Config = remain
	if removedProvisioners[p.Type] {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("The %q provisioner has been removed", p.Type),
			Detail:   fmt.Sprintf("The %q provisioner is deprecated and has been removed from OpenTofu.", p.Type),
			Subject:  p.TypeRange.Ptr(),
		})
	}
	if attr, ok := content.Attributes["when"]; ok {
		expr, d := unquoteKeyword(attr.Expr)
		diags = append(diags, d...)
		switch hcl.ExprAsKeyword(expr) {
		case "create", "destroy":
			p.When = hcl.ExprAsKeyword(expr)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid "when" keyword`,
				Detail:   `The "when" argument requires one of the following keywords: create or destroy.`,
				Subject:  expr.Range().Ptr(),
			})
		}
	}
	if p.When == "destroy" {
		diags = append(diags, onlySelfReferences(remain)...)
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		expr, d := unquoteKeyword(attr.Expr)
		diags = append(diags, d...)
		switch hcl.ExprAsKeyword(expr) {
		case "continue", "fail":
			p.OnFailure = hcl.ExprAsKeyword(expr)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid "on_failure" keyword`,
				Detail:   `The "on_failure" argument requires one of the following keywords: continue or fail.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	var escape, conn *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "_":
			if escape != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate escaping block",
					Detail: fmt.Sprintf("The special block type \"_\" can be used to force particular arguments to be interpreted as provisioner-type-specific rather than as meta-arguments, but each provisioner block can have only one such block. The first escaping block was at %s.",
						escape.DefRange),
					Subject: b.DefRange.Ptr(),
				})
				continue
			}
			escape = b
			p.Config = hcl.MergeBodies([]hcl.Body{p.Config, b.Body})
		case "connection":
			if conn != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate connection block",
					Detail:   fmt.Sprintf("This provisioner already has a connection block at %s.", conn.DefRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			conn = b
			if p.When == "destroy" {
				diags = append(diags, onlySelfReferences(b.Body)...)
			}
			p.Connection = b.Body
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved block type name in provisioner block",
				Detail:   fmt.Sprintf("The block type name %q is reserved for use by OpenTofu in a future version.", b.Type),
				Subject:  b.TypeRange.Ptr(),
			})
		}
	}
	return p, diags
}

// onlySelfReferences refuses, in a destroy-time provisioner's body or
// connection, references to anything but the object itself (self), its
// key (count.index, each.key), path and terraform: when it runs, the
// other objects may already be gone, and depending on them would order
// destroys against creates.
func onlySelfReferences(body hcl.Body) hcl.Diagnostics {
	attrs, _ := body.JustAttributes()
	list := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		list = append(list, a)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Range.Start.Byte < list[j].Range.Start.Byte })
	var diags hcl.Diagnostics
	for _, a := range list {
		for _, v := range a.Expr.Variables() {
			if selfOnlyReference(v) {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference from destroy provisioner",
				Detail: "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\n" +
					"References to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.",
				Subject: a.Expr.Range().Ptr(),
			})
		}
	}
	return diags
}

func selfOnlyReference(t hcl.Traversal) bool {
	attr := func(name string) bool {
		if len(t) != 2 {
			return false
		}
		a, ok := t[1].(hcl.TraverseAttr)
		return ok && a.Name == name
	}
	switch t.RootName() {
	case "self", "path", "terraform", "tofu":
		return true
	case "count":
		return attr("index")
	case "each":
		return attr("key")
	}
	return false
}

// unquoteKeyword turns a keyword written in quotes ("destroy", the
// language before 0.12) into the bare keyword, with OpenTofu's warning.
func unquoteKeyword(expr hcl.Expression) (hcl.Expression, hcl.Diagnostics) {
	if w, ok := expr.(*hclsyntax.ObjectConsKeyExpr); ok {
		expr = w.Wrapped
	}
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || !tmpl.IsStringLiteral() {
		return expr, nil
	}
	s, ok := literalString(expr)
	if !ok {
		return expr, nil
	}
	rng := expr.Range()
	start := rng.Start
	start.Column++
	start.Byte++
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), rng.Filename, start)
	diags = append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Quoted keywords are deprecated",
		Detail:   "In this context, keywords are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this keyword to silence this warning.",
		Subject:  &rng,
	})
	return &hclsyntax.ScopeTraversalExpr{Traversal: trav, SrcRange: rng}, diags
}

// ConnectionBody is the connection a provisioner uses: the provisioner's
// own connection block laid over the resource's (base), either of which
// may be nil; nil when neither exists. Arguments of the provisioner's
// block replace the resource's of the same name. As OpenTofu's, a merged
// body ignores arguments its schema does not name (the provisioner's
// block's required ones need not be repeated, and neither block's
// misspellings are reported; a block used alone reports them).
func ConnectionBody(base, own hcl.Body) hcl.Body {
	switch {
	case base == nil:
		return own
	case own == nil:
		return base
	}
	return &connectionBody{base: base, own: own}
}

type connectionBody struct{ base, own hcl.Body }

func (b *connectionBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, _, diags := b.PartialContent(schema)
	return content, diags
}

func (b *connectionBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	baseC, baseRemain, diags := b.base.PartialContent(schema)
	ownC, ownRemain, d := b.own.PartialContent(optionalSchema(schema))
	diags = append(diags, d...)
	out := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: baseC.MissingItemRange}
	for k, v := range baseC.Attributes {
		out.Attributes[k] = v
	}
	for k, v := range ownC.Attributes {
		out.Attributes[k] = v
	}
	return out, &connectionBody{base: baseRemain, own: ownRemain}, diags
}

func (b *connectionBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.base.JustAttributes()
	own, d := b.own.JustAttributes()
	diags = append(diags, d...)
	out := make(hcl.Attributes, len(attrs)+len(own))
	for k, v := range attrs {
		out[k] = v
	}
	for k, v := range own {
		out[k] = v
	}
	return out, diags
}

func (b *connectionBody) MissingItemRange() hcl.Range { return b.base.MissingItemRange() }
