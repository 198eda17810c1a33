package state

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

var objjsonTypes = []cty.Type{
	cty.Object(map[string]cty.Type{
		"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType,
		"n": cty.Number, "b": cty.Bool, "l": cty.List(cty.String), "s": cty.Set(cty.Number),
		"m": cty.Map(cty.String), "t": cty.Tuple([]cty.Type{cty.String, cty.Bool}),
		"o": cty.Object(map[string]cty.Type{"x": cty.String}),
	}),
	cty.DynamicPseudoType,
	cty.String,
	cty.Map(cty.List(cty.Number)),
}

// TestUnmarshalAttrsMatchesCty checks the fast decoder against go-cty's on
// state-shaped JSON, including forms the fast path hands back to go-cty.
func TestUnmarshalAttrsMatchesCty(t *testing.T) {
	ty := objjsonTypes[0]
	tests := []struct {
		name string
		json string
		ty   cty.Type
	}{
		{"terraform_data", `{"id":"a1","input":{"value":"x-1","type":"string"},"output":{"value":"x-1","type":"string"},"n":null}`, ty},
		{"all kinds", `{"id":"é\u00e9\n","n":-1.5e3,"b":true,"l":["a","b"],"s":[3,1,2],"m":{"k":"v","":"e"},"t":["x",false],"o":{"x":"y"},"input":{"type":["object",{"a":"number"}],"value":{"a":7}},"output":null}`, ty},
		{"empty collections", `{"l":[],"s":[],"m":{},"o":null}`, ty},
		{"whitespace", " { \"id\" : \"a\" ,\n\t\"b\" : false } ", ty},
		{"string from number", `{"id":12}`, ty},
		{"bool from string", `{"b":"true"}`, ty},
		{"unknown attribute", `{"nope":1}`, ty},
		{"bad json", `{"id":"a"`, ty},
		{"trailing data", `{"id":"a"} x`, ty},
		{"too many tuple elements", `{"t":["x",true,1]}`, ty},
		{"dynamic", `{"value":[1,"a"],"type":["tuple",["number","string"]]}`, cty.DynamicPseudoType},
		{"dynamic missing type", `{"value":1}`, cty.DynamicPseudoType},
		{"invalid utf8", "\"a\xffb\"", cty.String},
		{"leading zero", `{"n":01}`, ty},
		{"big number", `{"n":123456789012345678901234567890.000000000001}`, ty},
		{"map of lists", `{"a":[1,2],"b":[]}`, objjsonTypes[3]},
		{"null", `null`, ty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkSameAsCty(t, []byte(tc.json), tc.ty)
		})
	}
}

func checkSameAsCty(t *testing.T, buf []byte, ty cty.Type) {
	t.Helper()
	want, wantErr := ctyjson.Unmarshal(buf, ty)
	got, gotErr := UnmarshalAttrs(buf, ty)
	if !bothSucceeded(t, string(buf), wantErr, gotErr) {
		return
	}
	if !got.RawEquals(want) {
		t.Fatalf("values differ for %q:\n go-cty %#v\n fast   %#v", buf, want, got)
	}
}

// bothSucceeded fails t unless go-cty's error (wantErr) and the fast
// path's (gotErr) are both nil or say the same; it reports whether both
// are nil, so that the results are there to compare. input is what was
// given, formatted only on failure.
func bothSucceeded(t *testing.T, input any, wantErr, gotErr error) bool {
	t.Helper()
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("error mismatch for %#v: go-cty %v, fast %v", input, wantErr, gotErr)
	}
	if wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("errors differ for %#v: go-cty %v, fast %v", input, wantErr, gotErr)
	}
	return wantErr == nil
}

func FuzzUnmarshalAttrs(f *testing.F) {
	fuzzAttrs(f, []string{
		`{"id":"a1","input":{"value":"x-1","type":"string"},"output":null}`,
		`{"l":["a"],"s":[1],"m":{"k":"v"},"t":["x",true],"o":{"x":"y"},"n":1e2}`,
		`{"value":{"a":[1]},"type":["object",{"a":["list","number"]}]}`,
		`"a\u0041"`,
	}, checkSameAsCty)
}

// fuzzAttrs fuzzes check with JSON inputs, each read as one of
// objjsonTypes, seeded with every seed as every type.
func fuzzAttrs(f *testing.F, seeds []string, check func(t *testing.T, buf []byte, ty cty.Type)) {
	for _, s := range seeds {
		for i := range objjsonTypes {
			f.Add([]byte(s), i)
		}
	}
	f.Fuzz(func(t *testing.T, buf []byte, which int) {
		if which < 0 {
			which = -which
		}
		check(t, buf, objjsonTypes[which%len(objjsonTypes)])
	})
}
