package objchange

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// dataSchema mirrors terraform_data: one computed id and three
// dynamically-typed attributes, the shape of the 100k-instance benchmarks.
func dataSchema() *providers.Block {
	return &providers.Block{Attributes: map[string]*providers.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}}
}

func dataObject(id, input, output, triggers cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": id, "input": input, "output": output, "triggers_replace": triggers})
}

// benchCase is one call's arguments in the life of a resource instance.
type benchCase struct {
	name                          string
	schema                        *providers.Block
	prior, config, planned, final cty.Value
}

func benchCases() []benchCase {
	nullDyn := cty.NullVal(cty.DynamicPseudoType)
	unkID := cty.UnknownVal(cty.String).RefineNotNull()
	in := cty.StringVal("hello")
	ds := dataSchema()
	dataConfig := dataObject(nullS, in, nullDyn, nullDyn)
	dataPlanned := dataObject(unkID, in, cty.UnknownVal(cty.String), nullDyn)
	dataFinal := dataObject(cty.StringVal("0b8d5bb6-5e64-4b5f-bd5b-7c5f4dc9a8a4"), in, in, nullDyn)

	ns := testSchema()
	nestedConfig := object(map[string]cty.Value{
		"name": s("a"), "tags": cty.MapVal(map[string]cty.Value{"k": s("v")}),
		"disks":  cty.ListVal([]cty.Value{inner(s("d0"), nullS), inner(s("d1"), nullS)}),
		"single": inner(s("one"), nullS),
		"list":   cty.ListVal([]cty.Value{inner(s("l0"), nullS), inner(s("l1"), nullS)}),
		"set":    cty.SetVal([]cty.Value{inner(s("s0"), nullS), inner(s("s1"), nullS)}),
		"map":    cty.MapVal(map[string]cty.Value{"a": inner(s("m0"), nullS)}),
	})
	nestedFinal := object(map[string]cty.Value{
		"id": s("i-1"), "mode": s("auto"),
		"name": s("a"), "tags": cty.MapVal(map[string]cty.Value{"k": s("v")}),
		"disks":  cty.ListVal([]cty.Value{inner(s("d0"), s("u0")), inner(s("d1"), s("u1"))}),
		"single": inner(s("one"), s("u2")),
		"group":  inner(nullS, s("u3")),
		"list":   cty.ListVal([]cty.Value{inner(s("l0"), s("u4")), inner(s("l1"), s("u5"))}),
		"set":    cty.SetVal([]cty.Value{inner(s("s0"), s("u6")), inner(s("s1"), s("u7"))}),
		"map":    cty.MapVal(map[string]cty.Value{"a": inner(s("m0"), s("u8"))}),
	})
	nestedPlanned := object(map[string]cty.Value{
		"id": unk, "mode": unk,
		"name": s("a"), "tags": cty.MapVal(map[string]cty.Value{"k": s("v")}),
		"disks":  cty.ListVal([]cty.Value{inner(s("d0"), unk), inner(s("d1"), unk)}),
		"single": inner(s("one"), unk),
		"group":  inner(nullS, unk),
		"list":   cty.ListVal([]cty.Value{inner(s("l0"), unk), inner(s("l1"), unk)}),
		"set":    cty.SetVal([]cty.Value{inner(s("s0"), unk), inner(s("s1"), unk)}),
		"map":    cty.MapVal(map[string]cty.Value{"a": inner(s("m0"), unk)}),
	})
	return []benchCase{
		{name: "data/create", schema: ds, prior: cty.NullVal(ds.ImpliedType()), config: dataConfig, planned: dataPlanned, final: dataFinal},
		{name: "data/nochange", schema: ds, prior: dataFinal, config: dataConfig, planned: dataFinal, final: dataFinal},
		{name: "nested/create", schema: ns, prior: cty.NullVal(ns.ImpliedType()), config: nestedConfig, planned: nestedPlanned, final: nestedFinal},
		{name: "nested/nochange", schema: ns, prior: nestedFinal, config: nestedConfig, planned: nestedFinal, final: nestedFinal},
	}
}

// BenchmarkWalks runs the reference (pre-optimisation) version of each
// walk and the current one side by side, so one run compares them on the
// same machine.
func BenchmarkWalks(b *testing.B) {
	all := benchCases()
	// The schema helpers need one case per schema: the creating ones.
	var creates []benchCase
	for _, c := range all {
		if strings.HasSuffix(c.name, "/create") {
			creates = append(creates, c)
		}
	}
	walks := []struct {
		name         string
		cases        []benchCase
		ref, current func(c benchCase)
	}{
		{"ProposedNew", all,
			func(c benchCase) { refProposedNew(c.schema, c.prior, c.config) },
			func(c benchCase) { ProposedNew(c.schema, c.prior, c.config) }},
		{"AssertPlanValid", all,
			func(c benchCase) { refAssertPlanValid(c.schema, c.prior, c.config, c.planned) },
			func(c benchCase) { AssertPlanValid(c.schema, c.prior, c.config, c.planned) }},
		{"AssertObjectCompatible", all,
			func(c benchCase) { refAssertObjectCompatible(c.schema, c.planned, c.final) },
			func(c benchCase) { AssertObjectCompatible(c.schema, c.planned, c.final) }},
		{"AssertObjectConforms", all,
			func(c benchCase) { refAssertObjectConforms(c.schema, c.planned) },
			func(c benchCase) { AssertObjectConforms(c.schema, c.planned) }},
		{"UnknownPaths", all,
			func(c benchCase) { refUnknownPaths(c.planned); refUnknownPaths(c.final) },
			func(c benchCase) { UnknownPaths(c.planned); UnknownPaths(c.final) }},
		{"ImpliedType", creates,
			func(c benchCase) { refBlockImpliedType(c.schema) },
			func(c benchCase) { c.schema.ImpliedType() }},
		{"EmptyValue", creates,
			func(c benchCase) { refBlockEmptyValue(c.schema) },
			func(c benchCase) { c.schema.EmptyValue() }},
	}
	for _, w := range walks {
		for _, c := range w.cases {
			for side, run := range [2]func(c benchCase){w.ref, w.current} {
				b.Run(w.name+"/"+c.name+"/"+[2]string{"ref", "new"}[side], func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						run(c)
					}
				})
			}
		}
	}
}
