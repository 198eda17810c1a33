package state

import (
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// TestMarshalAttrsMatchesCty checks the fast encoder against go-cty's:
// same bytes, or the same error.
func TestMarshalAttrsMatchesCty(t *testing.T) {
	ty := objjsonTypes[0]
	full := cty.ObjectVal(map[string]cty.Value{
		"id":     cty.StringVal("a<b>&\"c\"\n é \u2028"),
		"input":  cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(7)}),
		"output": cty.NullVal(cty.DynamicPseudoType),
		"n":      cty.NumberFloatVal(-1.5e3),
		"b":      cty.True,
		"l":      cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"s":      cty.SetVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(1)}),
		"m":      cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v"), "": cty.StringVal("e")}),
		"t":      cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.False}),
		"o":      cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("y")}),
	})
	withAttr := func(name string, v cty.Value) cty.Value {
		m := full.AsValueMap()
		m[name] = v
		return cty.ObjectVal(m)
	}
	huge, _ := new(big.Float).SetPrec(512).SetString("123456789012345678901234567890.000000000001")
	tests := []struct {
		name string
		v    cty.Value
		ty   cty.Type
	}{
		{"all kinds", full, ty},
		{"null object", cty.NullVal(ty), ty},
		{"null attributes", withAttr("l", cty.NullVal(cty.List(cty.String))), ty},
		{"empty collections", withAttr("s", cty.SetValEmpty(cty.Number)), ty},
		{"integers", withAttr("n", cty.NumberIntVal(1<<53)), ty},
		{"large integer", withAttr("n", cty.NumberIntVal(1<<62)), ty},
		{"float64 integer", withAttr("n", cty.NumberFloatVal(1<<60)), ty},
		{"negative zero", withAttr("n", cty.NumberFloatVal(-0.0)), ty},
		{"big number", withAttr("n", cty.NumberVal(huge)), ty},
		{"parsed number", withAttr("n", cty.MustParseNumberVal("12345678901234567890123")), ty},
		{"infinity", withAttr("n", cty.PositiveInfinity), ty},
		{"unknown", withAttr("id", cty.UnknownVal(cty.String)), ty},
		{"marked", withAttr("id", cty.StringVal("s").Mark("x")), ty},
		{"number for string", withAttr("id", cty.NumberIntVal(12)), ty},
		{"missing attribute", cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("a")}), ty},
		{"invalid utf8", cty.StringVal("a\xffb"), cty.String},
		{"dynamic", cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("a")}), cty.DynamicPseudoType},
		{"map of lists", cty.MapVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.NumberIntVal(1)}), "b": cty.ListValEmpty(cty.Number)}), objjsonTypes[3]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkMarshalSameAsCty(t, tc.v, tc.ty)
		})
	}
}

func checkMarshalSameAsCty(t *testing.T, v cty.Value, ty cty.Type) {
	t.Helper()
	want, wantErr := ctyjson.Marshal(v, ty)
	got, gotErr := MarshalAttrs(v, ty)
	if !bothSucceeded(t, v, wantErr, gotErr) {
		return
	}
	if string(got) != string(want) {
		t.Fatalf("encodings differ:\n go-cty %s\n fast   %s", want, got)
	}
}

// FuzzMarshalAttrs decodes fuzzed JSON with go-cty and checks that the
// fast encoder writes the value back exactly as go-cty does.
func FuzzMarshalAttrs(f *testing.F) {
	fuzzAttrs(f, []string{
		`{"id":"a1","input":{"value":"x-1","type":"string"},"output":null}`,
		`{"l":["a"],"s":[1],"m":{"k":"v"},"t":["x",true],"o":{"x":"y"},"n":1e2}`,
		`{"n":9007199254740993}`,
		`{"n":-0.000001}`,
		`"a<\u2029>"`,
	}, func(t *testing.T, buf []byte, ty cty.Type) {
		v, err := ctyjson.Unmarshal(buf, ty)
		if err != nil || hasHugeNumber(v) {
			return
		}
		checkMarshalSameAsCty(t, v, ty)
	})
}

// hasHugeNumber reports whether v holds a number too large or too small
// to write out in reasonable time (9007199E54740993 has 54 million digits:
// go-cty and MarshalAttrs alike take minutes over it).
func hasHugeNumber(v cty.Value) bool {
	huge := false
	cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if !huge && v.IsKnown() && !v.IsNull() && v.Type() == cty.Number {
			if exp := v.AsBigFloat().MantExp(nil); exp > 1<<16 || exp < -(1<<16) {
				huge = true
			}
		}
		return !huge, nil
	})
	return huge
}
