package objchange

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestProposedNew(t *testing.T) {
	tests := []struct {
		name          string
		prior, config cty.Value
		want          cty.Value
	}{
		{
			name:   "both null stays null",
			prior:  cty.NullVal(schemaTy),
			config: cty.NullVal(schemaTy),
			want:   cty.NullVal(schemaTy),
		},
		{
			name:   "create takes config and leaves computed null",
			prior:  cty.NullVal(schemaTy),
			config: object(map[string]cty.Value{"name": s("a")}),
			want:   object(map[string]cty.Value{"name": s("a")}),
		},
		{
			name:   "destroy returns prior",
			prior:  object(map[string]cty.Value{"name": s("a"), "id": s("i")}),
			config: cty.NullVal(schemaTy),
			want:   object(map[string]cty.Value{"name": s("a"), "id": s("i")}),
		},
		{
			name:   "computed attributes keep prior, configured ones take config",
			prior:  object(map[string]cty.Value{"name": s("a"), "id": s("i"), "mode": s("auto")}),
			config: object(map[string]cty.Value{"name": s("b")}),
			want:   object(map[string]cty.Value{"name": s("b"), "id": s("i"), "mode": s("auto")}),
		},
		{
			name:   "optional+computed set in config wins over prior",
			prior:  object(map[string]cty.Value{"name": s("a"), "mode": s("auto")}),
			config: object(map[string]cty.Value{"name": s("a"), "mode": s("fast")}),
			want:   object(map[string]cty.Value{"name": s("a"), "mode": s("fast")}),
		},
		{
			name:   "unknown config value is proposed as unknown",
			prior:  object(map[string]cty.Value{"name": s("a"), "mode": s("auto")}),
			config: object(map[string]cty.Value{"name": cty.UnknownVal(cty.String), "mode": cty.UnknownVal(cty.String)}),
			want:   object(map[string]cty.Value{"name": cty.UnknownVal(cty.String), "mode": cty.UnknownVal(cty.String)}),
		},
		{
			name:   "removed non-computed attribute becomes null",
			prior:  object(map[string]cty.Value{"name": s("a"), "secret": s("x")}),
			config: object(map[string]cty.Value{"name": s("a")}),
			want:   object(map[string]cty.Value{"name": s("a")}),
		},
		{
			name: "single and group blocks merge their computed attributes",
			prior: object(map[string]cty.Value{"name": s("a"),
				"single": inner(s("x"), s("u1")), "group": inner(s("g"), s("u2"))}),
			config: object(map[string]cty.Value{"name": s("a"),
				"single": inner(s("y"), nullS), "group": inner(s("g"), nullS)}),
			want: object(map[string]cty.Value{"name": s("a"),
				"single": inner(s("y"), s("u1")), "group": inner(s("g"), s("u2"))}),
		},
		{
			name:   "single block removed from config is null",
			prior:  object(map[string]cty.Value{"name": s("a"), "single": inner(s("x"), s("u1"))}),
			config: object(map[string]cty.Value{"name": s("a")}),
			want:   object(map[string]cty.Value{"name": s("a")}),
		},
		{
			name: "list blocks correlate by index, new ones verbatim",
			prior: object(map[string]cty.Value{"name": s("a"),
				"list": cty.ListVal([]cty.Value{inner(s("x"), s("u1"))})}),
			config: object(map[string]cty.Value{"name": s("a"),
				"list": cty.ListVal([]cty.Value{inner(s("x2"), nullS), inner(s("y"), nullS)})}),
			want: object(map[string]cty.Value{"name": s("a"),
				"list": cty.ListVal([]cty.Value{inner(s("x2"), s("u1")), inner(s("y"), nullS)})}),
		},
		{
			name: "map blocks correlate by key",
			prior: object(map[string]cty.Value{"name": s("a"),
				"map": cty.MapVal(map[string]cty.Value{"k": inner(s("x"), s("u1")), "gone": inner(s("g"), s("u9"))})}),
			config: object(map[string]cty.Value{"name": s("a"),
				"map": cty.MapVal(map[string]cty.Value{"k": inner(s("x"), nullS), "new": inner(s("n"), nullS)})}),
			want: object(map[string]cty.Value{"name": s("a"),
				"map": cty.MapVal(map[string]cty.Value{"k": inner(s("x"), s("u1")), "new": inner(s("n"), nullS)})}),
		},
		{
			name: "set blocks correlate by content ignoring unset computed attributes",
			prior: object(map[string]cty.Value{"name": s("a"),
				"set": cty.SetVal([]cty.Value{inner(s("x"), s("u1")), inner(s("y"), s("u2"))})}),
			config: object(map[string]cty.Value{"name": s("a"),
				"set": cty.SetVal([]cty.Value{inner(s("y"), nullS), inner(s("z"), nullS)})}),
			want: object(map[string]cty.Value{"name": s("a"),
				"set": cty.SetVal([]cty.Value{inner(s("y"), s("u2")), inner(s("z"), nullS)})}),
		},
		{
			name: "unknown block collection from a dynamic block is kept",
			prior: object(map[string]cty.Value{"name": s("a"),
				"list": cty.ListVal([]cty.Value{inner(s("x"), s("u1"))})}),
			config: object(map[string]cty.Value{"name": s("a"), "list": cty.UnknownVal(cty.List(innerTy))}),
			want:   object(map[string]cty.Value{"name": s("a"), "list": cty.UnknownVal(cty.List(innerTy))}),
		},
		{
			name: "nested-type list correlates by index",
			prior: object(map[string]cty.Value{"name": s("a"),
				"disks": cty.ListVal([]cty.Value{inner(s("d"), s("u1"))})}),
			config: object(map[string]cty.Value{"name": s("a"),
				"disks": cty.ListVal([]cty.Value{inner(s("d"), nullS), inner(s("e"), nullS)})}),
			want: object(map[string]cty.Value{"name": s("a"),
				"disks": cty.ListVal([]cty.Value{inner(s("d"), s("u1")), inner(s("e"), nullS)})}),
		},
		{
			name: "optional+computed nested type removed by user is dropped",
			prior: object(map[string]cty.Value{"name": s("a"),
				"disks": cty.ListVal([]cty.Value{inner(s("d"), s("u1"))})}),
			config: object(map[string]cty.Value{"name": s("a")}),
			want:   object(map[string]cty.Value{"name": s("a")}),
		},
		{
			name: "optional+computed nested type chosen by provider is kept",
			prior: object(map[string]cty.Value{"name": s("a"),
				"disks": cty.ListVal([]cty.Value{inner(nullS, s("u1"))})}),
			config: object(map[string]cty.Value{"name": s("a")}),
			want: object(map[string]cty.Value{"name": s("a"),
				"disks": cty.ListVal([]cty.Value{inner(nullS, s("u1"))})}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ProposedNew(testSchema(), tt.prior, tt.config)
			if diff := cmp.Diff(tt.want, got, valueComparer); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlannedDataResourceObject(t *testing.T) {
	config := object(map[string]cty.Value{
		"name":   s("a"),
		"single": inner(s("x"), nullS),
		"list":   cty.ListVal([]cty.Value{inner(s("l"), nullS)}),
		"set":    cty.SetVal([]cty.Value{inner(s("s"), nullS)}),
	})
	got := PlannedDataResourceObject(testSchema(), config)
	want := object(map[string]cty.Value{
		"name":   s("a"),
		"id":     unk,
		"mode":   unk,
		"disks":  cty.UnknownVal(cty.List(innerTy)),
		"single": inner(s("x"), unk),
		"group":  inner(nullS, unk),
		"list":   cty.ListVal([]cty.Value{inner(s("l"), unk)}),
		// Set elements cannot be correlated with an unknown prior, so
		// their computed attributes stay null.
		"set": cty.SetVal([]cty.Value{inner(s("s"), nullS)}),
	})
	if diff := cmp.Diff(want, got, valueComparer); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
