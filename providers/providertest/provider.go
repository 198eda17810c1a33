package providertest

import (
	"context"
	"fmt"
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/objchange"
)

// Call is one recorded request; Request is the XxxRequest struct passed
// (nil for GetProviderSchema and Close).
type Call struct {
	Method  string
	Request any
}

// Provider is a fake providers.Interface. Set the fields before first
// use; the hooks may be called concurrently.
type Provider struct {
	Schema providers.GetProviderSchemaResponse

	GetProviderSchemaFn          func(ctx context.Context) providers.GetProviderSchemaResponse
	ValidateProviderConfigFn     func(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse
	ValidateResourceConfigFn     func(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse
	ValidateDataResourceConfigFn func(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse
	ConfigureProviderFn          func(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse
	UpgradeResourceStateFn       func(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse
	ReadResourceFn               func(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse
	PlanResourceChangeFn         func(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
	ApplyResourceChangeFn        func(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse
	ImportResourceStateFn        func(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse
	ReadDataSourceFn             func(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse
	MoveResourceStateFn          func(ctx context.Context, req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse
	CallFunctionFn               func(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse
	StopProviderFn               func(ctx context.Context) providers.StopProviderResponse
	CloseFn                      func(ctx context.Context) error

	mu      sync.Mutex
	calls   []Call
	counter int64
}

var _ providers.Interface = (*Provider)(nil)

// New returns a fake provider offering the given resource types and data
// sources, with an empty provider configuration schema.
func New(resources, dataSources map[string]*providers.Block) *Provider {
	p := &Provider{Schema: providers.GetProviderSchemaResponse{
		Provider:      providers.Schema{Block: &providers.Block{}},
		ResourceTypes: map[string]providers.Schema{},
		DataSources:   map[string]providers.Schema{},
	}}
	for name, b := range resources {
		p.Schema.ResourceTypes[name] = providers.Schema{Block: b}
	}
	for name, b := range dataSources {
		p.Schema.DataSources[name] = providers.Schema{Block: b}
	}
	return p
}

// Factory returns a factory that always hands out p itself, so the test
// can inspect the calls the engine made.
func (p *Provider) Factory() providers.Factory {
	return func() (providers.Interface, error) { return p, nil }
}

func (p *Provider) record(method string, req any) {
	p.mu.Lock()
	p.calls = append(p.calls, Call{Method: method, Request: req})
	p.mu.Unlock()
}

// Calls returns a copy of every recorded call, in order.
func (p *Provider) Calls() []Call {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Call(nil), p.calls...)
}

// CallsOf returns the recorded requests of one method, such as
// "PlanResourceChange", in order.
func (p *Provider) CallsOf(method string) []any {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []any
	for _, c := range p.calls {
		if c.Method == method {
			out = append(out, c.Request)
		}
	}
	return out
}

// PlanCalls returns the recorded PlanResourceChange requests.
func (p *Provider) PlanCalls() []providers.PlanResourceChangeRequest {
	return typedCalls[providers.PlanResourceChangeRequest](p, "PlanResourceChange")
}

// ApplyCalls returns the recorded ApplyResourceChange requests.
func (p *Provider) ApplyCalls() []providers.ApplyResourceChangeRequest {
	return typedCalls[providers.ApplyResourceChangeRequest](p, "ApplyResourceChange")
}

// ReadCalls returns the recorded ReadResource requests.
func (p *Provider) ReadCalls() []providers.ReadResourceRequest {
	return typedCalls[providers.ReadResourceRequest](p, "ReadResource")
}

// ReadDataCalls returns the recorded ReadDataSource requests.
func (p *Provider) ReadDataCalls() []providers.ReadDataSourceRequest {
	return typedCalls[providers.ReadDataSourceRequest](p, "ReadDataSource")
}

func typedCalls[T any](p *Provider, method string) []T {
	var out []T
	for _, r := range p.CallsOf(method) {
		out = append(out, r.(T))
	}
	return out
}

func (p *Provider) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	p.record("GetProviderSchema", nil)
	if p.GetProviderSchemaFn != nil {
		return p.GetProviderSchemaFn(ctx)
	}
	return p.Schema
}

// answer records a call, then answers it with the test's hook when it set
// one, otherwise with fallback (nil: the zero response).
func answer[Req, Resp any](ctx context.Context, p *Provider, method string, req Req, hook func(context.Context, Req) Resp, fallback func(Req) Resp) Resp {
	p.record(method, req)
	switch {
	case hook != nil:
		return hook(ctx, req)
	case fallback != nil:
		return fallback(req)
	}
	var zero Resp
	return zero
}

func (p *Provider) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return answer(ctx, p, "ValidateProviderConfig", req, p.ValidateProviderConfigFn, nil)
}

func (p *Provider) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	return answer(ctx, p, "ValidateResourceConfig", req, p.ValidateResourceConfigFn, nil)
}

func (p *Provider) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	return answer(ctx, p, "ValidateDataResourceConfig", req, p.ValidateDataResourceConfigFn, nil)
}

func (p *Provider) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return answer(ctx, p, "ConfigureProvider", req, p.ConfigureProviderFn, nil)
}

// UpgradeResourceState by default decodes the JSON with the current schema.
func (p *Provider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	return answer(ctx, p, "UpgradeResourceState", req, p.UpgradeResourceStateFn, p.decodeState)
}

func (p *Provider) decodeState(req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	schema, diags := p.resourceSchema(req.TypeName)
	if schema == nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	v, err := ctyjson.Unmarshal(req.RawJSON, schema.ImpliedType())
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Errorf(nil, "Invalid stored state", err.Error())}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

// ReadResource by default reports the object unchanged.
func (p *Provider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	return answer(ctx, p, "ReadResource", req, p.ReadResourceFn, func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
	})
}

func (p *Provider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	return answer(ctx, p, "PlanResourceChange", req, p.PlanResourceChangeFn, p.DefaultPlan)
}

func (p *Provider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	return answer(ctx, p, "ApplyResourceChange", req, p.ApplyResourceChangeFn, p.DefaultApply)
}

func (p *Provider) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	return answer(ctx, p, "ImportResourceState", req, p.ImportResourceStateFn, func(providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
		var diags providers.Diagnostics
		return providers.ImportResourceStateResponse{Diagnostics: diags.Errorf(nil, "Resource import not supported",
			"The fake provider imports only when the test sets ImportResourceStateFn.")}
	})
}

// ReadDataSource by default returns the configuration with every computed
// attribute left null in it filled in.
func (p *Provider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	return answer(ctx, p, "ReadDataSource", req, p.ReadDataSourceFn, p.readData)
}

func (p *Provider) readData(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	schema, ok := p.Schema.DataSources[req.TypeName]
	if !ok {
		var diags providers.Diagnostics
		return providers.ReadDataSourceResponse{Diagnostics: diags.Errorf(nil, "Unsupported data source",
			fmt.Sprintf("The fake provider has no data source %q.", req.TypeName))}
	}
	return providers.ReadDataSourceResponse{State: p.FillUnknowns(objchange.PlannedDataResourceObject(schema.Block, req.Config))}
}

func (p *Provider) MoveResourceState(ctx context.Context, req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	return answer(ctx, p, "MoveResourceState", req, p.MoveResourceStateFn, func(providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
		var diags providers.Diagnostics
		return providers.MoveResourceStateResponse{Diagnostics: diags.Errorf(nil, "Move resource state not supported",
			"The fake provider moves state only when the test sets MoveResourceStateFn.")}
	})
}

// GetFunctions returns the functions of Schema.
func (p *Provider) GetFunctions(ctx context.Context) providers.GetFunctionsResponse {
	p.record("GetFunctions", nil)
	return providers.GetFunctionsResponse{Functions: p.Schema.Functions}
}

func (p *Provider) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	return answer(ctx, p, "CallFunction", req, p.CallFunctionFn, func(req providers.CallFunctionRequest) providers.CallFunctionResponse {
		return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: fmt.Sprintf("the fake provider has no function %q", req.Name)}}
	})
}

func (p *Provider) StopProvider(ctx context.Context) providers.StopProviderResponse {
	p.record("StopProvider", nil)
	if p.StopProviderFn != nil {
		return p.StopProviderFn(ctx)
	}
	return providers.StopProviderResponse{}
}

func (p *Provider) Close(ctx context.Context) error {
	p.record("Close", nil)
	if p.CloseFn != nil {
		return p.CloseFn(ctx)
	}
	return nil
}

func (p *Provider) resourceSchema(typeName string) (*providers.Block, providers.Diagnostics) {
	var diags providers.Diagnostics
	s, ok := p.Schema.ResourceTypes[typeName]
	if !ok {
		return nil, diags.Errorf(nil, "Unsupported resource type", fmt.Sprintf("The fake provider has no resource type %q.", typeName))
	}
	return s.Block, nil
}

// DefaultPlan is the plan the fake makes without a hook: the proposed new
// state, with computed attributes that are null unknown when creating.
// Hooks may call it and then tamper with the result.
func (p *Provider) DefaultPlan(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	schema, diags := p.resourceSchema(req.TypeName)
	if schema == nil {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	planned := req.ProposedNewState
	if req.PriorState.IsNull() {
		planned, _ = cty.Transform(planned, func(path cty.Path, v cty.Value) (cty.Value, error) {
			if !v.IsNull() || len(path) == 0 {
				return v, nil
			}
			if attr := schema.AttributeByPath(path); attr != nil && attr.Computed {
				return cty.UnknownVal(v.Type()), nil
			}
			return v, nil
		})
	}
	return providers.PlanResourceChangeResponse{PlannedState: planned}
}

// DefaultApply is the apply the fake makes without a hook: the planned
// state with every unknown replaced by a made-up known value.
func (p *Provider) DefaultApply(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	return providers.ApplyResourceChangeResponse{NewState: p.FillUnknowns(req.PlannedState)}
}

// FillUnknowns replaces every unknown in v with a known value of its type:
// strings and numbers are unique per provider ("fake-1", 2, ...), bools
// false, collections empty, dynamic values null.
func (p *Provider) FillUnknowns(v cty.Value) cty.Value {
	if v.IsWhollyKnown() {
		return v
	}
	out, _ := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		return p.madeUp(v.Type()), nil
	})
	return out
}

func (p *Provider) madeUp(ty cty.Type) cty.Value {
	switch {
	case ty == cty.String:
		return cty.StringVal(fmt.Sprintf("fake-%d", p.next()))
	case ty == cty.Number:
		return cty.NumberIntVal(p.next())
	case ty == cty.Bool:
		return cty.False
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsObjectType():
		vals := make(map[string]cty.Value, len(ty.AttributeTypes()))
		for name, at := range ty.AttributeTypes() {
			vals[name] = p.madeUp(at)
		}
		return cty.ObjectVal(vals)
	case ty.IsTupleType():
		elems := make([]cty.Value, len(ty.TupleElementTypes()))
		for i, et := range ty.TupleElementTypes() {
			elems[i] = p.madeUp(et)
		}
		return cty.TupleVal(elems)
	}
	return cty.NullVal(ty)
}

func (p *Provider) next() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counter++
	return p.counter
}
