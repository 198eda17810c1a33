package engine

import (
	"context"
	"io/fs"
	"time"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/rules"
)

// Engine plans and applies one working directory's configuration.
type Engine struct {
	Providers providers.Registry
	Rules     *rules.Engine
	// FS is the working directory; WorkingDir is its path on disk, given
	// to providers that touch the filesystem and used for path.cwd.
	FS         fs.FS
	WorkingDir string
	Hooks      Hooks
	// Version is written into plans and state ("terraform_version").
	Version string
	// Workspace is the selected workspace, terraform.workspace in
	// expressions; empty means "default".
	Workspace string
}

// workspaceName is the workspace expressions see.
func (e *Engine) workspaceName() string {
	if e.Workspace == "" {
		return "default"
	}
	return e.Workspace
}

// PlanOpts are the single-run options of a plan.
type PlanOpts struct {
	Mode         plan.Mode
	SkipRefresh  bool
	Targets      []addrs.Targetable
	Excludes     []addrs.Targetable
	ForceReplace []addrs.AbsResourceInstance
	Variables    map[string]config.VariableValue
	Parallelism  int
	// Timestamp is the plan's time; rules see no other clock.
	Timestamp time.Time
	// DataFromState makes data sources the state already holds keep those
	// values instead of being read again (what the console shows).
	DataFromState bool
	// Scope, when set, is filled in with the plan's values so the caller
	// can evaluate expressions against them (evalscope.go).
	Scope *Scope
}

// ApplyOpts are the options of an apply.
type ApplyOpts struct {
	Parallelism int
	// Stop, when it ends, stops the apply gracefully: no further
	// operation starts, the providers are asked to stop the ones in
	// flight (StopProvider), and Apply returns once those have returned,
	// with every completed operation recorded and an "execution halted"
	// error. The ctx given to Apply is the hard stop: it also cancels the
	// provider calls in flight. Nil means only ctx stops the apply.
	Stop context.Context
	// Scope, when set, is filled in with the applied values (evalscope.go).
	Scope *Scope
}

func (o PlanOpts) parallelism() int {
	if o.Parallelism <= 0 {
		return 10
	}
	return o.Parallelism
}
