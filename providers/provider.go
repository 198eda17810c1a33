package providers

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// Interface is the set of operations a provider offers. Every method is
// safe to call concurrently once ConfigureProvider has returned.
type Interface interface {
	GetProviderSchema(ctx context.Context) GetProviderSchemaResponse
	ValidateProviderConfig(ctx context.Context, req ValidateProviderConfigRequest) ValidateProviderConfigResponse
	ValidateResourceConfig(ctx context.Context, req ValidateResourceConfigRequest) ValidateResourceConfigResponse
	ValidateDataResourceConfig(ctx context.Context, req ValidateDataResourceConfigRequest) ValidateDataResourceConfigResponse
	ConfigureProvider(ctx context.Context, req ConfigureProviderRequest) ConfigureProviderResponse
	UpgradeResourceState(ctx context.Context, req UpgradeResourceStateRequest) UpgradeResourceStateResponse
	ReadResource(ctx context.Context, req ReadResourceRequest) ReadResourceResponse
	PlanResourceChange(ctx context.Context, req PlanResourceChangeRequest) PlanResourceChangeResponse
	ApplyResourceChange(ctx context.Context, req ApplyResourceChangeRequest) ApplyResourceChangeResponse
	ImportResourceState(ctx context.Context, req ImportResourceStateRequest) ImportResourceStateResponse
	ReadDataSource(ctx context.Context, req ReadDataSourceRequest) ReadDataSourceResponse
	MoveResourceState(ctx context.Context, req MoveResourceStateRequest) MoveResourceStateResponse
	GetFunctions(ctx context.Context) GetFunctionsResponse
	CallFunction(ctx context.Context, req CallFunctionRequest) CallFunctionResponse
	// StopProvider asks the provider to abandon its in-flight operations
	// (the user interrupted). The calls in flight still return.
	StopProvider(ctx context.Context) StopProviderResponse
	Close(ctx context.Context) error
}

// Factory starts a provider instance.
type Factory func() (Interface, error)

// Registry maps provider source addresses to factories.
type Registry map[addrs.Provider]Factory

// Diagnostic is a provider's problem report. Attribute, when set, is the
// path inside the object the problem concerns; the engine turns it into a
// source range in the configuration.
type Diagnostic struct {
	Severity  hcl.DiagnosticSeverity
	Summary   string
	Detail    string
	Attribute cty.Path
	// Sourceless: the diagnostic is about no part of the configuration,
	// so it is shown without source or resource address (as OpenTofu
	// shows a built-in provider's plain errors).
	Sourceless bool
}

// Diagnostics is a list of provider diagnostics.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == hcl.DiagError {
			return true
		}
	}
	return false
}

// Errorf appends an error diagnostic.
func (ds Diagnostics) Errorf(path cty.Path, summary, detail string) Diagnostics {
	return append(ds, Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Attribute: path})
}

// GetProviderSchemaResponse describes everything the provider offers.
type GetProviderSchemaResponse struct {
	Provider      Schema
	ResourceTypes map[string]Schema
	DataSources   map[string]Schema
	// Functions are the provider-defined functions, by name (callable as
	// provider::NAME::FUNC in configuration).
	Functions map[string]Function
	// ServerCapabilities
	PlanDestroy bool // the provider wants PlanResourceChange for deletes too
	// GetProviderSchemaOptional: a cached schema may be used instead of
	// calling GetProviderSchema on a fresh instance.
	GetProviderSchemaOptional bool
	// MoveResourceState: the provider implements MoveResourceState.
	MoveResourceState bool
	Diagnostics       Diagnostics
}

type ValidateProviderConfigRequest struct {
	Config cty.Value
}

type ValidateProviderConfigResponse struct {
	// PreparedConfig, when not cty.NilVal, is the configuration the
	// provider wants ConfigureProvider to receive instead (protocol 5
	// providers may fill in defaults here).
	PreparedConfig cty.Value
	Diagnostics    Diagnostics
}

type ValidateResourceConfigRequest struct {
	TypeName string
	Config   cty.Value // may contain unknowns
}

type ValidateResourceConfigResponse struct {
	Diagnostics Diagnostics
}

type ValidateDataResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

type ValidateDataResourceConfigResponse struct {
	Diagnostics Diagnostics
}

type ConfigureProviderRequest struct {
	Config cty.Value
	// WorkingDir is the directory relative paths in the configuration
	// resolve against (tenet -chdir target).
	WorkingDir string
}

type ConfigureProviderResponse struct {
	Diagnostics Diagnostics
}

// UpgradeResourceStateRequest carries an object exactly as stored in
// state, in the stored schema version, for the provider to bring up to
// its current schema.
type UpgradeResourceStateRequest struct {
	TypeName string
	Version  int64
	RawJSON  json.RawMessage
	// RawFlatmap is the legacy flat "a.b.0" = "x" encoding of very old
	// states; used only when RawJSON is empty.
	RawFlatmap map[string]string
}

type UpgradeResourceStateResponse struct {
	UpgradedState cty.Value
	Diagnostics   Diagnostics
}

type ReadResourceRequest struct {
	TypeName   string
	PriorState cty.Value
	Private    []byte
}

// ReadResourceResponse returns the refreshed object, or a null value when
// the remote object no longer exists.
type ReadResourceResponse struct {
	NewState    cty.Value
	Private     []byte
	Diagnostics Diagnostics
}

type PlanResourceChangeRequest struct {
	TypeName         string
	PriorState       cty.Value // null when creating
	ProposedNewState cty.Value // null when destroying
	Config           cty.Value // null when destroying
	PriorPrivate     []byte
}

type PlanResourceChangeResponse struct {
	PlannedState    cty.Value
	RequiresReplace []cty.Path
	PlannedPrivate  []byte
	// LegacyTypeSystem is set by providers built on the legacy SDK, whose
	// answers may not follow the plan-validity rules exactly; the engine
	// relaxes its checks to warnings for them.
	LegacyTypeSystem bool
	Diagnostics      Diagnostics
}

type ApplyResourceChangeRequest struct {
	TypeName       string
	PriorState     cty.Value // null when creating
	PlannedState   cty.Value // null when destroying
	Config         cty.Value
	PlannedPrivate []byte
}

type ApplyResourceChangeResponse struct {
	NewState         cty.Value
	Private          []byte
	LegacyTypeSystem bool // see PlanResourceChangeResponse
	Diagnostics      Diagnostics
}

type ImportResourceStateRequest struct {
	TypeName string
	ID       string
}

// ImportedResource is one object an import found.
type ImportedResource struct {
	TypeName string
	State    cty.Value
	Private  []byte
}

type ImportResourceStateResponse struct {
	ImportedResources []ImportedResource
	Diagnostics       Diagnostics
}

type ReadDataSourceRequest struct {
	TypeName string
	Config   cty.Value
	// Address is the data resource instance's address. Only the built-in
	// terraform provider reads it, to name the instance in a diagnostic
	// as OpenTofu's does; plugins are not sent it.
	Address string
}

type ReadDataSourceResponse struct {
	State       cty.Value
	Diagnostics Diagnostics
}

// MoveResourceStateRequest asks the provider to turn an object stored for
// another resource type (possibly of another provider) into one of
// TargetTypeName, for a moved block that changes the type.
type MoveResourceStateRequest struct {
	SourceProviderAddress string // e.g. registry.opentofu.org/hashicorp/old
	SourceTypeName        string
	SourceSchemaVersion   int64
	SourceStateJSON       json.RawMessage
	SourcePrivate         []byte
	TargetTypeName        string
}

type MoveResourceStateResponse struct {
	TargetState   cty.Value
	TargetPrivate []byte
	Diagnostics   Diagnostics
}

// Function is the signature of a provider-defined function.
type Function struct {
	Parameters         []FunctionParameter
	VariadicParameter  *FunctionParameter // nil when not variadic
	ReturnType         cty.Type
	Summary            string
	Description        string
	DeprecationMessage string
}

// FunctionParameter is one parameter of a provider-defined function.
type FunctionParameter struct {
	Name string
	Type cty.Type
	// AllowNullValue: a null argument is passed on; otherwise the caller
	// rejects it before calling.
	AllowNullValue bool
	// AllowUnknownValues: an unknown argument is passed on; otherwise the
	// caller skips the call and takes an unknown result of ReturnType.
	AllowUnknownValues bool
	Description        string
}

type GetFunctionsResponse struct {
	Functions   map[string]Function
	Diagnostics Diagnostics
}

// CallFunctionRequest calls a provider-defined function. Arguments match
// the parameters in order; variadic arguments follow one by one.
type CallFunctionRequest struct {
	Name      string
	Arguments []cty.Value
}

// CallFunctionResponse carries the result or, when Err is set, the
// function's error (FunctionError.Argument says which argument was to
// blame, when one was).
type CallFunctionResponse struct {
	Result cty.Value
	Err    *FunctionError
}

// FunctionError is an error raised by a provider-defined function.
type FunctionError struct {
	Text     string
	Argument *int // index into CallFunctionRequest.Arguments, or nil
}

func (e *FunctionError) Error() string { return e.Text }

type StopProviderResponse struct {
	// Error is the provider's own report of failing to stop.
	Error string
}
