package terraform

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// The wants were recorded from tofu 1.10.6 (apply of outputs calling the
// functions), except where a comment says otherwise.
func TestFunctions(t *testing.T) {
	obj := cty.ObjectVal
	str := cty.StringVal
	tests := []struct {
		name    string
		fn      string
		arg     cty.Value
		want    cty.Value
		wantErr string
	}{
		{"encode object", "encode_tfvars", obj(map[string]cty.Value{
			"a": cty.NumberIntVal(1),
			"b": str("two\n\"q\" ${x}"),
			"c": cty.TupleVal([]cty.Value{cty.True, cty.NullVal(cty.DynamicPseudoType)}),
			"d": obj(map[string]cty.Value{"e": cty.NumberFloatVal(1.5), "f-g": str("h")}),
		}), str("a = 1\nb = \"two\\n\\\"q\\\" $${x}\"\nc = [true, null]\nd = {\n  e   = 1.5\n  f-g = \"h\"\n}\n"), ""},
		{"encode empty", "encode_tfvars", cty.EmptyObjectVal, str(""), ""},
		{"encode multi-line", "encode_tfvars", obj(map[string]cty.Value{"m": str("line1\nline2\n")}), str("m = \"line1\\nline2\\n\"\n"), ""},
		{"encode list", "encode_tfvars", cty.TupleVal([]cty.Value{cty.NumberIntVal(1)}), cty.UnknownVal(cty.String), "invalid input: must be an object"},
		{"encode string", "encode_tfvars", str("s"), cty.UnknownVal(cty.String), "invalid input: must be an object"},
		{"encode bad key", "encode_tfvars", obj(map[string]cty.Value{"a b": cty.NumberIntVal(1)}), cty.UnknownVal(cty.String), "invalid input: object key: a b - must be a valid identifier"},
		// tofu panics here; tenet leaves the text unknown.
		{"encode unknown value", "encode_tfvars", obj(map[string]cty.Value{"a": cty.UnknownVal(cty.String)}), cty.UnknownVal(cty.String), ""},
		{"expr string", "encode_expr", str("a\tb\\c %{x} ${y} é"), str("\"a\\tb\\\\c %%{x} $${y} é\""), ""},
		{"expr number", "encode_expr", cty.MustParseNumberVal("12345678901234567890.5"), str("12345678901234567890.5"), ""},
		{"expr tuple", "encode_expr", cty.TupleVal([]cty.Value{cty.NumberIntVal(1), str("a"), cty.NullVal(cty.DynamicPseudoType), cty.False, obj(map[string]cty.Value{"x": cty.EmptyTupleVal})}),
			str("[1, \"a\", null, false, {\n  x = []\n}]"), ""},
		{"expr map", "encode_expr", cty.MapVal(map[string]cty.Value{"a b": cty.NumberIntVal(1), "c": cty.NumberIntVal(2)}), str("{\n  \"a b\" = 1\n  c     = 2\n}"), ""},
		{"expr partly unknown", "encode_expr", obj(map[string]cty.Value{"a": cty.UnknownVal(cty.String)}), cty.UnknownVal(cty.String), "input is not wholly known"},
		{"decode", "decode_tfvars", str("a = 1\nb = \"x\"\nc = [1, {d = true}]\ne = null\n"), obj(map[string]cty.Value{
			"a": cty.NumberIntVal(1), "b": str("x"),
			"c": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), obj(map[string]cty.Value{"d": cty.True})}),
			"e": cty.NullVal(cty.DynamicPseudoType),
		}), ""},
		{"decode empty", "decode_tfvars", str(""), cty.EmptyObjectVal, ""},
		{"decode heredoc", "decode_tfvars", str("h = <<EOT\nhello\n  world\nEOT\n"), obj(map[string]cty.Value{"h": str("hello\n  world\n")}), ""},
		{"decode bare word", "decode_tfvars", str("x"), cty.DynamicVal, "failed to decode tfvars content\n:0,0-1: Argument or block definition required; An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."},
		{"decode variable", "decode_tfvars", str("a = var.x"), cty.DynamicVal, "failed to decode tfvars content\n:0,4-7: Variables not allowed; Variables may not be used here."},
		{"decode function", "decode_tfvars", str("a = upper(\"x\")"), cty.DynamicVal, "failed to decode tfvars content\n:0,4-14: Function calls not allowed; Functions may not be called here."},
		{"decode unterminated", "decode_tfvars", str("a = {"), cty.DynamicVal, "failed to decode tfvars content\n:0,5-5: Missing expression; Expected the start of an expression, but found the end of the file."},
		{"decode block", "decode_tfvars", str("blk {\n}\n"), cty.DynamicVal, "failed to decode tfvars content\n:0,0-3: Unexpected \"blk\" block; Blocks are not allowed here."},
	}
	p := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := p.CallFunction(context.Background(), providers.CallFunctionRequest{Name: tt.fn, Arguments: []cty.Value{tt.arg}})
			var gotErr string
			if resp.Err != nil {
				gotErr = resp.Err.Text
				if resp.Err.Argument != nil {
					t.Errorf("error blames argument %d; OpenTofu's blame the call", *resp.Err.Argument)
				}
			}
			if gotErr != tt.wantErr {
				t.Errorf("error:\n got %q\nwant %q", gotErr, tt.wantErr)
			}
			if !resp.Result.RawEquals(tt.want) {
				t.Errorf("result:\n got %#v\nwant %#v", resp.Result, tt.want)
			}
		})
	}
}

func TestFunctionsListed(t *testing.T) {
	resp := New().GetFunctions(context.Background())
	var names []string
	for name := range resp.Functions {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"decode_tfvars", "encode_expr", "encode_tfvars"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("functions (-want +got):\n%s", diff)
	}
}
