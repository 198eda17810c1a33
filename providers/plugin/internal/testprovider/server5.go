package testprovider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// server5 serves core over protocol 5 by handing each call to server6 and
// carrying messages between the protocols' Go types: the logic lives once,
// in server6, and this file only says how protocol 5 spells it. RPCs the
// tests do not use are left to the embedded nil interface: calling one
// crashes the plugin, which is what a test of an unexpected call should see.
type server5 struct {
	tfprotov5.ProviderServer
	v6 *server6
}

func newServer5(c *core) *server5 { return &server5{v6: newServer6(c)} }

// to6 and to5 carry a value across: both protocols' DynamicValue are the
// same two byte slices.
func to6(d *tfprotov5.DynamicValue) *tfprotov6.DynamicValue { return (*tfprotov6.DynamicValue)(d) }
func to5(d *tfprotov6.DynamicValue) *tfprotov5.DynamicValue { return (*tfprotov5.DynamicValue)(d) }

func diagsTo5(ds []*tfprotov6.Diagnostic) []*tfprotov5.Diagnostic {
	var out []*tfprotov5.Diagnostic
	for _, d := range ds {
		out = append(out, &tfprotov5.Diagnostic{Severity: tfprotov5.DiagnosticSeverity(d.Severity), Summary: d.Summary, Detail: d.Detail, Attribute: d.Attribute})
	}
	return out
}

// blockTo5 carries a schema block across; protocol 5 schemas have no
// nested-type attributes (core leaves them out of its protocol 5 schema).
func blockTo5(b *tfprotov6.SchemaBlock) *tfprotov5.SchemaBlock {
	out := &tfprotov5.SchemaBlock{Description: b.Description, Deprecated: b.Deprecated}
	for _, a := range b.Attributes {
		out.Attributes = append(out.Attributes, &tfprotov5.SchemaAttribute{
			Name: a.Name, Type: a.Type, Description: a.Description, Required: a.Required, Optional: a.Optional,
			Computed: a.Computed, Sensitive: a.Sensitive, Deprecated: a.Deprecated, WriteOnly: a.WriteOnly,
		})
	}
	for _, nb := range b.BlockTypes {
		out.BlockTypes = append(out.BlockTypes, &tfprotov5.SchemaNestedBlock{
			TypeName: nb.TypeName, Block: blockTo5(nb.Block), Nesting: tfprotov5.SchemaNestedBlockNestingMode(nb.Nesting),
			MinItems: nb.MinItems, MaxItems: nb.MaxItems,
		})
	}
	return out
}

func schemasTo5(in map[string]*tfprotov6.Schema) map[string]*tfprotov5.Schema {
	out := make(map[string]*tfprotov5.Schema, len(in))
	for name, s := range in {
		out[name] = &tfprotov5.Schema{Version: s.Version, Block: blockTo5(s.Block)}
	}
	return out
}

func paramTo5(p *tfprotov6.FunctionParameter) *tfprotov5.FunctionParameter {
	if p == nil {
		return nil
	}
	return &tfprotov5.FunctionParameter{Name: p.Name, Type: p.Type, AllowNullValue: p.AllowNullValue, AllowUnknownValues: p.AllowUnknownValues}
}

func functionsTo5(in map[string]*tfprotov6.Function) map[string]*tfprotov5.Function {
	out := make(map[string]*tfprotov5.Function, len(in))
	for name, f := range in {
		fn := &tfprotov5.Function{Return: (*tfprotov5.FunctionReturn)(f.Return), Summary: f.Summary, VariadicParameter: paramTo5(f.VariadicParameter)}
		for _, p := range f.Parameters {
			fn.Parameters = append(fn.Parameters, paramTo5(p))
		}
		out[name] = fn
	}
	return out
}

func (s *server5) GetProviderSchema(ctx context.Context, _ *tfprotov5.GetProviderSchemaRequest) (*tfprotov5.GetProviderSchemaResponse, error) {
	r, err := s.v6.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	return &tfprotov5.GetProviderSchemaResponse{
		Provider:           &tfprotov5.Schema{Block: blockTo5(r.Provider.Block)},
		ResourceSchemas:    schemasTo5(r.ResourceSchemas),
		DataSourceSchemas:  schemasTo5(r.DataSourceSchemas),
		Functions:          functionsTo5(r.Functions),
		ServerCapabilities: (*tfprotov5.ServerCapabilities)(r.ServerCapabilities),
	}, err
}

// PrepareProviderConfig has no protocol 6 twin that returns the prepared
// configuration, so it asks core itself.
func (s *server5) PrepareProviderConfig(_ context.Context, req *tfprotov5.PrepareProviderConfigRequest) (*tfprotov5.PrepareProviderConfigResponse, error) {
	ty := s.v6.providerType()
	prepared, diags := s.v6.c.validateProvider(val6(to6(req.Config), ty))
	return &tfprotov5.PrepareProviderConfigResponse{PreparedConfig: to5(dv6(prepared, ty)), Diagnostics: diagsTo5(diags6(diags))}, nil
}

func (s *server5) ConfigureProvider(ctx context.Context, req *tfprotov5.ConfigureProviderRequest) (*tfprotov5.ConfigureProviderResponse, error) {
	in := &tfprotov6.ConfigureProviderRequest{TerraformVersion: req.TerraformVersion, Config: to6(req.Config)}
	if req.ClientCapabilities != nil {
		in.ClientCapabilities = &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: req.ClientCapabilities.DeferralAllowed}
	}
	r, err := s.v6.ConfigureProvider(ctx, in)
	return &tfprotov5.ConfigureProviderResponse{Diagnostics: diagsTo5(r.Diagnostics)}, err
}

func (s *server5) StopProvider(ctx context.Context, _ *tfprotov5.StopProviderRequest) (*tfprotov5.StopProviderResponse, error) {
	_, err := s.v6.StopProvider(ctx, &tfprotov6.StopProviderRequest{})
	return &tfprotov5.StopProviderResponse{}, err
}

func (s *server5) ValidateResourceTypeConfig(ctx context.Context, req *tfprotov5.ValidateResourceTypeConfigRequest) (*tfprotov5.ValidateResourceTypeConfigResponse, error) {
	r, err := s.v6.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: req.TypeName, Config: to6(req.Config)})
	return &tfprotov5.ValidateResourceTypeConfigResponse{Diagnostics: diagsTo5(r.Diagnostics)}, err
}

func (s *server5) UpgradeResourceState(ctx context.Context, req *tfprotov5.UpgradeResourceStateRequest) (*tfprotov5.UpgradeResourceStateResponse, error) {
	r, err := s.v6.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: req.TypeName, Version: req.Version, RawState: (*tfprotov6.RawState)(req.RawState)})
	return &tfprotov5.UpgradeResourceStateResponse{UpgradedState: to5(r.UpgradedState), Diagnostics: diagsTo5(r.Diagnostics)}, err
}

func (s *server5) ReadResource(ctx context.Context, req *tfprotov5.ReadResourceRequest) (*tfprotov5.ReadResourceResponse, error) {
	r, err := s.v6.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: req.TypeName, CurrentState: to6(req.CurrentState), Private: req.Private})
	return &tfprotov5.ReadResourceResponse{NewState: to5(r.NewState), Private: r.Private}, err
}

func (s *server5) PlanResourceChange(ctx context.Context, req *tfprotov5.PlanResourceChangeRequest) (*tfprotov5.PlanResourceChangeResponse, error) {
	r, err := s.v6.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: req.TypeName, PriorState: to6(req.PriorState), ProposedNewState: to6(req.ProposedNewState),
		Config: to6(req.Config), PriorPrivate: req.PriorPrivate,
	})
	return &tfprotov5.PlanResourceChangeResponse{
		PlannedState: to5(r.PlannedState), PlannedPrivate: r.PlannedPrivate, RequiresReplace: r.RequiresReplace,
		UnsafeToUseLegacyTypeSystem: r.UnsafeToUseLegacyTypeSystem, Diagnostics: diagsTo5(r.Diagnostics),
	}, err
}

func (s *server5) ApplyResourceChange(ctx context.Context, req *tfprotov5.ApplyResourceChangeRequest) (*tfprotov5.ApplyResourceChangeResponse, error) {
	r, err := s.v6.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: req.TypeName, PriorState: to6(req.PriorState), PlannedState: to6(req.PlannedState),
		Config: to6(req.Config), PlannedPrivate: req.PlannedPrivate,
	})
	return &tfprotov5.ApplyResourceChangeResponse{NewState: to5(r.NewState), Private: r.Private}, err
}

func (s *server5) ImportResourceState(ctx context.Context, req *tfprotov5.ImportResourceStateRequest) (*tfprotov5.ImportResourceStateResponse, error) {
	r, err := s.v6.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: req.TypeName, ID: req.ID})
	resp := &tfprotov5.ImportResourceStateResponse{Diagnostics: diagsTo5(r.Diagnostics)}
	for _, ir := range r.ImportedResources {
		resp.ImportedResources = append(resp.ImportedResources, &tfprotov5.ImportedResource{TypeName: ir.TypeName, State: to5(ir.State), Private: ir.Private})
	}
	return resp, err
}

func (s *server5) MoveResourceState(ctx context.Context, req *tfprotov5.MoveResourceStateRequest) (*tfprotov5.MoveResourceStateResponse, error) {
	r, err := s.v6.MoveResourceState(ctx, &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: req.SourceProviderAddress, SourceTypeName: req.SourceTypeName, SourceSchemaVersion: req.SourceSchemaVersion,
		SourceState: (*tfprotov6.RawState)(req.SourceState), SourcePrivate: req.SourcePrivate, TargetTypeName: req.TargetTypeName,
	})
	return &tfprotov5.MoveResourceStateResponse{TargetState: to5(r.TargetState), TargetPrivate: r.TargetPrivate, Diagnostics: diagsTo5(r.Diagnostics)}, err
}

func (s *server5) ValidateDataSourceConfig(context.Context, *tfprotov5.ValidateDataSourceConfigRequest) (*tfprotov5.ValidateDataSourceConfigResponse, error) {
	return &tfprotov5.ValidateDataSourceConfigResponse{}, nil
}

func (s *server5) ReadDataSource(ctx context.Context, req *tfprotov5.ReadDataSourceRequest) (*tfprotov5.ReadDataSourceResponse, error) {
	r, err := s.v6.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: req.TypeName, Config: to6(req.Config)})
	return &tfprotov5.ReadDataSourceResponse{State: to5(r.State)}, err
}

func (s *server5) GetFunctions(ctx context.Context, _ *tfprotov5.GetFunctionsRequest) (*tfprotov5.GetFunctionsResponse, error) {
	r, err := s.v6.GetFunctions(ctx, &tfprotov6.GetFunctionsRequest{})
	return &tfprotov5.GetFunctionsResponse{Functions: functionsTo5(r.Functions)}, err
}

func (s *server5) CallFunction(ctx context.Context, req *tfprotov5.CallFunctionRequest) (*tfprotov5.CallFunctionResponse, error) {
	in := &tfprotov6.CallFunctionRequest{Name: req.Name}
	for _, a := range req.Arguments {
		in.Arguments = append(in.Arguments, to6(a))
	}
	r, err := s.v6.CallFunction(ctx, in)
	return &tfprotov5.CallFunctionResponse{Result: to5(r.Result), Error: (*tfprotov5.FunctionError)(r.Error)}, err
}
