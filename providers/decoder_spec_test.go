package providers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

var ctyValueComparer = cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })

func decodeTestBody(t *testing.T, b *Block, src string) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags)
	}
	return hcldec.Decode(f.Body, b.DecoderSpec(), nil)
}

func TestDecoderSpec(t *testing.T) {
	nestedAttrs := map[string]*Attribute{
		"name": {Type: cty.String, Required: true},
		"size": {Type: cty.Number, Optional: true},
		"uid":  {Type: cty.String, Computed: true},
	}
	inner := Block{Attributes: map[string]*Attribute{
		"v": {Type: cty.String, Optional: true},
	}}
	schema := &Block{
		Attributes: map[string]*Attribute{
			"id":      {Type: cty.String, Computed: true},
			"name":    {Type: cty.String, Required: true},
			"count":   {Type: cty.Number, Optional: true},
			"mode":    {Type: cty.String, Optional: true, Computed: true},
			"anyval":  {Type: cty.DynamicPseudoType, Optional: true},
			"disks":   {NestedType: &Object{Nesting: NestingList, Attributes: nestedAttrs}, Optional: true},
			"primary": {NestedType: &Object{Nesting: NestingSingle, Attributes: nestedAttrs}, Optional: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"single": {Nesting: NestingSingle, Block: inner},
			"group":  {Nesting: NestingGroup, Block: inner},
			"list":   {Nesting: NestingList, Block: inner, MaxItems: 2},
			"set":    {Nesting: NestingSet, Block: inner},
			"map":    {Nesting: NestingMap, Block: inner},
		},
	}
	innerTy := inner.ImpliedType()
	nestedTy := cty.Object(map[string]cty.Type{"name": cty.String, "size": cty.Number, "uid": cty.String})
	nullInner := cty.ObjectVal(map[string]cty.Value{"v": cty.NullVal(cty.String)})
	innerVal := func(s string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal(s)}) }

	tests := []struct {
		name     string
		src      string
		want     cty.Value
		wantDiag string
	}{
		{
			name: "minimal body leaves everything else null or empty",
			src:  `name = "a"`,
			want: cty.ObjectVal(map[string]cty.Value{
				"id":      cty.NullVal(cty.String),
				"name":    cty.StringVal("a"),
				"count":   cty.NullVal(cty.Number),
				"mode":    cty.NullVal(cty.String),
				"anyval":  cty.NullVal(cty.DynamicPseudoType),
				"disks":   cty.NullVal(cty.List(nestedTy)),
				"primary": cty.NullVal(nestedTy),
				"single":  cty.NullVal(innerTy),
				"group":   nullInner,
				"list":    cty.ListValEmpty(innerTy),
				"set":     cty.SetValEmpty(innerTy),
				"map":     cty.MapValEmpty(innerTy),
			}),
		},
		{
			name: "every kind of argument and block",
			src: `
name    = "a"
count   = 2
mode    = "fast"
anyval  = { x = 1 }
disks   = [{ name = "d1" }]
primary = { name = "p", size = 3 }
single { v = "s" }
group { v = "g" }
list { v = "l1" }
list { v = "l2" }
set { v = "s1" }
map "k" { v = "m" }
`,
			want: cty.ObjectVal(map[string]cty.Value{
				"id":     cty.NullVal(cty.String),
				"name":   cty.StringVal("a"),
				"count":  cty.NumberIntVal(2),
				"mode":   cty.StringVal("fast"),
				"anyval": cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1)}),
				"disks": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
					"name": cty.StringVal("d1"), "size": cty.NullVal(cty.Number), "uid": cty.NullVal(cty.String),
				})}),
				"primary": cty.ObjectVal(map[string]cty.Value{
					"name": cty.StringVal("p"), "size": cty.NumberIntVal(3), "uid": cty.NullVal(cty.String),
				}),
				"single": innerVal("s"),
				"group":  innerVal("g"),
				"list":   cty.ListVal([]cty.Value{innerVal("l1"), innerVal("l2")}),
				"set":    cty.SetVal([]cty.Value{innerVal("s1")}),
				"map":    cty.MapVal(map[string]cty.Value{"k": innerVal("m")}),
			}),
		},
		{name: "required argument missing", src: `count = 1`, wantDiag: "Missing required argument"},
		{name: "computed-only attribute is not an argument", src: "name = \"a\"\nid = \"x\"", wantDiag: "Unsupported argument"},
		{name: "too many list blocks", src: "name = \"a\"\nlist {}\nlist {}\nlist {}", wantDiag: "Too many list blocks"},
		{name: "nested attribute missing its required field", src: "name = \"a\"\nprimary = { size = 1 }", wantDiag: "Incorrect attribute value type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := decodeTestBody(t, schema, tt.src)
			if tt.wantDiag != "" {
				if !diags.HasErrors() || diags[0].Summary != tt.wantDiag {
					t.Fatalf("want diagnostic %q, got %v", tt.wantDiag, diags)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %s", diags)
			}
			if errs := got.Type().TestConformance(schema.ImpliedType()); len(errs) > 0 {
				t.Errorf("decoded value does not conform to the implied type: %v", errs)
			}
			if diff := cmp.Diff(tt.want, got, ctyValueComparer); diff != "" {
				t.Errorf("decoded value (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecoderSpecDynamicBlocks(t *testing.T) {
	inner := Block{Attributes: map[string]*Attribute{"v": {Type: cty.DynamicPseudoType, Optional: true}}}
	schema := &Block{BlockTypes: map[string]*NestedBlock{
		"list": {Nesting: NestingList, Block: inner},
		"map":  {Nesting: NestingMap, Block: inner},
	}}
	got, diags := decodeTestBody(t, schema, "list { v = 1 }\nlist { v = \"a\" }\nmap \"k\" { v = true }")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := cty.ObjectVal(map[string]cty.Value{
		"list": cty.TupleVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"v": cty.NumberIntVal(1)}),
			cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal("a")}),
		}),
		"map": cty.ObjectVal(map[string]cty.Value{"k": cty.ObjectVal(map[string]cty.Value{"v": cty.True})}),
	})
	if diff := cmp.Diff(want, got, ctyValueComparer); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if errs := got.Type().TestConformance(schema.ImpliedType()); len(errs) > 0 {
		t.Errorf("decoded value does not conform: %v", errs)
	}
}

func TestEmptyValueConforms(t *testing.T) {
	inner := Block{Attributes: map[string]*Attribute{"v": {Type: cty.String, Optional: true}}}
	schema := &Block{
		Attributes: map[string]*Attribute{"a": {Type: cty.String, Optional: true}},
		BlockTypes: map[string]*NestedBlock{
			"single": {Nesting: NestingSingle, Block: inner},
			"group":  {Nesting: NestingGroup, Block: inner},
			"list":   {Nesting: NestingList, Block: inner},
			"set":    {Nesting: NestingSet, Block: inner},
			"map":    {Nesting: NestingMap, Block: inner},
		},
	}
	got := schema.EmptyValue()
	if !got.Type().Equals(schema.ImpliedType()) {
		t.Fatalf("empty value type %#v, want %#v", got.Type(), schema.ImpliedType())
	}
	if !got.GetAttr("single").IsNull() || got.GetAttr("group").IsNull() || got.GetAttr("list").LengthInt() != 0 {
		t.Errorf("unexpected empty value %#v", got)
	}
}
