package rules

import (
	"math/big"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"
)

// TestValueSharesEqualAttributes: presenting a value like another one (a
// prior object like its configuration) shares the terms of equal
// attributes, and never changes what the rules see.
func TestValueSharesEqualAttributes(t *testing.T) {
	str := cty.StringVal
	obj := func(attrs map[string]cty.Value) cty.Value { return cty.ObjectVal(attrs) }
	base := obj(map[string]cty.Value{
		"name":  str("a"),
		"tags":  cty.MapVal(map[string]cty.Value{"team": str("x"), "env": str("prod")}),
		"ports": cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
		"set":   cty.SetVal([]cty.Value{str("p"), str("q")}),
		"tuple": cty.TupleVal([]cty.Value{str("t"), cty.True}),
		"inner": obj(map[string]cty.Value{"n": cty.NumberFloatVal(1.5), "nil": cty.NullVal(cty.String)}),
	})
	with := func(name string, v cty.Value) cty.Value {
		m := base.AsValueMap()
		m[name] = v
		return obj(m)
	}
	tests := []struct {
		name   string
		v      cty.Value
		shared []string // attributes whose term is like's
	}{
		{"equal", base, []string{"name", "tags", "ports", "set", "tuple", "inner"}},
		{"changed string", with("name", str("b")), []string{"tags", "ports", "set", "tuple", "inner"}},
		{"changed map key", with("tags", cty.MapVal(map[string]cty.Value{"team": str("x"), "owner": str("prod")})), []string{"name", "ports", "set", "tuple", "inner"}},
		{"changed list element", with("ports", cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(8443)})), []string{"name", "tags", "set", "tuple", "inner"}},
		{"changed nested number", with("inner", obj(map[string]cty.Value{"n": cty.NumberFloatVal(2.5), "nil": cty.NullVal(cty.String)})), []string{"name", "tags", "ports", "set", "tuple"}},
		{"equal number written otherwise", with("inner", obj(map[string]cty.Value{"n": cty.NumberVal(big.NewFloat(1.5)), "nil": cty.NullVal(cty.String)})), []string{"name", "tags", "ports", "set", "tuple", "inner"}},
		{"null instead of a value", with("name", cty.NullVal(cty.String)), []string{"tags", "ports", "set", "tuple", "inner"}},
		{"object instead of a map", with("tags", obj(map[string]cty.Value{"team": str("x"), "env": str("prod")})), []string{"name", "ports", "set", "tuple", "inner"}},
		// Values with marks or unknowns take the general path, which shares nothing.
		{"marked", with("name", str("a").Mark("sensitive")), nil},
		{"unknown inside", with("tags", cty.MapVal(map[string]cty.Value{"team": str("x"), "env": cty.UnknownVal(cty.String)})), nil},
		{"extra attribute", with("new", str("n")), []string{"name", "tags", "ports", "set", "tuple", "inner"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Separate builders: only like can make terms identical.
			likeTerm, _ := (&Engine{}).newValueBuilder().value(base, nil, nil)
			like := presentedAs(base, likeTerm)
			got, _ := (&Engine{}).newValueBuilder().value(tt.v, nil, like)
			want, _ := (&Engine{}).newValueBuilder().value(tt.v, nil, nil)
			if !got.Equal(want) {
				t.Fatalf("presented like another value:\n%v\nwant\n%v", got, want)
			}
			values := got.Get(keyValues)
			for _, name := range tt.shared {
				if values.Get(ast.StringTerm(name)) != like.values.Get(ast.StringTerm(name)) {
					t.Errorf("attribute %s was converted again, want the term of the value it equals", name)
				}
			}
			if n := countShared(values, like); n != len(tt.shared) {
				t.Errorf("%d attributes share a term, want %d", n, len(tt.shared))
			}
		})
	}
}

func countShared(values *ast.Term, like *presented) int {
	n := 0
	values.Value.(ast.Object).Foreach(func(k, v *ast.Term) {
		if v == like.values.Get(k) {
			n++
		}
	})
	return n
}
