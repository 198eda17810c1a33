package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// quotedReferenceDetail is OpenTofu's explanation for a reference written
// in quotes, accepted with a warning in depends_on, ignore_changes and
// provider arguments.
const quotedReferenceDetail = "In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning."

// unquoteReference turns a reference written in the native syntax's
// quotes ("aws_instance.a", the language before 0.12) into the bare
// reference it names, with a warning; any other expression is returned as
// it is. The traversal's positions are those inside the quotes.
func unquoteReference(expr hcl.Expression) (hcl.Expression, hcl.Diagnostics) {
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
		Summary:  "Quoted references are deprecated",
		Detail:   quotedReferenceDetail,
		Subject:  rng.Ptr(),
	})
	return &hclsyntax.ScopeTraversalExpr{Traversal: trav, SrcRange: rng}, diags
}
