package eval

import (
	"math/big"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// evalAttrExpr evaluates an attribute's expression as HCL would. String
// templates that interpolate only known, unmarked strings and whole numbers
// ("x-${count.index}", the usual way of naming counted things) are
// rendered here: cty converts a number to a string through big.Float's
// shortest-decimal formatting, which would dominate evaluating a counted
// resource's configuration. Anything else is left to HCL, which also
// reports every problem.
func evalAttrExpr(expr hcl.Expression, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if t, ok := expr.(*hclsyntax.TemplateExpr); ok {
		if v, ok := renderPlainTemplate(t, ctx); ok {
			return v, nil
		}
	}
	return expr.Value(ctx)
}

// renderPlainTemplate renders t when every part is a known, unmarked,
// non-null string or number; ok is false otherwise.
func renderPlainTemplate(t *hclsyntax.TemplateExpr, ctx *hcl.EvalContext) (cty.Value, bool) {
	var stack [64]byte
	buf := stack[:0]
	for _, part := range t.Parts {
		v, diags := part.Value(ctx)
		if len(diags) > 0 || v.IsMarked() || !v.IsKnown() || v.IsNull() {
			return cty.NilVal, false
		}
		switch v.Type() {
		case cty.String:
			buf = append(buf, v.AsString()...)
		case cty.Number:
			f := v.AsBigFloat()
			i, acc := f.Int64()
			if acc != big.Exact || (i == 0 && f.Signbit()) {
				// Not a whole number in int64 range (or -0): format as cty does.
				buf = f.Append(buf, 'f', -1)
				continue
			}
			buf = strconv.AppendInt(buf, i, 10)
		default:
			return cty.NilVal, false
		}
	}
	return cty.StringVal(string(buf)), true
}
