package objchange

import (
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
	nullS := cty.NullVal(cty.String)
	unkID := cty.UnknownVal(cty.String).RefineNotNull()
	in := cty.StringVal("hello")
	ds := dataSchema()
	dataConfig := dataObject(nullS, in, nullDyn, nullDyn)
	dataPlanned := dataObject(unkID, in, cty.UnknownVal(cty.String), nullDyn)
	dataFinal := dataObject(cty.StringVal("0b8d5bb6-5e64-4b5f-bd5b-7c5f4dc9a8a4"), in, in, nullDyn)

	ns := testSchema()
	s := cty.StringVal
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
	unk := cty.UnknownVal(cty.String)
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

// Each benchmark runs the reference (pre-optimisation) walk and the
// current one side by side, so one run compares them on the same machine.

func BenchmarkProposedNew(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name+"/ref", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refProposedNew(c.schema, c.prior, c.config)
			}
		})
		b.Run(c.name+"/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ProposedNew(c.schema, c.prior, c.config)
			}
		})
	}
}

func BenchmarkAssertPlanValid(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name+"/ref", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refAssertPlanValid(c.schema, c.prior, c.config, c.planned)
			}
		})
		b.Run(c.name+"/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				AssertPlanValid(c.schema, c.prior, c.config, c.planned)
			}
		})
	}
}

func BenchmarkAssertObjectCompatible(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name+"/ref", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refAssertObjectCompatible(c.schema, c.planned, c.final)
			}
		})
		b.Run(c.name+"/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				AssertObjectCompatible(c.schema, c.planned, c.final)
			}
		})
	}
}

func BenchmarkAssertObjectConforms(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name+"/ref", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refAssertObjectConforms(c.schema, c.planned)
			}
		})
		b.Run(c.name+"/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				AssertObjectConforms(c.schema, c.planned)
			}
		})
	}
}

func BenchmarkUnknownPaths(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name+"/ref", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refUnknownPaths(c.planned)
				refUnknownPaths(c.final)
			}
		})
		b.Run(c.name+"/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				UnknownPaths(c.planned)
				UnknownPaths(c.final)
			}
		})
	}
}

func BenchmarkSchemaHelpers(b *testing.B) {
	for _, c := range benchCases()[:3:3] {
		if c.name == "data/nochange" {
			continue
		}
		b.Run(c.name+"/ImpliedType/ref", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refBlockImpliedType(c.schema)
			}
		})
		b.Run(c.name+"/ImpliedType/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.schema.ImpliedType()
			}
		})
		b.Run(c.name+"/EmptyValue/ref", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refBlockEmptyValue(c.schema)
			}
		})
		b.Run(c.name+"/EmptyValue/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.schema.EmptyValue()
			}
		})
	}
}
