package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestEvalAttrExprMatchesHCL checks the template fast path against HCL's
// own evaluation: same value (and marks, unknowns, errors via fallback).
func TestEvalAttrExprMatchesHCL(t *testing.T) {
	big, _ := cty.ParseNumberVal("123456789012345678901234567890")
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"count": cty.ObjectVal(map[string]cty.Value{"index": cty.NumberIntVal(42)}),
		"v": cty.ObjectVal(map[string]cty.Value{
			"neg":     cty.NumberIntVal(-7),
			"zero":    cty.NumberIntVal(0),
			"frac":    cty.NumberFloatVal(2.5),
			"tiny":    cty.NumberFloatVal(1e-9),
			"big":     big,
			"str":     cty.StringVal("héllo"),
			"decomp":  cty.StringVal("e\u0301"),
			"bool":    cty.True,
			"unknown": cty.UnknownVal(cty.String),
			"null":    cty.NullVal(cty.String),
			"secret":  cty.StringVal("s").Mark(SensitiveMark),
			"list":    cty.ListVal([]cty.Value{cty.StringVal("a")}),
		}),
	}}
	for _, src := range []string{
		`"x-${count.index}"`,
		`"${count.index}"`,
		`"a${v.neg}b${v.zero}c"`,
		`"${v.frac}/${v.tiny}"`,
		`"n=${v.big}"`,
		`"${v.str}-${v.decomp}"`,
		`"plain"`,
		`"${v.bool}"`,
		`"pre-${v.unknown}-post"`,
		`"${v.null}"`,
		`"${v.secret}-x"`,
		`"${v.list}"`,
		`"%{ if v.bool }yes%{ endif }"`,
		`"${v.missing}"`,
		`upper("a-${count.index}")`,
	} {
		t.Run(src, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			wantDiags, gotDiags := evalLikeHCL(t, expr, ctx)
			if diff := cmp.Diff(wantDiags.Error(), gotDiags.Error()); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzRenderPlainTemplate compares the fast path with HCL on templates
// interpolating arbitrary numbers and strings.
func FuzzRenderPlainTemplate(f *testing.F) {
	f.Add("x-", "12", "-y")
	f.Add("", "-0", "")
	f.Add("é", "1e30", "\u0301")
	f.Add("a", "0.1", "b")
	f.Fuzz(func(t *testing.T, pre, num, post string) {
		n, err := cty.ParseNumberVal(num)
		if err != nil {
			return
		}
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
			"pre": cty.StringVal(pre), "n": n, "post": cty.StringVal(post),
		}}
		expr, diags := hclsyntax.ParseTemplate([]byte("${pre}${n}${post}"), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		evalLikeHCL(t, expr, ctx)
	})
}

// evalLikeHCL fails the test unless evalAttrExpr gives expr the value HCL
// gives it, and returns HCL's diagnostics and evalAttrExpr's.
func evalLikeHCL(t *testing.T, expr hclsyntax.Expression, ctx *hcl.EvalContext) (want, got hcl.Diagnostics) {
	t.Helper()
	wantVal, want := expr.Value(ctx)
	gotVal, got := evalAttrExpr(expr, ctx)
	if !gotVal.RawEquals(wantVal) {
		t.Errorf("value: got %#v, want %#v", gotVal, wantVal)
	}
	return want, got
}
