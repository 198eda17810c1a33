package kit

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// Resource is one managed resource type. Nil handlers get a default:
// Validate accepts, Plan uses Planner (or, when that is nil too, a
// [Planner] with no defaults and every argument forcing replacement),
// Read returns the prior state unchanged, Import refuses.
type Resource struct {
	Schema   providers.Schema
	Validate func(config cty.Value) providers.Diagnostics
	Plan     func(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
	// Planner plans when Plan is nil: the usual rules with this type's
	// defaults and in-place arguments.
	Planner *Planner
	Apply   func(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse
	Read    func(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse
	Import  func(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse
}

// DataSource is one data source type.
type DataSource struct {
	Schema   providers.Schema
	Validate func(config cty.Value) providers.Diagnostics
	Read     func(ctx context.Context, config cty.Value) (cty.Value, providers.Diagnostics)
}

// Base implements providers.Interface by dispatching to Resources and
// DataSources. Built-in providers embed it.
type Base struct {
	Name        string
	Config      providers.Schema
	Resources   map[string]*Resource
	DataSources map[string]*DataSource
	// Functions are the provider-defined functions, by name.
	Functions map[string]*Function
	// Configure, when set, receives the provider configuration.
	Configure func(req providers.ConfigureProviderRequest) providers.Diagnostics

	stopMu sync.Mutex
	stopCh chan struct{} // closed by StopProvider; nil until first needed
}

// withStop gives an operation a context that StopProvider also ends, as
// the plugin SDKs do for their providers' operations.
func (b *Base) withStop(ctx context.Context) (context.Context, context.CancelFunc) {
	b.stopMu.Lock()
	if b.stopCh == nil {
		b.stopCh = make(chan struct{})
	}
	ch := b.stopCh
	b.stopMu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-ch:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

func (b *Base) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	resp := providers.GetProviderSchemaResponse{
		Provider:      b.Config,
		ResourceTypes: make(map[string]providers.Schema, len(b.Resources)),
		DataSources:   make(map[string]providers.Schema, len(b.DataSources)),
		Functions:     b.functionDecls(),
	}
	if resp.Provider.Block == nil {
		resp.Provider.Block = &providers.Block{}
	}
	for name, r := range b.Resources {
		resp.ResourceTypes[name] = r.Schema
	}
	for name, d := range b.DataSources {
		resp.DataSources[name] = d.Schema
	}
	return resp
}

func (b *Base) ValidateProviderConfig(context.Context, providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{}
}

func (b *Base) ValidateResourceConfig(_ context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	r, diags := b.resource(req.TypeName)
	if r != nil && r.Validate != nil && !req.Config.IsNull() && req.Config.IsKnown() {
		diags = r.Validate(req.Config)
	}
	return providers.ValidateResourceConfigResponse{Diagnostics: diags}
}

func (b *Base) ValidateDataResourceConfig(_ context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	d, diags := b.dataSource(req.TypeName)
	if d != nil && d.Validate != nil && !req.Config.IsNull() && req.Config.IsKnown() {
		diags = d.Validate(req.Config)
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
}

func (b *Base) ConfigureProvider(_ context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	if b.Configure == nil {
		return providers.ConfigureProviderResponse{}
	}
	return providers.ConfigureProviderResponse{Diagnostics: b.Configure(req)}
}

func (b *Base) UpgradeResourceState(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	r, diags := b.resource(req.TypeName)
	if r == nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	if req.Version > r.Schema.Version {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Errorf(nil,
			"Resource state is from a newer provider",
			fmt.Sprintf("The stored %s object has schema version %d, but this %s provider only knows versions up to %d. Use a newer version of tenet.", req.TypeName, req.Version, b.Name, r.Schema.Version))}
	}
	v, err := DecodeState(r.Schema.Block, req.RawJSON)
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Errorf(nil,
			"Invalid stored resource state",
			fmt.Sprintf("The stored %s object does not match its schema: %s. Fix or remove the object in the state file.", req.TypeName, err))}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

func (b *Base) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	r, diags := b.resource(req.TypeName)
	if r == nil {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private, Diagnostics: diags}
	}
	if r.Read == nil || req.PriorState.IsNull() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
	}
	ctx, cancel := b.withStop(ctx)
	defer cancel()
	return r.Read(ctx, req)
}

func (b *Base) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	r, diags := b.resource(req.TypeName)
	if r == nil {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	switch {
	case r.Plan != nil:
		return r.Plan(ctx, req)
	case r.Planner != nil:
		return r.Planner.Plan(req)
	}
	return (&Planner{Schema: r.Schema.Block}).Plan(req)
}

func (b *Base) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	r, diags := b.resource(req.TypeName)
	if r == nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags}
	}
	if r.Apply == nil {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	ctx, cancel := b.withStop(ctx)
	defer cancel()
	return r.Apply(ctx, req)
}

func (b *Base) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	r, diags := b.resource(req.TypeName)
	if r == nil {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	if r.Import == nil {
		return providers.ImportResourceStateResponse{Diagnostics: diags.Errorf(nil,
			"Resource import not supported",
			fmt.Sprintf("The %s resource type cannot be imported. Remove the import block or the import command and let tenet create the object instead.", req.TypeName))}
	}
	return r.Import(ctx, req)
}

func (b *Base) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	d, diags := b.dataSource(req.TypeName)
	if d == nil {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	ctx, cancel := b.withStop(ctx)
	defer cancel()
	v, diags := d.Read(ctx, req.Config)
	if v == cty.NilVal {
		v = cty.NullVal(d.Schema.Block.ImpliedType())
	}
	return providers.ReadDataSourceResponse{State: v, Diagnostics: diags}
}

// MoveResourceState refuses: no built-in resource type takes objects of
// another type.
func (b *Base) MoveResourceState(_ context.Context, req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	var diags providers.Diagnostics
	return providers.MoveResourceStateResponse{Diagnostics: diags.Errorf(nil, "Move resource state not supported",
		fmt.Sprintf("The %s provider cannot turn a %s object into a %s object. Remove the moved block and let tenet replace the object instead.", b.Name, req.SourceTypeName, req.TargetTypeName))}
}

// GetFunctions lists the declarations of Functions.
func (b *Base) GetFunctions(context.Context) providers.GetFunctionsResponse {
	return providers.GetFunctionsResponse{Functions: b.functionDecls()}
}

func (b *Base) functionDecls() map[string]providers.Function {
	if len(b.Functions) == 0 {
		return nil
	}
	decls := make(map[string]providers.Function, len(b.Functions))
	for name, f := range b.Functions {
		decls[name] = f.Decl
	}
	return decls
}

// CallFunction calls the named function after checking the arguments
// against its declaration.
func (b *Base) CallFunction(_ context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	f, ok := b.Functions[req.Name]
	if !ok {
		return providers.CallFunctionResponse{Err: &providers.FunctionError{
			Text: fmt.Sprintf("the %s provider defines no function %q", b.Name, req.Name)}}
	}
	if err := checkArgs(req.Name, f.Decl, req.Arguments); err != nil {
		return providers.CallFunctionResponse{Err: err}
	}
	result, err := f.Call(req.Arguments)
	if err != nil {
		return providers.CallFunctionResponse{Result: cty.UnknownVal(f.Decl.ReturnType), Err: err}
	}
	return providers.CallFunctionResponse{Result: result}
}

// StopProvider ends the context of every operation in flight (they watch
// it: time_sleep stops waiting) and of every later one, as a plugin's
// SDK does once asked to stop.
func (b *Base) StopProvider(context.Context) providers.StopProviderResponse {
	b.stopMu.Lock()
	defer b.stopMu.Unlock()
	if b.stopCh == nil {
		b.stopCh = make(chan struct{})
	}
	select {
	case <-b.stopCh:
	default:
		close(b.stopCh)
	}
	return providers.StopProviderResponse{}
}

func (b *Base) Close(context.Context) error { return nil }

func (b *Base) resource(typeName string) (*Resource, providers.Diagnostics) {
	return lookupType(b, b.Resources, typeName, "resource type")
}

func (b *Base) dataSource(typeName string) (*DataSource, providers.Diagnostics) {
	return lookupType(b, b.DataSources, typeName, "data source")
}

// lookupType finds typeName among the provider's types of one kind, which
// what names.
func lookupType[T any](b *Base, types map[string]*T, typeName, what string) (*T, providers.Diagnostics) {
	if t, ok := types[typeName]; ok {
		return t, nil
	}
	var diags providers.Diagnostics
	return nil, diags.Errorf(nil, "Unsupported "+what,
		fmt.Sprintf("The %s provider has no %s %q. It offers: %s.", b.Name, what, typeName, names(types)))
}

func names[T any](m map[string]T) string {
	if len(m) == 0 {
		return "none"
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	s := out[0]
	for _, n := range out[1:] {
		s += ", " + n
	}
	return s
}
