package objchange

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestAssertPlanValid(t *testing.T) {
	tests := []struct {
		name                   string
		prior, config, planned cty.Value
		want                   []string
	}{
		{
			name:    "create with computed unknowns is valid",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(nil),
			planned: objectWith(map[string]cty.Value{"id": unk, "mode": unk}),
		},
		{
			name:    "refined unknown matches plain unknown config",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"secret": unk}),
			planned: objectWith(map[string]cty.Value{"secret": unk.RefineNotNull()}),
		},
		{
			name:    "provider keeps prior value instead of config: allowed",
			prior:   objectWith(map[string]cty.Value{"name": s("A")}),
			config:  objectWith(nil),
			planned: objectWith(map[string]cty.Value{"name": s("A")}),
		},
		{
			name:    "provider changes a configured value",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(nil),
			planned: objectWith(map[string]cty.Value{"name": s("b")}),
			want:    []string{`.name: planned value "b" does not match config value "a"`},
		},
		{
			name:    "provider changes a configured value with a prior",
			prior:   objectWith(map[string]cty.Value{"name": s("old")}),
			config:  objectWith(nil),
			planned: objectWith(map[string]cty.Value{"name": s("b")}),
			want:    []string{`.name: planned value "b" does not match config value "a" nor prior value "old"`},
		},
		{
			name:    "sensitive values never printed",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"secret": s("hunter2")}),
			planned: objectWith(map[string]cty.Value{"secret": s("other")}),
			want:    []string{`.secret: sensitive planned value does not match config value`},
		},
		{
			name:    "value for non-computed attribute not in config",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(nil),
			planned: objectWith(map[string]cty.Value{"tags": cty.MapValEmpty(cty.String)}),
			want:    []string{`.tags: planned value {} for a non-computed attribute`},
		},
		{
			name:    "unknown planned for configured value",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(nil),
			planned: objectWith(map[string]cty.Value{"name": unk}),
			want:    []string{`.name: planned value (known after apply) does not match config value "a"`},
		},
		{
			name:    "list block count must match",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("x"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"list": cty.ListValEmpty(innerTy)}),
			want:    []string{`.list: block count in plan (0) disagrees with count in config (1)`},
		},
		{
			name:    "list block element computed attribute may be set",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("x"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("x"), unk)})}),
		},
		{
			name:    "list block element configured attribute changed",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("x"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("y"), nullS)})}),
			want:    []string{`.list[0].name: planned value "y" does not match config value "x"`},
		},
		{
			name:    "list block element unknown",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(s("x"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"list": cty.ListVal([]cty.Value{cty.UnknownVal(innerTy)})}),
			want:    []string{`.list[0]: planned an unknown value for a nested block`},
		},
		{
			name:    "map block keys must match",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{"a": inner(s("x"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{"b": inner(s("x"), nullS)})}),
			want: []string{
				`.map["a"]: block key "a" is configured but missing from the plan`,
				`.map["b"]: block key "b" is planned but not configured`,
			},
		},
		{
			name:    "single block planned absent",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"single": inner(s("x"), nullS)}),
			planned: objectWith(nil),
			want:    []string{`.single: planned for absence but config wants existence`},
		},
		{
			name:    "set block elements must not be unknown",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(s("x"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"set": cty.SetVal([]cty.Value{cty.UnknownVal(innerTy)})}),
			want:    []string{`.set: planned an unknown value for a nested block`},
		},
		{
			name:    "unknown dynamic block config must stay unknown",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerTy))}),
			planned: objectWith(map[string]cty.Value{"list": cty.ListValEmpty(innerTy)}),
			want:    []string{`.list: planned a value for blocks whose configuration is unknown`},
		},
		{
			name:    "nested type list length must match config",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("d"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("d"), unk), inner(s("e"), unk)})}),
			want:    []string{`.disks: count in plan (2) disagrees with count in config (1)`},
		},
		{
			name:    "nested type element configured value changed",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("d"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("x"), unk)})}),
			want:    []string{`.disks[0].name: planned value "x" does not match config value "d"`},
		},
		{
			name:    "nested type unknown when configured",
			prior:   cty.NullVal(schemaTy),
			config:  objectWith(map[string]cty.Value{"disks": cty.ListVal([]cty.Value{inner(s("d"), nullS)})}),
			planned: objectWith(map[string]cty.Value{"disks": cty.UnknownVal(cty.List(innerTy))}),
			want:    []string{`.disks: planned an unknown value for a configured attribute`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errStrings(AssertPlanValid(testSchema(), tt.prior, tt.config, tt.planned))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
