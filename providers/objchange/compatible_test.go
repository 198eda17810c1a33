package objchange

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestAssertObjectCompatible(t *testing.T) {
	tests := []struct {
		name            string
		planned, actual cty.Value
		want            []string
	}{
		{
			name:    "unknowns filled in",
			planned: objectWith(map[string]cty.Value{"id": unk, "mode": unk}),
			actual:  objectWith(map[string]cty.Value{"id": s("i-1"), "mode": s("auto")}),
		},
		{
			name:    "final plan may keep unknowns unknown",
			planned: objectWith(map[string]cty.Value{"id": unk}),
			actual:  objectWith(map[string]cty.Value{"id": unk}),
		},
		{
			name:    "known value changed",
			planned: objectWith(map[string]cty.Value{"mode": s("auto")}),
			actual:  objectWith(map[string]cty.Value{"mode": s("manual")}),
			want:    []string{`.mode: was "auto", but now "manual"`},
		},
		{
			name:    "known value became unknown",
			planned: objectWith(map[string]cty.Value{"mode": s("auto")}),
			actual:  objectWith(map[string]cty.Value{"mode": unk}),
			want:    []string{`.mode: was "auto", but now unknown`},
		},
		{
			name:    "sensitive value changed is reported without values",
			planned: objectWith(map[string]cty.Value{"secret": s("a")}),
			actual:  objectWith(map[string]cty.Value{"secret": s("b")}),
			want:    []string{`.secret: inconsistent values for sensitive attribute`},
		},
		{
			name:    "null became set",
			planned: objectWith(nil),
			actual:  objectWith(map[string]cty.Value{"mode": s("x")}),
			want:    []string{`.mode: was null, but now "x"`},
		},
		{
			name:    "refined not-null unknown became null",
			planned: objectWith(map[string]cty.Value{"id": unk.RefineNotNull()}),
			actual:  objectWith(nil),
			want:    []string{`.id: final value null does not conform to planning placeholder: value must not be null`},
		},
		{
			name:    "refined prefix violated",
			planned: objectWith(map[string]cty.Value{"id": unk.Refine().StringPrefix("i-").NewValue()}),
			actual:  objectWith(map[string]cty.Value{"id": s("x-1")}),
			want:    []string{`.id: final value "x-1" does not conform to planning placeholder: value must start with "i-"`},
		},
		{
			name:    "map key appeared and vanished",
			planned: objectWith(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"a": s("1")})}),
			actual:  objectWith(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"b": s("1")})}),
			want:    []string{`.tags: element "a" has vanished`, `.tags: new element "b" has appeared`},
		},
		{
			name:    "object absent but now present",
			planned: cty.NullVal(schemaTy),
			actual:  objectWith(nil),
			want:    []string{`: was absent, but now present`},
		},
		{
			name:    "single block vanished",
			planned: objectWith(map[string]cty.Value{"single": inner(s("x"), unk)}),
			actual:  objectWith(nil),
			want:    []string{`.single: was present, but now absent`},
		},
		{
			name:    "list block count changed",
			planned: objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("x"), unk)})}),
			actual:  objectWith(map[string]cty.Value{"list": cty.ListValEmpty(innerTy)}),
			want:    []string{`.list: block count changed from 1 to 0`},
		},
		{
			name:    "list block element computed filled",
			planned: objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("x"), unk)})}),
			actual:  objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("x"), s("u"))})}),
		},
		{
			name:    "group block attribute changed",
			planned: objectWith(map[string]cty.Value{"group": inner(s("x"), s("u"))}),
			actual:  objectWith(map[string]cty.Value{"group": inner(s("y"), s("u"))}),
			want:    []string{`.group.name: was "x", but now "y"`},
		},
		{
			name:    "map block key appeared",
			planned: objectWith(map[string]cty.Value{"map": cty.MapValEmpty(innerTy)}),
			actual:  objectWith(map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{"k": inner(s("x"), s("u"))})}),
			want:    []string{`.map: new block key "k" has appeared`},
		},
		{
			name: "set block unknowns collapse",
			planned: objectWith(map[string]cty.Value{"set": cty.SetVal([]cty.Value{
				inner(s("x"), unk), inner(s("y"), unk),
			})}),
			actual: objectWith(map[string]cty.Value{"set": cty.SetVal([]cty.Value{
				inner(s("x"), s("1")), inner(s("y"), s("2")),
			})}),
		},
		{
			name:    "set block grew",
			planned: objectWith(map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(s("x"), unk)})}),
			actual: objectWith(map[string]cty.Value{"set": cty.SetVal([]cty.Value{
				inner(s("x"), s("1")), inner(s("y"), s("2")),
			})}),
			want: []string{`.set: block set length grew from 1 to 2`},
		},
		{
			name:    "set block element not from plan",
			planned: objectWith(map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(s("x"), unk)})}),
			actual:  objectWith(map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(s("z"), s("1"))})}),
			want: []string{
				`.set: block set has an element that no planned element could have produced`,
			},
		},
		{
			name:    "nested type element computed filled",
			planned: objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("d"), unk)})}),
			actual:  objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("d"), s("u"))})}),
		},
		{
			name:    "nested type element changed",
			planned: objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("d"), s("u"))})}),
			actual:  objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("d"), s("v"))})}),
			want:    []string{`.disks[0].uid: was "u", but now "v"`},
		},
		{
			name:    "nested type unknown list filled with anything",
			planned: objectWith(map[string]cty.Value{"disks": cty.UnknownVal(cty.List(innerTy))}),
			actual:  objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(nullS, s("v"))})}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errStrings(AssertObjectCompatible(testSchema(), tt.planned, tt.actual))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAssertObjectCompatibleDynamic(t *testing.T) {
	schema := testSchema()
	schema.Attributes["any"] = schemaAttrDynamic()
	planned := object(map[string]cty.Value{"name": cty.StringVal("a")})
	m := planned.AsValueMap()
	m["any"] = cty.DynamicVal
	planned = cty.ObjectVal(m)
	m["any"] = cty.ListVal([]cty.Value{cty.True})
	actual := cty.ObjectVal(m)
	if errs := AssertObjectCompatible(schema, planned, actual); len(errs) > 0 {
		t.Errorf("unknown dynamic value should accept any type, got %v", errs)
	}
	m["any"] = cty.StringVal("x")
	planned = cty.ObjectVal(m)
	m["any"] = cty.NumberIntVal(1)
	if got := errStrings(AssertObjectCompatible(schema, planned, cty.ObjectVal(m))); len(got) != 1 {
		t.Errorf("changing a known dynamic value's type should be one error, got %v", got)
	}
}

func TestUnknownPathsAndNullUnknowns(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"a": cty.StringVal("x"),
		"b": cty.UnknownVal(cty.String),
		"c": cty.ListVal([]cty.Value{cty.UnknownVal(cty.Number)}),
	})
	got := []string{}
	for _, p := range UnknownPaths(v) {
		got = append(got, pathString(p))
	}
	if diff := cmp.Diff([]string{".b", ".c[0]"}, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	nulled := NullUnknowns(v)
	if !nulled.IsWhollyKnown() || !nulled.GetAttr("b").IsNull() || nulled.GetAttr("a").AsString() != "x" {
		t.Errorf("NullUnknowns gave %#v", nulled)
	}
}
