package testprovider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/tenetplan/tenet/providers"
)

// server5 serves core over protocol 5. RPCs the tests do not use are
// left to the embedded nil interface: calling one crashes the plugin,
// which is what a test of an unexpected call should see.
type server5 struct {
	tfprotov5.ProviderServer
	c      *core
	schema providers.GetProviderSchemaResponse
}

func newServer5(c *core) *server5 { return &server5{c: c, schema: c.schema()} }

func dv5(v cty.Value, ty cty.Type) *tfprotov5.DynamicValue {
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		panic(err)
	}
	return &tfprotov5.DynamicValue{MsgPack: b}
}

func val5(d *tfprotov5.DynamicValue, ty cty.Type) cty.Value {
	if d == nil {
		return cty.NullVal(ty)
	}
	v, err := ctymsgpack.Unmarshal(d.MsgPack, ty)
	if err != nil {
		panic(err)
	}
	return v
}

func diags5(ds providers.Diagnostics) []*tfprotov5.Diagnostic {
	var out []*tfprotov5.Diagnostic
	for _, d := range ds {
		sev := tfprotov5.DiagnosticSeverityError
		if d.Severity != 1 { // hcl.DiagError
			sev = tfprotov5.DiagnosticSeverityWarning
		}
		out = append(out, &tfprotov5.Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail, Attribute: attrPath(d.Attribute)})
	}
	return out
}

func block5(b *providers.Block) *tfprotov5.SchemaBlock {
	out := &tfprotov5.SchemaBlock{Description: b.Description, Deprecated: b.Deprecated}
	for _, name := range sortedKeys(b.Attributes) {
		out.Attributes = append(out.Attributes, attr5(name, b.Attributes[name]))
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		nb := b.BlockTypes[name]
		out.BlockTypes = append(out.BlockTypes, &tfprotov5.SchemaNestedBlock{
			TypeName: name, Block: block5(&nb.Block), Nesting: tfprotov5.SchemaNestedBlockNestingMode(wireNesting[nb.Nesting]),
			MinItems: int64(nb.MinItems), MaxItems: int64(nb.MaxItems),
		})
	}
	return out
}

func attr5(name string, a *providers.Attribute) *tfprotov5.SchemaAttribute {
	out := &tfprotov5.SchemaAttribute{
		Name: name, Description: a.Description, Required: a.Required, Optional: a.Optional, Computed: a.Computed,
		Sensitive: a.Sensitive, Deprecated: a.Deprecated, WriteOnly: a.WriteOnly,
	}
	out.Type = tfType(a.Type)
	return out
}

func param5(p providers.FunctionParameter) *tfprotov5.FunctionParameter {
	return &tfprotov5.FunctionParameter{Name: p.Name, Type: tfType(p.Type), AllowNullValue: p.AllowNullValue, AllowUnknownValues: p.AllowUnknownValues}
}

func (s *server5) functions() map[string]*tfprotov5.Function {
	out := map[string]*tfprotov5.Function{}
	for name, f := range s.schema.Functions {
		fn := &tfprotov5.Function{Return: &tfprotov5.FunctionReturn{Type: tfType(f.ReturnType)}, Summary: f.Summary}
		for _, p := range f.Parameters {
			fn.Parameters = append(fn.Parameters, param5(p))
		}
		if f.VariadicParameter != nil {
			fn.VariadicParameter = param5(*f.VariadicParameter)
		}
		out[name] = fn
	}
	return out
}

func (s *server5) GetProviderSchema(context.Context, *tfprotov5.GetProviderSchemaRequest) (*tfprotov5.GetProviderSchemaResponse, error) {
	resp := &tfprotov5.GetProviderSchemaResponse{
		Provider:          &tfprotov5.Schema{Block: block5(s.schema.Provider.Block)},
		ResourceSchemas:   map[string]*tfprotov5.Schema{},
		DataSourceSchemas: map[string]*tfprotov5.Schema{},
		Functions:         s.functions(),
		ServerCapabilities: &tfprotov5.ServerCapabilities{
			PlanDestroy: s.schema.PlanDestroy, MoveResourceState: s.schema.MoveResourceState, GetProviderSchemaOptional: true,
		},
	}
	for name, rs := range s.schema.ResourceTypes {
		resp.ResourceSchemas[name] = &tfprotov5.Schema{Version: rs.Version, Block: block5(rs.Block)}
	}
	for name, ds := range s.schema.DataSources {
		resp.DataSourceSchemas[name] = &tfprotov5.Schema{Block: block5(ds.Block)}
	}
	return resp, nil
}

func (s *server5) providerType() cty.Type { return s.schema.Provider.Block.ImpliedType() }

func (s *server5) resourceType(name string) cty.Type {
	return s.schema.ResourceTypes[name].Block.ImpliedType()
}

func (s *server5) PrepareProviderConfig(_ context.Context, req *tfprotov5.PrepareProviderConfigRequest) (*tfprotov5.PrepareProviderConfigResponse, error) {
	prepared, diags := s.c.validateProvider(val5(req.Config, s.providerType()))
	return &tfprotov5.PrepareProviderConfigResponse{PreparedConfig: dv5(prepared, s.providerType()), Diagnostics: diags5(diags)}, nil
}

func (s *server5) ConfigureProvider(_ context.Context, req *tfprotov5.ConfigureProviderRequest) (*tfprotov5.ConfigureProviderResponse, error) {
	diags := s.c.configure(val5(req.Config, s.providerType()))
	if req.TerraformVersion == "" {
		diags = diags.Errorf(nil, "No version", "ConfigureProvider came without terraform_version")
	}
	if req.ClientCapabilities == nil {
		diags = diags.Errorf(nil, "No capabilities", "ConfigureProvider came without client capabilities")
	}
	return &tfprotov5.ConfigureProviderResponse{Diagnostics: diags5(diags)}, nil
}

func (s *server5) StopProvider(ctx context.Context, _ *tfprotov5.StopProviderRequest) (*tfprotov5.StopProviderResponse, error) {
	if s.c.misbehave == "hang" {
		<-ctx.Done()
		select {}
	}
	return &tfprotov5.StopProviderResponse{}, nil
}

func (s *server5) ValidateResourceTypeConfig(_ context.Context, req *tfprotov5.ValidateResourceTypeConfigRequest) (*tfprotov5.ValidateResourceTypeConfigResponse, error) {
	diags := s.c.validateResource(req.TypeName, val5(req.Config, s.resourceType(req.TypeName)))
	return &tfprotov5.ValidateResourceTypeConfigResponse{Diagnostics: diags5(diags)}, nil
}

func (s *server5) UpgradeResourceState(_ context.Context, req *tfprotov5.UpgradeResourceStateRequest) (*tfprotov5.UpgradeResourceStateResponse, error) {
	ty := s.resourceType(req.TypeName)
	r := s.c.upgrade(providers.UpgradeResourceStateRequest{TypeName: req.TypeName, Version: req.Version, RawJSON: req.RawState.JSON, RawFlatmap: req.RawState.Flatmap}, ty)
	resp := &tfprotov5.UpgradeResourceStateResponse{Diagnostics: diags5(r.Diagnostics)}
	if r.UpgradedState != cty.NilVal {
		resp.UpgradedState = dv5(r.UpgradedState, ty)
	}
	return resp, nil
}

func (s *server5) ReadResource(_ context.Context, req *tfprotov5.ReadResourceRequest) (*tfprotov5.ReadResourceResponse, error) {
	ty := s.resourceType(req.TypeName)
	r := s.c.read(providers.ReadResourceRequest{TypeName: req.TypeName, PriorState: val5(req.CurrentState, ty), Private: req.Private})
	return &tfprotov5.ReadResourceResponse{NewState: dv5(r.NewState, ty), Private: r.Private}, nil
}

func (s *server5) PlanResourceChange(ctx context.Context, req *tfprotov5.PlanResourceChangeRequest) (*tfprotov5.PlanResourceChangeResponse, error) {
	ty := s.resourceType(req.TypeName)
	if s.c.misbehave == "wrongtype" {
		return &tfprotov5.PlanResourceChangeResponse{PlannedState: dv5(cty.StringVal("oops"), cty.String)}, nil
	}
	r := s.c.plan(ctx, providers.PlanResourceChangeRequest{
		TypeName: req.TypeName, PriorState: val5(req.PriorState, ty), ProposedNewState: val5(req.ProposedNewState, ty),
		Config: val5(req.Config, ty), PriorPrivate: req.PriorPrivate,
	})
	resp := &tfprotov5.PlanResourceChangeResponse{PlannedState: dv5(r.PlannedState, ty), PlannedPrivate: r.PlannedPrivate,
		UnsafeToUseLegacyTypeSystem: r.LegacyTypeSystem, Diagnostics: diags5(r.Diagnostics)}
	for _, p := range r.RequiresReplace {
		resp.RequiresReplace = append(resp.RequiresReplace, attrPath(p))
	}
	return resp, nil
}

func (s *server5) ApplyResourceChange(_ context.Context, req *tfprotov5.ApplyResourceChangeRequest) (*tfprotov5.ApplyResourceChangeResponse, error) {
	ty := s.resourceType(req.TypeName)
	r := s.c.apply(providers.ApplyResourceChangeRequest{
		TypeName: req.TypeName, PriorState: val5(req.PriorState, ty), PlannedState: val5(req.PlannedState, ty),
		Config: val5(req.Config, ty), PlannedPrivate: req.PlannedPrivate,
	})
	return &tfprotov5.ApplyResourceChangeResponse{NewState: dv5(r.NewState, ty), Private: r.Private}, nil
}

func (s *server5) ImportResourceState(_ context.Context, req *tfprotov5.ImportResourceStateRequest) (*tfprotov5.ImportResourceStateResponse, error) {
	ty := s.resourceType(req.TypeName)
	r := s.c.importState(providers.ImportResourceStateRequest{TypeName: req.TypeName, ID: req.ID}, ty)
	resp := &tfprotov5.ImportResourceStateResponse{Diagnostics: diags5(r.Diagnostics)}
	for _, ir := range r.ImportedResources {
		resp.ImportedResources = append(resp.ImportedResources, &tfprotov5.ImportedResource{TypeName: ir.TypeName, State: dv5(ir.State, ty), Private: ir.Private})
	}
	return resp, nil
}

func (s *server5) MoveResourceState(_ context.Context, req *tfprotov5.MoveResourceStateRequest) (*tfprotov5.MoveResourceStateResponse, error) {
	ty := s.resourceType(req.TargetTypeName)
	r := s.c.move(providers.MoveResourceStateRequest{
		SourceProviderAddress: req.SourceProviderAddress, SourceTypeName: req.SourceTypeName, SourceSchemaVersion: req.SourceSchemaVersion,
		SourceStateJSON: req.SourceState.JSON, SourcePrivate: req.SourcePrivate, TargetTypeName: req.TargetTypeName,
	}, ty)
	resp := &tfprotov5.MoveResourceStateResponse{Diagnostics: diags5(r.Diagnostics), TargetPrivate: r.TargetPrivate}
	if r.TargetState != cty.NilVal {
		resp.TargetState = dv5(r.TargetState, ty)
	}
	return resp, nil
}

func (s *server5) ValidateDataSourceConfig(context.Context, *tfprotov5.ValidateDataSourceConfigRequest) (*tfprotov5.ValidateDataSourceConfigResponse, error) {
	return &tfprotov5.ValidateDataSourceConfigResponse{}, nil
}

func (s *server5) ReadDataSource(_ context.Context, req *tfprotov5.ReadDataSourceRequest) (*tfprotov5.ReadDataSourceResponse, error) {
	ty := s.schema.DataSources[req.TypeName].Block.ImpliedType()
	return &tfprotov5.ReadDataSourceResponse{State: dv5(s.c.readData(val5(req.Config, ty)), ty)}, nil
}

func (s *server5) GetFunctions(context.Context, *tfprotov5.GetFunctionsRequest) (*tfprotov5.GetFunctionsResponse, error) {
	return &tfprotov5.GetFunctionsResponse{Functions: s.functions()}, nil
}

func (s *server5) CallFunction(_ context.Context, req *tfprotov5.CallFunctionRequest) (*tfprotov5.CallFunctionResponse, error) {
	f := s.schema.Functions[req.Name]
	args := make([]cty.Value, len(req.Arguments))
	for i, a := range req.Arguments {
		ty := cty.DynamicPseudoType
		if i < len(f.Parameters) {
			ty = f.Parameters[i].Type
		} else if f.VariadicParameter != nil {
			ty = f.VariadicParameter.Type
		}
		args[i] = val5(a, ty)
	}
	v, ferr := s.c.call(req.Name, args)
	if ferr != nil {
		out := &tfprotov5.FunctionError{Text: ferr.Text}
		if ferr.Argument != nil {
			n := int64(*ferr.Argument)
			out.FunctionArgument = &n
		}
		return &tfprotov5.CallFunctionResponse{Error: out}, nil
	}
	return &tfprotov5.CallFunctionResponse{Result: dv5(v, f.ReturnType)}, nil
}
