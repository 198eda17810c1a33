package rules

import (
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// FuzzInstanceInput builds the rules' input for an instance whose values
// come from arbitrary JSON, with leaves made unknown or sensitive as the
// fuzzer's mask says. Building the input must never panic, and the known,
// unmarked parts must come through unchanged.
func FuzzInstanceInput(f *testing.F) {
	f.Add([]byte(`{"id":"x","tags":{"a":"b"},"ports":[1,2,3],"on":true}`), uint64(0), "k")
	f.Add([]byte(`{"nested":{"list":[{"a":null},{"a":1.5}]}}`), uint64(0b1010), "")
	f.Add([]byte(`[1,"two",null,{"x":[]}]`), uint64(0xffffffff), "0")
	f.Add([]byte(`"just a string"`), uint64(1), "")
	f.Add([]byte(`{"big":123456789012345678901234567890,"neg":-0.000001}`), uint64(2), "k")

	e := &Engine{includeValues: true}
	sensitive := "sensitive-for-fuzz"
	f.Fuzz(func(t *testing.T, src []byte, mask uint64, key string) {
		ty, err := ctyjson.ImpliedType(src)
		if err != nil {
			return
		}
		v, err := ctyjson.Unmarshal(src, ty)
		if err != nil {
			return
		}
		leaf := 0
		masked, err := cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
			if v.Type().IsPrimitiveType() || v.IsNull() {
				bit := uint(leaf % 32)
				leaf++
				switch {
				case mask>>(2*bit)&1 == 1:
					return cty.UnknownVal(v.Type()), nil
				case mask>>(2*bit+1)&1 == 1:
					return v.Mark(sensitive), nil
				}
			}
			return v, nil
		})
		if err != nil {
			return
		}
		in := &Instance{
			Address: "test_thing.a", Resource: "test_thing.a", Mode: "managed", Type: "test_thing", Name: "a", Key: key,
			HasConfig: true, Config: masked, HasPrior: true, Prior: v, HasPlanned: true, Planned: masked,
			RequiresReplace: stepPaths([]any{"a", 0, key}),
		}
		term := e.instanceTerm(e.newValueBuilder(), in, true)
		if _, err := ast.JSON(term.Value); err != nil {
			t.Fatalf("input is not JSON: %v", err)
		}
		// The prior value is wholly known and unmarked: its values tree is the JSON itself.
		prior := term.Get(keyPrior).Get(keyValues)
		got, err := ast.JSON(prior.Value)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ctyjson.Unmarshal(raw, ty)
		if err != nil {
			t.Fatalf("prior values %s do not fit the original type: %v", raw, err)
		}
		if !back.RawEquals(v) {
			t.Errorf("prior values changed:\n got %s\nwant %s", raw, src)
		}
		// Terms shared with an equal value present the same as converted ones.
		for _, c := range []struct {
			key *ast.Term
			v   cty.Value
		}{{keyPrior, in.Prior}, {keyPlanned, in.Planned}} {
			alone, _ := e.newValueBuilder().value(c.v, nil, nil)
			if got := term.Get(c.key); !got.Equal(alone) {
				t.Errorf("%s presented like another value:\n%v\nwant\n%v", c.key, got, alone)
			}
		}
	})
}
