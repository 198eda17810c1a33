package provisioners

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// Interface is one type of provisioner.
type Interface interface {
	// Schema describes the provisioner block's own arguments (without
	// when, on_failure and connection, which are the engine's).
	Schema() *providers.Block
	// ValidateConfig checks a configuration decoded against Schema whose
	// values may still be unknown.
	ValidateConfig(ctx context.Context, req ValidateConfigRequest) ValidateConfigResponse
	// Provision runs the provisioner once for one object. It returns when
	// the work is done, has failed, or ctx was cancelled.
	Provision(ctx context.Context, req ProvisionRequest) ProvisionResponse
}

// ValidateConfigRequest is what ValidateConfig checks.
type ValidateConfigRequest struct {
	Config cty.Value
	// Connection is the merged connection block's value, or null when
	// there is none; either may hold unknown values.
	Connection cty.Value
}

// ValidateConfigResponse holds what is wrong with a configuration.
type ValidateConfigResponse struct {
	Diagnostics providers.Diagnostics
}

// ProvisionRequest is one run of a provisioner.
type ProvisionRequest struct {
	// Config is the provisioner block's value, wholly known and unmarked.
	Config cty.Value
	// Connection is the merged connection block's value (of
	// ConnectionSchema's type), or null when there is none.
	Connection cty.Value
	// Output receives what the provisioner has to show, one line (without
	// its line ending) a call, from one goroutine at a time.
	Output func(line string)
}

// ProvisionResponse says how a run went: errors mean it failed.
type ProvisionResponse struct {
	Diagnostics providers.Diagnostics
}
