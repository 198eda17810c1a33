package kittest

import (
	"context"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
)

// Harness wraps one configured provider.
type Harness struct {
	T        testing.TB
	Provider providers.Interface
	Schema   providers.GetProviderSchemaResponse
}

// New configures p with workingDir and returns a harness for it.
func New(t testing.TB, p providers.Interface, workingDir string) *Harness {
	t.Helper()
	ctx := context.Background()
	schema := p.GetProviderSchema(ctx)
	if schema.Diagnostics.HasErrors() {
		t.Fatalf("GetProviderSchema: %v", schema.Diagnostics)
	}
	resp := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{
		Config:     schema.Provider.Block.EmptyValue(),
		WorkingDir: workingDir,
	})
	if resp.Diagnostics.HasErrors() {
		t.Fatalf("ConfigureProvider: %v", resp.Diagnostics)
	}
	return &Harness{T: t, Provider: p, Schema: schema}
}

func (h *Harness) resourceSchema(typ string) *providers.Block {
	h.T.Helper()
	return h.block(h.Schema.ResourceTypes, "resource type", typ)
}

func (h *Harness) dataSchema(typ string) *providers.Block {
	h.T.Helper()
	return h.block(h.Schema.DataSources, "data source", typ)
}

// block is typ's schema among schemas, which hold the kind of type named.
func (h *Harness) block(schemas map[string]providers.Schema, kind, typ string) *providers.Block {
	h.T.Helper()
	s, ok := schemas[typ]
	if !ok {
		h.T.Fatalf("no %s %q", kind, typ)
	}
	return s.Block
}

// Config decodes HCL source as the body of a resource of type typ.
func (h *Harness) Config(typ, src string) cty.Value {
	h.T.Helper()
	return decode(h.T, h.resourceSchema(typ), src)
}

// DataConfig decodes HCL source as the body of a data source of type typ.
func (h *Harness) DataConfig(typ, src string) cty.Value {
	h.T.Helper()
	return decode(h.T, h.dataSchema(typ), src)
}

func decode(t testing.TB, schema *providers.Block, src string) cty.Value {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags)
	}
	v, diags := hcldec.Decode(f.Body, schema.DecoderSpec(), nil)
	if diags.HasErrors() {
		t.Fatalf("decode: %s", diags)
	}
	return v
}

// Validate returns the diagnostics of ValidateResourceConfig.
func (h *Harness) Validate(typ string, config cty.Value) providers.Diagnostics {
	return h.Provider.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: typ, Config: config}).Diagnostics
}

// Plan validates config, plans from prior and checks the plan is valid.
func (h *Harness) Plan(typ string, prior, config cty.Value) providers.PlanResourceChangeResponse {
	h.T.Helper()
	schema := h.resourceSchema(typ)
	if diags := h.Validate(typ, config); diags.HasErrors() {
		h.T.Fatalf("ValidateResourceConfig: %v", diags)
	}
	if prior == cty.NilVal {
		prior = cty.NullVal(schema.ImpliedType())
	}
	resp := h.Provider.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
		TypeName:         typ,
		PriorState:       prior,
		ProposedNewState: objchange.ProposedNew(schema, prior, config),
		Config:           config,
	})
	if resp.Diagnostics.HasErrors() {
		h.T.Fatalf("PlanResourceChange: %v", resp.Diagnostics)
	}
	if errs := objchange.AssertObjectConforms(schema, resp.PlannedState); len(errs) > 0 {
		h.T.Fatalf("planned value does not conform to the schema: %v", errs)
	}
	if errs := objchange.AssertPlanValid(schema, prior, config, resp.PlannedState); len(errs) > 0 {
		h.T.Fatalf("invalid plan: %v", errs)
	}
	return resp
}

// Apply applies planned and checks the result is wholly known and
// compatible with the plan.
func (h *Harness) Apply(typ string, prior, planned, config cty.Value) cty.Value {
	h.T.Helper()
	schema := h.resourceSchema(typ)
	if prior == cty.NilVal {
		prior = cty.NullVal(schema.ImpliedType())
	}
	resp := h.Provider.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{
		TypeName:     typ,
		PriorState:   prior,
		PlannedState: planned,
		Config:       config,
	})
	if resp.Diagnostics.HasErrors() {
		h.T.Fatalf("ApplyResourceChange: %v", resp.Diagnostics)
	}
	got := resp.NewState
	if errs := objchange.AssertObjectConforms(schema, got); len(errs) > 0 {
		h.T.Fatalf("applied value does not conform to the schema: %v", errs)
	}
	if paths := objchange.UnknownPaths(got); len(paths) > 0 {
		h.T.Fatalf("applied value has unknowns at %v", paths)
	}
	if errs := objchange.AssertObjectCompatible(schema, planned, got); len(errs) > 0 {
		h.T.Fatalf("applied value does not match the plan: %v", errs)
	}
	return got
}

// Create plans and applies a new object from config.
func (h *Harness) Create(typ string, config cty.Value) cty.Value {
	h.T.Helper()
	plan := h.Plan(typ, cty.NilVal, config)
	return h.Apply(typ, cty.NilVal, plan.PlannedState, config)
}

// Destroy plans and applies deletion of prior.
func (h *Harness) Destroy(typ string, prior cty.Value) {
	h.T.Helper()
	null := cty.NullVal(h.resourceSchema(typ).ImpliedType())
	resp := h.Provider.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
		TypeName: typ, PriorState: prior, ProposedNewState: null, Config: null,
	})
	if resp.Diagnostics.HasErrors() || !resp.PlannedState.IsNull() {
		h.T.Fatalf("destroy plan: %#v %v", resp.PlannedState, resp.Diagnostics)
	}
	got := h.Provider.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{
		TypeName: typ, PriorState: prior, PlannedState: null, Config: null,
	})
	if got.Diagnostics.HasErrors() || !got.NewState.IsNull() {
		h.T.Fatalf("destroy: %#v %v", got.NewState, got.Diagnostics)
	}
}

// Read refreshes prior.
func (h *Harness) Read(typ string, prior cty.Value) cty.Value {
	h.T.Helper()
	resp := h.Provider.ReadResource(context.Background(), providers.ReadResourceRequest{TypeName: typ, PriorState: prior})
	if resp.Diagnostics.HasErrors() {
		h.T.Fatalf("ReadResource: %v", resp.Diagnostics)
	}
	return resp.NewState
}

// ReadData reads a data source (as data.TYPE.test), checking the result
// is wholly known.
func (h *Harness) ReadData(typ string, config cty.Value) (cty.Value, providers.Diagnostics) {
	h.T.Helper()
	if diags := h.Provider.ValidateDataResourceConfig(context.Background(), providers.ValidateDataResourceConfigRequest{TypeName: typ, Config: config}).Diagnostics; diags.HasErrors() {
		return cty.NilVal, diags
	}
	resp := h.Provider.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: typ, Config: config, Address: "data." + typ + ".test"})
	if resp.Diagnostics.HasErrors() {
		return resp.State, resp.Diagnostics
	}
	if errs := objchange.AssertObjectConforms(h.dataSchema(typ), resp.State); len(errs) > 0 {
		h.T.Fatalf("data value does not conform to the schema: %v", errs)
	}
	if !resp.State.IsWhollyKnown() {
		h.T.Fatalf("data value has unknowns: %#v", resp.State)
	}
	return resp.State, resp.Diagnostics
}

// Import imports id as typ and checks that exactly one object of typ
// comes back unless there are errors, and none when there are.
func (h *Harness) Import(typ, id string) (cty.Value, providers.Diagnostics) {
	h.T.Helper()
	resp := h.Provider.ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: typ, ID: id})
	if resp.Diagnostics.HasErrors() {
		if len(resp.ImportedResources) != 0 {
			h.T.Errorf("import failed but returned objects: %#v", resp.ImportedResources)
		}
		return cty.NilVal, resp.Diagnostics
	}
	if len(resp.ImportedResources) != 1 || resp.ImportedResources[0].TypeName != typ {
		h.T.Fatalf("import returned %#v", resp.ImportedResources)
	}
	return resp.ImportedResources[0].State, resp.Diagnostics
}

// AssertNoOp checks that planning config against prior changes nothing.
func (h *Harness) AssertNoOp(typ string, prior, config cty.Value) {
	h.T.Helper()
	resp := h.Plan(typ, prior, config)
	if !resp.PlannedState.RawEquals(prior) || len(resp.RequiresReplace) > 0 {
		h.T.Fatalf("expected no change, planned %#v (replace %v) from %#v", resp.PlannedState, resp.RequiresReplace, prior)
	}
}

// ReplacePaths renders RequiresReplace (or any paths) as HCL writes them.
func ReplacePaths(paths []cty.Path) []string {
	var out []string
	for _, p := range paths {
		out = append(out, attrpath.String(p))
	}
	return out
}

// WantOne fails t unless diags is exactly one diagnostic with summary,
// about the attribute at path as ReplacePaths writes it ("" for none).
func WantOne(t testing.TB, diags providers.Diagnostics, summary, path string) {
	t.Helper()
	if len(diags) != 1 || diags[0].Summary != summary {
		t.Fatalf("want one %q, got %v", summary, diags)
	}
	if got := ReplacePaths([]cty.Path{diags[0].Attribute})[0]; got != path {
		t.Errorf("path %q, want %q", got, path)
	}
}
