package objchange

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

var valueComparer = cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })

func obj(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }

// errStrings renders path errors as "path: message", sorted.
func errStrings(errs []error) []string {
	var out []string
	for _, err := range errs {
		pe, ok := err.(cty.PathError)
		if !ok {
			out = append(out, err.Error())
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s", pathString(pe.Path), pe.Error()))
	}
	sort.Strings(out)
	return out
}

func pathString(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			b.WriteString("[" + formatValue(s.Key) + "]")
		}
	}
	return b.String()
}

// testSchema has an attribute of every flavour and a block of every nesting mode.
func testSchema() *providers.Block {
	inner := providers.Block{Attributes: map[string]*providers.Attribute{
		"name": {Type: cty.String, Optional: true},
		"uid":  {Type: cty.String, Computed: true},
	}}
	return &providers.Block{
		Attributes: map[string]*providers.Attribute{
			"id":     {Type: cty.String, Computed: true},
			"name":   {Type: cty.String, Required: true},
			"mode":   {Type: cty.String, Optional: true, Computed: true},
			"secret": {Type: cty.String, Optional: true, Sensitive: true},
			"tags":   {Type: cty.Map(cty.String), Optional: true},
			"disks": {Optional: true, Computed: true, NestedType: &providers.Object{
				Nesting:    providers.NestingList,
				Attributes: inner.Attributes,
			}},
		},
		BlockTypes: map[string]*providers.NestedBlock{
			"single": {Nesting: providers.NestingSingle, Block: inner},
			"group":  {Nesting: providers.NestingGroup, Block: inner},
			"list":   {Nesting: providers.NestingList, Block: inner},
			"set":    {Nesting: providers.NestingSet, Block: inner},
			"map":    {Nesting: providers.NestingMap, Block: inner},
		},
	}
}

// Shorthands of the table tests.
var (
	s        = cty.StringVal
	nullS    = cty.NullVal(cty.String)
	unk      = cty.UnknownVal(cty.String)
	schemaTy = testSchema().ImpliedType()
)

// objectWith is a testSchema object named "a" with extra attributes.
func objectWith(extra map[string]cty.Value) cty.Value {
	m := map[string]cty.Value{"name": s("a")}
	maps.Copy(m, extra)
	return object(m)
}

var innerTy = cty.Object(map[string]cty.Type{"name": cty.String, "uid": cty.String})

func inner(name, uid cty.Value) cty.Value {
	return obj(map[string]cty.Value{"name": name, "uid": uid})
}

// object builds a testSchema value from the empty value plus overrides.
func object(overrides map[string]cty.Value) cty.Value {
	vals := testSchema().EmptyValue().AsValueMap()
	for k, v := range overrides {
		vals[k] = v
	}
	return cty.ObjectVal(vals)
}

func schemaAttrDynamic() *providers.Attribute {
	return &providers.Attribute{Type: cty.DynamicPseudoType, Optional: true}
}
