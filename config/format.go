package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Format rewrites native-syntax source into canonical layout (indentation,
// aligned equals signs, spacing) and applies the normalisations `tofu fmt`
// makes: an interpolation-only string "${x}" becomes x, and a quoted
// variable type "string" becomes string. Comments are kept. Source that
// does not parse is only re-laid-out.
func Format(src []byte) []byte {
	f, diags := hclwrite.ParseConfig(src, "", hcl.InitialPos)
	if diags.HasErrors() {
		return hclwrite.Format(src)
	}
	normalizeBody(f.Body(), nil)
	return hclwrite.Format(f.Bytes())
}

func normalizeBody(body *hclwrite.Body, block *hclwrite.Block) {
	inVariable := block != nil && block.Type() == "variable"
	for name, attr := range body.Attributes() {
		tokens := attr.Expr().BuildTokens(nil)
		if inVariable && name == "type" {
			if fixed := unquoteType(tokens); fixed != nil {
				body.SetAttributeRaw(name, fixed)
				continue
			}
		}
		if inner := interpolationOnly(tokens); inner != nil {
			body.SetAttributeRaw(name, inner)
		}
	}
	for _, b := range body.Blocks() {
		normalizeBody(b.Body(), b)
	}
}

// interpolationOnly returns the tokens inside "${ … }" when that is the
// whole expression, else nil.
func interpolationOnly(tokens hclwrite.Tokens) hclwrite.Tokens {
	n := len(tokens)
	if n < 5 || tokens[0].Type != hclsyntax.TokenOQuote || tokens[1].Type != hclsyntax.TokenTemplateInterp ||
		tokens[n-1].Type != hclsyntax.TokenCQuote || tokens[n-2].Type != hclsyntax.TokenTemplateSeqEnd {
		return nil
	}
	// Strip markers (${~ x ~}) change whitespace handling; leave them.
	if string(tokens[1].Bytes) != "${" || string(tokens[n-2].Bytes) != "}" {
		return nil
	}
	depth := 0
	for i := 1; i < n-1; i++ {
		switch tokens[i].Type {
		case hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
		case hclsyntax.TokenTemplateSeqEnd:
			depth--
			if depth == 0 && i != n-2 {
				return nil // more template content follows the first interpolation
			}
		}
	}
	inner := make(hclwrite.Tokens, 0, n-4)
	for _, t := range tokens[2 : n-2] {
		if t.Type == hclsyntax.TokenNewline || t.Type == hclsyntax.TokenComment {
			return nil // keep multi-line and commented interpolations as written
		}
		inner = append(inner, &hclwrite.Token{Type: t.Type, Bytes: t.Bytes})
	}
	if len(inner) == 0 {
		return nil
	}
	inner[0].SpacesBefore = 0
	return inner
}

// unquoteType turns the legacy "string" / "list" / "map" type strings into
// type expressions.
func unquoteType(tokens hclwrite.Tokens) hclwrite.Tokens {
	if len(tokens) != 3 || tokens[0].Type != hclsyntax.TokenOQuote || tokens[1].Type != hclsyntax.TokenQuotedLit || tokens[2].Type != hclsyntax.TokenCQuote {
		return nil
	}
	var expr string
	switch string(tokens[1].Bytes) {
	case "string":
		expr = "string"
	case "list":
		expr = "list(string)"
	case "map":
		expr = "map(string)"
	default:
		return nil
	}
	return hclwrite.TokensForIdentifier(expr)
}
