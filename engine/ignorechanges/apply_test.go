package ignorechanges

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/rules"
)

var ignoreSchema = &providers.Block{
	Attributes: map[string]*providers.Attribute{
		"id":    {Type: cty.String, Computed: true},
		"name":  {Type: cty.String, Required: true},
		"size":  {Type: cty.Number, Optional: true, Computed: true},
		"tags":  {Type: cty.Map(cty.String), Optional: true},
		"input": {Type: cty.DynamicPseudoType, Optional: true},
		"ports": {Type: cty.List(cty.Number), Optional: true},
	},
	BlockTypes: map[string]*providers.NestedBlock{
		"rule": {Nesting: providers.NestingList, Block: providers.Block{Attributes: map[string]*providers.Attribute{
			"port": {Type: cty.Number, Required: true},
			"uid":  {Type: cty.String, Computed: true},
		}}},
	},
}

func ignoreObj(name string, tags cty.Value, input cty.Value, ports cty.Value, rules cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("x1"), "name": cty.StringVal(name), "size": cty.NumberIntVal(1),
		"tags": tags, "input": input, "ports": ports, "rule": rules,
	})
}

func TestApplyIgnoreChanges(t *testing.T) {
	ruleTy := ignoreSchema.BlockTypes["rule"].Block.ImpliedType()
	noRules := cty.ListValEmpty(ruleTy)
	tags := func(kv ...string) cty.Value {
		if len(kv) == 0 {
			return cty.MapValEmpty(cty.String)
		}
		m := map[string]cty.Value{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = cty.StringVal(kv[i+1])
		}
		return cty.MapVal(m)
	}
	nullTags := cty.NullVal(cty.Map(cty.String))
	nullIn := cty.NullVal(cty.DynamicPseudoType)
	nullPorts := cty.NullVal(cty.List(cty.Number))
	obj := func(kv ...string) cty.Value {
		m := map[string]cty.Value{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = cty.StringVal(kv[i+1])
		}
		return cty.ObjectVal(m)
	}
	prior := ignoreObj("old", tags("Name", "a", "Env", "prod"), obj("keep", "k1", "track", "t1"), cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
		cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22), "uid": cty.StringVal("u1")})}))
	tests := []struct {
		name   string
		config cty.Value
		prep   rules.Preparation
		want   cty.Value
	}{
		{
			name:   "attribute keeps its prior value",
			config: ignoreObj("new", nullTags, nullIn, nullPorts, noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"name"})},
			want:   ignoreObj("old", nullTags, nullIn, nullPorts, noRules),
		},
		{
			name:   "map key takes the prior element, other keys follow the config",
			config: ignoreObj("new", tags("Name", "b", "Env", "dev"), nullIn, nullPorts, noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"tags", attrpath.MapKey("Name")})},
			want:   ignoreObj("new", tags("Name", "a", "Env", "dev"), nullIn, nullPorts, noRules),
		},
		{
			name:   "map key absent from prior is removed",
			config: ignoreObj("new", tags("Owner", "me", "Env", "prod"), nullIn, nullPorts, noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"tags", attrpath.MapKey("Owner")})},
			want:   ignoreObj("new", tags("Env", "prod"), nullIn, nullPorts, noRules),
		},
		{
			name:   "map key in a null config map",
			config: ignoreObj("new", nullTags, nullIn, nullPorts, noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"tags", attrpath.MapKey("Name")})},
			want:   ignoreObj("new", tags("Name", "a"), nullIn, nullPorts, noRules),
		},
		{
			name:   "unknown map cannot have keys ignored",
			config: ignoreObj("new", cty.UnknownVal(cty.Map(cty.String)), nullIn, nullPorts, noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"tags", attrpath.MapKey("Name")})},
			want:   ignoreObj("new", cty.UnknownVal(cty.Map(cty.String)), nullIn, nullPorts, noRules),
		},
		{
			name:   "string index on an object takes the whole prior object",
			config: ignoreObj("new", nullTags, obj("keep", "k2", "track", "t2"), nullPorts, noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"input", attrpath.MapKey("keep")})},
			want:   ignoreObj("new", nullTags, obj("keep", "k1", "track", "t1"), nullPorts, noRules),
		},
		{
			name:   "attribute step into an object ignores that attribute only",
			config: ignoreObj("new", nullTags, obj("keep", "k2", "track", "t2"), nullPorts, noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"input", "keep"})},
			want:   ignoreObj("new", nullTags, obj("keep", "k1", "track", "t2"), nullPorts, noRules),
		},
		{
			name:   "list element",
			config: ignoreObj("new", nullTags, nullIn, cty.ListVal([]cty.Value{cty.NumberIntVal(81), cty.NumberIntVal(444)}), noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"ports", 1})},
			want:   ignoreObj("new", nullTags, nullIn, cty.ListVal([]cty.Value{cty.NumberIntVal(81), cty.NumberIntVal(443)}), noRules),
		},
		{
			name:   "paths that lead nowhere are skipped",
			config: ignoreObj("new", nullTags, nullIn, nullPorts, noRules),
			prep:   rules.Preparation{Ignore: paths([]any{"nope"}, []any{"ports", 7}, []any{"tags", "x", "y"})},
			want:   ignoreObj("new", nullTags, nullIn, nullPorts, noRules),
		},
		{
			name:   "all: prior without computed-only attributes",
			config: ignoreObj("new", nullTags, nullIn, nullPorts, noRules),
			prep:   rules.Preparation{IgnoreAll: true},
			want: cty.ObjectVal(map[string]cty.Value{
				"id": cty.NullVal(cty.String), "name": cty.StringVal("old"), "size": cty.NumberIntVal(1),
				"tags": tags("Name", "a", "Env", "prod"), "input": obj("keep", "k1", "track", "t1"),
				"ports": cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
				"rule":  cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22), "uid": cty.NullVal(cty.String)})}),
			}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Apply(ignoreSchema, prior, tt.config, &tt.prep)
			if !got.RawEquals(tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
	t.Run("nothing is ignored without a prior object", func(t *testing.T) {
		config := ignoreObj("new", nullTags, nullIn, nullPorts, noRules)
		got := Apply(ignoreSchema, cty.NullVal(ignoreSchema.ImpliedType()), config, &rules.Preparation{IgnoreAll: true})
		if !got.RawEquals(config) {
			t.Errorf("got %#v, want the config unchanged", got)
		}
	})
}

// paths builds paths from the rules' step lists, as the tests write them.
func paths(lists ...[]any) []cty.Path {
	out := make([]cty.Path, len(lists))
	for i, steps := range lists {
		p, err := attrpath.FromSteps(steps)
		if err != nil {
			panic(err)
		}
		out[i] = p
	}
	return out
}

func TestPath(t *testing.T) {
	tests := []struct {
		name string
		t    hcl.Traversal
		want []any // in the rules' step form; nil: not static
	}{
		{"attribute", hcl.Traversal{hcl.TraverseRoot{Name: "name"}}, []any{"name"}},
		{"key after a dot is a name", hcl.Traversal{hcl.TraverseRoot{Name: "tags"}, hcl.TraverseAttr{Name: "Name"}}, []any{"tags", "Name"}},
		{"string index is a map key", hcl.Traversal{hcl.TraverseRoot{Name: "tags"}, hcl.TraverseIndex{Key: cty.StringVal("a.b")}}, []any{"tags", attrpath.MapKey("a.b")}},
		{"index", hcl.Traversal{hcl.TraverseRoot{Name: "ports"}, hcl.TraverseIndex{Key: cty.NumberIntVal(1)}}, []any{"ports", 1}},
		{"splat", hcl.Traversal{hcl.TraverseRoot{Name: "rule"}, hcl.TraverseSplat{}, hcl.TraverseAttr{Name: "port"}}, nil},
		{"bool key", hcl.Traversal{hcl.TraverseRoot{Name: "tags"}, hcl.TraverseIndex{Key: cty.True}}, nil},
		{"unknown key", hcl.Traversal{hcl.TraverseRoot{Name: "tags"}, hcl.TraverseIndex{Key: cty.UnknownVal(cty.String)}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := Path(tt.t)
			if ok != (tt.want != nil) {
				t.Fatalf("Path ok = %v, want %v", ok, tt.want != nil)
			}
			if !ok {
				return
			}
			if diff := cmp.Diff(tt.want, attrpath.Steps(p)); diff != "" {
				t.Errorf("Path (-want +got):\n%s", diff)
			}
		})
	}
}
