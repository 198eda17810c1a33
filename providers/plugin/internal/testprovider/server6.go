package testprovider

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/tenetplan/tenet/providers"
)

// server6 serves core over protocol 6. RPCs the tests do not use are
// left to the embedded nil interface: calling one crashes the plugin,
// which is what a test of an unexpected call should see.
type server6 struct {
	tfprotov6.ProviderServer
	c      *core
	schema providers.GetProviderSchemaResponse
}

func newServer6(c *core) *server6 { return &server6{c: c, schema: c.schema()} }

func dv6(v cty.Value, ty cty.Type) *tfprotov6.DynamicValue {
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		panic(err)
	}
	return &tfprotov6.DynamicValue{MsgPack: b}
}

func val6(d *tfprotov6.DynamicValue, ty cty.Type) cty.Value {
	if d == nil {
		return cty.NullVal(ty)
	}
	v, err := ctymsgpack.Unmarshal(d.MsgPack, ty)
	if err != nil {
		panic(err)
	}
	return v
}

func diags6(ds providers.Diagnostics) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, d := range ds {
		sev := tfprotov6.DiagnosticSeverityError
		if d.Severity != 1 { // hcl.DiagError
			sev = tfprotov6.DiagnosticSeverityWarning
		}
		out = append(out, &tfprotov6.Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail, Attribute: attrPath(d.Attribute)})
	}
	return out
}

func block6(b *providers.Block) *tfprotov6.SchemaBlock {
	out := &tfprotov6.SchemaBlock{Description: b.Description, Deprecated: b.Deprecated}
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		out.Attributes = append(out.Attributes, attr6(name, b.Attributes[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb := b.BlockTypes[name]
		out.BlockTypes = append(out.BlockTypes, &tfprotov6.SchemaNestedBlock{
			TypeName: name, Block: block6(&nb.Block), Nesting: tfprotov6.SchemaNestedBlockNestingMode(wireNesting[nb.Nesting]),
			MinItems: int64(nb.MinItems), MaxItems: int64(nb.MaxItems),
		})
	}
	return out
}

func attr6(name string, a *providers.Attribute) *tfprotov6.SchemaAttribute {
	out := &tfprotov6.SchemaAttribute{
		Name: name, Description: a.Description, Required: a.Required, Optional: a.Optional, Computed: a.Computed,
		Sensitive: a.Sensitive, Deprecated: a.Deprecated, WriteOnly: a.WriteOnly,
	}
	if a.NestedType != nil {
		obj := &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingMode(wireNesting[a.NestedType.Nesting])}
		for _, n := range slices.Sorted(maps.Keys(a.NestedType.Attributes)) {
			obj.Attributes = append(obj.Attributes, attr6(n, a.NestedType.Attributes[n]))
		}
		out.NestedType = obj
		return out
	}
	out.Type = tfType(a.Type)
	return out
}

func param6(p providers.FunctionParameter) *tfprotov6.FunctionParameter {
	return &tfprotov6.FunctionParameter{Name: p.Name, Type: tfType(p.Type), AllowNullValue: p.AllowNullValue, AllowUnknownValues: p.AllowUnknownValues}
}

func (s *server6) functions() map[string]*tfprotov6.Function {
	out := map[string]*tfprotov6.Function{}
	for name, f := range s.schema.Functions {
		fn := &tfprotov6.Function{Return: &tfprotov6.FunctionReturn{Type: tfType(f.ReturnType)}, Summary: f.Summary}
		for _, p := range f.Parameters {
			fn.Parameters = append(fn.Parameters, param6(p))
		}
		if f.VariadicParameter != nil {
			fn.VariadicParameter = param6(*f.VariadicParameter)
		}
		out[name] = fn
	}
	return out
}

func (s *server6) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp := &tfprotov6.GetProviderSchemaResponse{
		Provider:          &tfprotov6.Schema{Block: block6(s.schema.Provider.Block)},
		ResourceSchemas:   map[string]*tfprotov6.Schema{},
		DataSourceSchemas: map[string]*tfprotov6.Schema{},
		Functions:         s.functions(),
		ServerCapabilities: &tfprotov6.ServerCapabilities{
			PlanDestroy: s.schema.PlanDestroy, MoveResourceState: s.schema.MoveResourceState, GetProviderSchemaOptional: true,
		},
	}
	for name, rs := range s.schema.ResourceTypes {
		resp.ResourceSchemas[name] = &tfprotov6.Schema{Version: rs.Version, Block: block6(rs.Block)}
	}
	for name, ds := range s.schema.DataSources {
		resp.DataSourceSchemas[name] = &tfprotov6.Schema{Block: block6(ds.Block)}
	}
	return resp, nil
}

func (s *server6) providerType() cty.Type { return s.schema.Provider.Block.ImpliedType() }

func (s *server6) resourceType(name string) cty.Type {
	return s.schema.ResourceTypes[name].Block.ImpliedType()
}

func (s *server6) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	_, diags := s.c.validateProvider(val6(req.Config, s.providerType()))
	return &tfprotov6.ValidateProviderConfigResponse{Diagnostics: diags6(diags)}, nil
}

func (s *server6) ConfigureProvider(_ context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	diags := s.c.configure(val6(req.Config, s.providerType()))
	if req.TerraformVersion == "" {
		diags = diags.Errorf(nil, "No version", "ConfigureProvider came without terraform_version")
	}
	if req.ClientCapabilities == nil {
		diags = diags.Errorf(nil, "No capabilities", "ConfigureProvider came without client capabilities")
	}
	return &tfprotov6.ConfigureProviderResponse{Diagnostics: diags6(diags)}, nil
}

func (s *server6) StopProvider(ctx context.Context, _ *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	if s.c.misbehave == "hang" {
		<-ctx.Done()
		select {}
	}
	return &tfprotov6.StopProviderResponse{}, nil
}

func (s *server6) ValidateResourceConfig(_ context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	diags := s.c.validateResource(req.TypeName, val6(req.Config, s.resourceType(req.TypeName)))
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: diags6(diags)}, nil
}

func (s *server6) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	ty := s.resourceType(req.TypeName)
	r := s.c.upgrade(providers.UpgradeResourceStateRequest{TypeName: req.TypeName, Version: req.Version, RawJSON: req.RawState.JSON, RawFlatmap: req.RawState.Flatmap}, ty)
	resp := &tfprotov6.UpgradeResourceStateResponse{Diagnostics: diags6(r.Diagnostics)}
	if r.UpgradedState != cty.NilVal {
		resp.UpgradedState = dv6(r.UpgradedState, ty)
	}
	return resp, nil
}

func (s *server6) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	ty := s.resourceType(req.TypeName)
	r := s.c.read(providers.ReadResourceRequest{TypeName: req.TypeName, PriorState: val6(req.CurrentState, ty), Private: req.Private})
	return &tfprotov6.ReadResourceResponse{NewState: dv6(r.NewState, ty), Private: r.Private}, nil
}

func (s *server6) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	ty := s.resourceType(req.TypeName)
	if s.c.misbehave == "wrongtype" {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: dv6(cty.StringVal("oops"), cty.String)}, nil
	}
	r := s.c.plan(ctx, providers.PlanResourceChangeRequest{
		TypeName: req.TypeName, PriorState: val6(req.PriorState, ty), ProposedNewState: val6(req.ProposedNewState, ty),
		Config: val6(req.Config, ty), PriorPrivate: req.PriorPrivate,
	})
	resp := &tfprotov6.PlanResourceChangeResponse{PlannedState: dv6(r.PlannedState, ty), PlannedPrivate: r.PlannedPrivate,
		UnsafeToUseLegacyTypeSystem: r.LegacyTypeSystem, Diagnostics: diags6(r.Diagnostics)}
	for _, p := range r.RequiresReplace {
		resp.RequiresReplace = append(resp.RequiresReplace, attrPath(p))
	}
	return resp, nil
}

func (s *server6) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	ty := s.resourceType(req.TypeName)
	r := s.c.apply(providers.ApplyResourceChangeRequest{
		TypeName: req.TypeName, PriorState: val6(req.PriorState, ty), PlannedState: val6(req.PlannedState, ty),
		Config: val6(req.Config, ty), PlannedPrivate: req.PlannedPrivate,
	})
	return &tfprotov6.ApplyResourceChangeResponse{NewState: dv6(r.NewState, ty), Private: r.Private}, nil
}

func (s *server6) ImportResourceState(_ context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	ty := s.resourceType(req.TypeName)
	r := s.c.importState(providers.ImportResourceStateRequest{TypeName: req.TypeName, ID: req.ID}, ty)
	resp := &tfprotov6.ImportResourceStateResponse{Diagnostics: diags6(r.Diagnostics)}
	for _, ir := range r.ImportedResources {
		resp.ImportedResources = append(resp.ImportedResources, &tfprotov6.ImportedResource{TypeName: ir.TypeName, State: dv6(ir.State, ty), Private: ir.Private})
	}
	return resp, nil
}

func (s *server6) MoveResourceState(_ context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	ty := s.resourceType(req.TargetTypeName)
	r := s.c.move(providers.MoveResourceStateRequest{
		SourceProviderAddress: req.SourceProviderAddress, SourceTypeName: req.SourceTypeName, SourceSchemaVersion: req.SourceSchemaVersion,
		SourceStateJSON: req.SourceState.JSON, SourcePrivate: req.SourcePrivate, TargetTypeName: req.TargetTypeName,
	}, ty)
	resp := &tfprotov6.MoveResourceStateResponse{Diagnostics: diags6(r.Diagnostics), TargetPrivate: r.TargetPrivate}
	if r.TargetState != cty.NilVal {
		resp.TargetState = dv6(r.TargetState, ty)
	}
	return resp, nil
}

func (s *server6) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

func (s *server6) ReadDataSource(_ context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	ty := s.schema.DataSources[req.TypeName].Block.ImpliedType()
	return &tfprotov6.ReadDataSourceResponse{State: dv6(s.c.readData(val6(req.Config, ty)), ty)}, nil
}

func (s *server6) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: s.functions()}, nil
}

func (s *server6) CallFunction(_ context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	f := s.schema.Functions[req.Name]
	args := make([]cty.Value, len(req.Arguments))
	for i, a := range req.Arguments {
		ty := cty.DynamicPseudoType
		if i < len(f.Parameters) {
			ty = f.Parameters[i].Type
		} else if f.VariadicParameter != nil {
			ty = f.VariadicParameter.Type
		}
		args[i] = val6(a, ty)
	}
	v, ferr := s.c.call(req.Name, args)
	if ferr != nil {
		out := &tfprotov6.FunctionError{Text: ferr.Text}
		if ferr.Argument != nil {
			n := int64(*ferr.Argument)
			out.FunctionArgument = &n
		}
		return &tfprotov6.CallFunctionResponse{Error: out}, nil
	}
	return &tfprotov6.CallFunctionResponse{Result: dv6(v, f.ReturnType)}, nil
}
