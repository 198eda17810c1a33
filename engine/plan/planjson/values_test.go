package planjson

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

func TestValueTrees(t *testing.T) {
	strList := cty.List(cty.String)
	cases := []struct {
		name                    string
		v                       cty.Value
		sensitive               []cty.Path
		value, unknown, senTree string
	}{
		{"null", cty.NullVal(cty.String), nil, `null`, `false`, `false`},
		{"wholly unknown primitive", cty.UnknownVal(cty.String), nil, `null`, `true`, `false`},
		{"wholly unknown dynamic", cty.DynamicVal, nil, `null`, `true`, `false`},
		{"wholly unknown list", cty.UnknownVal(strList), nil, `null`, `true`, `[]`},
		{"wholly unknown object", cty.UnknownVal(cty.EmptyObject), nil, `null`, `true`, `{}`},
		{"empty list", cty.ListValEmpty(cty.String), nil, `[]`, `[]`, `[]`},
		{"empty map", cty.MapValEmpty(cty.String), nil, `{}`, `{}`, `{}`},
		{"empty object", cty.EmptyObjectVal, nil, `{}`, `{}`, `{}`},
		{"numbers", cty.TupleVal([]cty.Value{cty.NumberIntVal(-3), cty.NumberFloatVal(0.25), cty.MustParseNumberVal("123456789012345678901234567890")}), nil,
			`[-3,0.25,123456789012345678901234567890]`, `[false,false,false]`, `[false,false,false]`},
		{"unknown sequence elements keep their places",
			cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String), cty.NullVal(cty.String)}), nil,
			`["a",null,null]`, `[false,true,false]`, `[false,false,false]`},
		{"unknown attributes are left out",
			cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.UnknownVal(cty.Number), "c": cty.NullVal(cty.Bool)}), nil,
			`{"a":"x","c":null}`, `{"b":true}`, `{}`},
		{"known nested collections still show in the unknown tree",
			cty.ObjectVal(map[string]cty.Value{
				"l": cty.ListVal([]cty.Value{cty.StringVal("x")}),
				"o": cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v")}),
				"u": cty.UnknownVal(cty.String),
			}), nil,
			`{"l":["x"],"o":{"k":"v"}}`, `{"l":[false],"o":{},"u":true}`, `{"l":[false],"o":{}}`},
		{"sets become arrays",
			cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}), nil,
			`["a","b"]`, `[false,false]`, `[false,false]`},
		{"map with unknown element",
			cty.MapVal(map[string]cty.Value{"x": cty.UnknownVal(cty.String), "y": cty.StringVal("1")}), nil,
			`{"y":"1"}`, `{"x":true}`, `{}`},
		{"sensitive attribute, list element and map key",
			cty.ObjectVal(map[string]cty.Value{
				"pw":   cty.StringVal("s"),
				"list": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
				"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v"), "open": cty.StringVal("o")}),
				"nest": cty.ObjectVal(map[string]cty.Value{"inner": cty.StringVal("i")}),
			}),
			[]cty.Path{cty.GetAttrPath("pw"), cty.GetAttrPath("list").IndexInt(1), cty.GetAttrPath("tags").IndexString("k"), cty.IndexStringPath("nest")},
			`{"list":["a","b"],"nest":{"inner":"i"},"pw":"s","tags":{"k":"v","open":"o"}}`, `{"list":[false,false],"nest":{},"tags":{}}`,
			`{"list":[false,true],"nest":true,"pw":true,"tags":{"k":true}}`},
		{"sensitive unknown and sensitive null",
			cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String), "b": cty.NullVal(cty.String)}),
			[]cty.Path{cty.GetAttrPath("a"), cty.GetAttrPath("b")},
			`{"b":null}`, `{"a":true}`, `{"a":true,"b":true}`},
		{"whole value sensitive", cty.ListVal([]cty.Value{cty.StringVal("a")}), []cty.Path{{}}, `["a"]`, `[false]`, `true`},
		{"marks count as sensitive and are read through",
			cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x").Mark("sensitive")}), nil,
			`{"a":"x"}`, `{}`, `{"a":true}`},
		{"escaping like encoding/json", cty.StringVal("<a href=\"x\">&\u2028\x01\t\xff</a>"), nil,
			`"\u003ca href=\"x\"\u003e\u0026\u2028\u0001\t\ufffd\u003c/a\u003e"`, `false`, `false`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendValue(nil, tc.v)); got != tc.value {
				t.Errorf("value: got %s, want %s", got, tc.value)
			}
			if got := string(AppendUnknown(nil, tc.v)); got != tc.unknown {
				t.Errorf("unknown tree: got %s, want %s", got, tc.unknown)
			}
			if got := string(AppendSensitive(nil, tc.v, tc.sensitive)); got != tc.senTree {
				t.Errorf("sensitive tree: got %s, want %s", got, tc.senTree)
			}
		})
	}
}

// Known values must encode exactly as cty's own JSON encoder does, since
// OpenTofu uses it for before/after.
func TestAppendValueJSONMatchesCtyJSON(t *testing.T) {
	values := []cty.Value{
		cty.StringVal("plain"),
		cty.StringVal("quotes \" backslash \\ html <>& control \x00\x1f line\u2028para\u2029 emoji 🎉"),
		cty.NumberIntVal(0),
		cty.NumberIntVal(-9007199254740993),
		cty.NumberFloatVal(1e-7),
		cty.NumberFloatVal(3.14159),
		cty.NumberVal(new(big.Float).SetPrec(512).SetInt64(1).Quo(big.NewFloat(1).SetPrec(512), big.NewFloat(3).SetPrec(512))),
		cty.True,
		cty.ObjectVal(map[string]cty.Value{
			"z": cty.ListVal([]cty.Value{cty.NumberIntVal(1)}),
			"a": cty.MapVal(map[string]cty.Value{"b": cty.True, "a": cty.False}),
			"m": cty.SetVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(1)}),
			"n": cty.NullVal(cty.String),
		}),
	}
	for _, v := range values {
		want, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendValue(nil, v); string(got) != string(want) {
			t.Errorf("%#v:\n got %s\nwant %s", v, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", "<>&", "\u2028\u2029", "\xff\xfe", "\x00\x7f", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); string(got) != string(want) {
			t.Fatalf("appendString(%q) = %s, encoding/json gives %s", s, got, want)
		}
	})
}

func TestAppendPath(t *testing.T) {
	p := cty.GetAttrPath("a").IndexInt(2).IndexString("k").GetAttr("b")
	if diff := cmp.Diff(`["a",2,"k","b"]`, string(appendPath(nil, p))); diff != "" {
		t.Error(diff)
	}
}
