package eval

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// A deprecation mark comes out as one warning per marked path, worded as
// OpenTofu words it, and leaves the value with its other marks only.
func TestExtractDeprecatedWithExpr(t *testing.T) {
	expr, _ := hclsyntax.ParseExpression([]byte("x"), "t.tf", hcl.InitialPos)
	mark := deprecationMark{By: "module.m.o", Message: "gone"}
	v := cty.TupleVal([]cty.Value{
		cty.NumberIntVal(1).Mark(mark),
		cty.StringVal("s").Mark(SensitiveMark),
	})
	got, diags := extractDeprecatedWithExpr(v, expr)
	if len(diags) != 1 {
		t.Fatalf("want 1 warning, got %d", len(diags))
	}
	want := "This value's attribute [0] is derived from module.m.o, which is deprecated with the following message:\n\ngone"
	if diags[0].Detail != want || diags[0].Severity != hcl.DiagWarning {
		t.Errorf("detail = %q", diags[0].Detail)
	}
	if got.Index(cty.NumberIntVal(0)).IsMarked() {
		t.Error("deprecation mark left on the value")
	}
	if !got.Index(cty.NumberIntVal(1)).HasMark(SensitiveMark) {
		t.Error("sensitive mark lost")
	}

	_, diags = extractDeprecatedWithExpr(cty.NumberIntVal(1).Mark(mark), expr)
	if len(diags) != 1 || diags[0].Detail != "This value is derived from module.m.o, which is deprecated with the following message:\n\ngone" {
		t.Errorf("whole value: %v", diags)
	}
}

func TestDeprecationFilterCause(t *testing.T) {
	d := &hcl.Diagnostic{Extra: FromCheckBlock{Had: DeprecationWarning{FromRemoteModule: true}}}
	if w, ok := IsDeprecationWarning(d); !ok || !w.FromRemoteModule {
		t.Error("cause not found through a check block's Extra")
	}
}

func TestFormatPath(t *testing.T) {
	p := cty.GetAttrPath("a").Index(cty.StringVal("k")).Index(cty.NumberIntVal(2))
	if got := formatPath(p); got != `.a["k"][2]` {
		t.Errorf("formatPath = %s", got)
	}
}
