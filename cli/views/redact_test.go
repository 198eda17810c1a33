package views

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config/funcs"
)

// Function and operator errors quote their arguments; when an argument is
// sensitive the rendered diagnostic (human and JSON) must not show it.
func TestDiagnosticsRedactSensitiveValues(t *testing.T) {
	secret := cty.StringVal("s3cr3t-hunter2").Mark(funcs.SensitiveMark)
	vars := map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{
			"secret": secret,
			"plain":  cty.StringVal("not-a-cidr"),
			"n":      cty.NumberIntVal(987654321).Mark(funcs.SensitiveMark),
			"m":      cty.MapVal(map[string]cty.Value{"k": cty.StringVal("map-secret-value")}).Mark(funcs.SensitiveMark),
		}),
	}
	tests := []struct {
		expr     string
		want     string // in the rendered detail
		hidden   string
		redacted bool
	}{
		{`cidrsubnet(var.secret, 8, 1)`, "invalid CIDR address: (sensitive value)", "s3cr3t-hunter2", true},
		{`lookup({ a = 1 }, var.secret)`, "no attribute (sensitive value)", "s3cr3t-hunter2", true},
		{`parseint(var.secret, 10)`, "cannot parse (sensitive value)", "s3cr3t-hunter2", true},
		{`cidrhost("10.0.0.0/8", var.n)`, "host numbered (sensitive value)", "987654321", true},
		{`cidrsubnet(var.m["k"], 8, 1)`, "invalid CIDR address: (sensitive value)", "map-secret-value", true},
		// Values that are not sensitive are still quoted.
		{`cidrsubnet(var.plain, 8, 1)`, "invalid CIDR address: not-a-cidr", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			src := []byte("x = " + tt.expr + "\n")
			f, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			attrs, _ := f.Body.JustAttributes()
			ctx := &hcl.EvalContext{Variables: vars, Functions: funcs.Table(funcs.Options{})}
			_, diags = attrs["x"].Expr.Value(ctx)
			if !diags.HasErrors() {
				t.Fatal("expression evaluated without error")
			}
			files := map[string]*hcl.File{"main.tf": f}
			var human bytes.Buffer
			if err := RenderDiagnostics(&human, diags, files, false, 0); err != nil {
				t.Fatal(err)
			}
			jsonDetail := DiagnosticJSON(diags[0], files).Detail
			for what, text := range map[string]string{"human": human.String(), "json": jsonDetail} {
				if !strings.Contains(text, tt.want) {
					t.Errorf("%s diagnostic lacks %q:\n%s", what, tt.want, text)
				}
				if tt.redacted && strings.Contains(text, tt.hidden) {
					t.Errorf("%s diagnostic shows the sensitive value:\n%s", what, text)
				}
			}
		})
	}
}
