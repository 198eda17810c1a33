package kit

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

var stateSchema = &providers.Block{Attributes: map[string]*providers.Attribute{
	"id":    {Type: cty.String, Computed: true},
	"input": {Type: cty.DynamicPseudoType, Optional: true},
	"tags":  {Type: cty.Map(cty.String), Optional: true},
}}

func TestDecodeState(t *testing.T) {
	tests := []struct {
		name, raw string
		want      cty.Value
		wantErr   bool
	}{
		{
			name: "dynamic values carry their type",
			raw:  `{"id": "x", "input": {"value": [1], "type": ["list", "number"]}, "tags": {"a": "b"}}`,
			want: cty.ObjectVal(map[string]cty.Value{
				"id":    cty.StringVal("x"),
				"input": cty.ListVal([]cty.Value{cty.NumberIntVal(1)}),
				"tags":  cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")}),
			}),
		},
		{
			name: "retired attributes dropped, missing ones null",
			raw:  `{"id": "x", "old": 1}`,
			want: cty.ObjectVal(map[string]cty.Value{
				"id":    cty.StringVal("x"),
				"input": cty.NullVal(cty.DynamicPseudoType),
				"tags":  cty.NullVal(cty.Map(cty.String)),
			}),
		},
		{name: "wrong type", raw: `{"id": 1, "tags": "no"}`, wantErr: true},
		{name: "not an object", raw: `[1]`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeState(stateSchema, []byte(tt.raw))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %#v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func FuzzDecodeState(f *testing.F) {
	f.Add([]byte(`{"id": "x", "input": {"value": "v", "type": "string"}}`))
	f.Add([]byte(`{"tags": {"a": "b"}, "extra": true}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := DecodeState(stateSchema, raw)
		if err != nil {
			return
		}
		if errs := v.Type().TestConformance(stateSchema.ImpliedType()); len(errs) > 0 {
			t.Errorf("decoded value does not conform: %v", errs)
		}
	})
}
