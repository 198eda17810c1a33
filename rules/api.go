package rules

import (
	"io/fs"
	"time"

	"github.com/tenetplan/tenet/internal/provenance"
	"github.com/zclconf/go-cty/cty"
)

// Options configures [New].
type Options struct {
	// Team rule sources, in order: .tenet/rules of the working directory, then
	// each -rules=DIR.
	Team []Source

	// IsSensitive reports whether a cty mark means "sensitive". Marked paths
	// for which it returns true appear in the "sensitive" trees of the input.
	// When nil, every mark counts as sensitive.
	IsSensitive func(mark any) bool

	// Background makes New return once the team rule files are parsed and
	// checked, with the stages still compiling: the run plans meanwhile,
	// each stage's first evaluation waits for it, and the caller must ask
	// [Engine.Diagnostics] for compile errors before trusting a result.
	// Without it New waits and returns those errors itself.
	Background bool

	// TimeLimit and MemoryLimit bound each evaluation of a stage while team
	// rules are loaded (limits.go). Zero takes TENET_RULES_TIME_LIMIT and
	// TENET_RULES_MEMORY_LIMIT from the environment, or the defaults.
	TimeLimit   time.Duration
	MemoryLimit uint64
}

// Source is one directory of team rule files.
type Source struct {
	Name string // shown in diagnostics, e.g. ".tenet/rules"
	FS   fs.FS
}

// Run describes the plan being made.
type Run struct {
	Mode      string    // "normal" | "destroy" | "refresh-only"
	Timestamp time.Time // plan timestamp; the only time rules may see

	// Variables are the root module's input variables, shown to rules as
	// input.run.variables (known parts only). The engine sets them when team
	// rules are loaded ([Engine.TeamRulesLoaded]); the defaults never read them.
	Variables map[string]cty.Value
}

// Plan modes accepted in [Run.Mode].
const (
	ModeNormal      = "normal"
	ModeDestroy     = "destroy"
	ModeRefreshOnly = "refresh-only"
)

// Instance holds the facts about one resource instance object that the
// "decide" stage needs.
type Instance struct {
	Address  string // full instance address, e.g. `module.m[0].terraform_data.a["k"]`
	Resource string // config resource address without instance keys, e.g. "module.m.terraform_data.a"
	Module   string // module instance address, "" for root
	Mode     string // "managed" | "data"
	Type     string
	Name     string
	Key      any    // nil (no key), an integer, or a string
	Deposed  string // deposed object key, "" for the current object

	// HasConfig is false for orphans and for every instance in destroy mode.
	HasConfig   bool
	Config      cty.Value // evaluated config object (may contain unknowns); cty.NilVal when !HasConfig
	ConfigKnown bool      // Config is wholly known (used for data sources)

	HasPrior bool      // a prior (refreshed) object exists
	Prior    cty.Value // prior object value
	Tainted  bool      // the prior current object is tainted

	HasPlanned         bool // the provider returned a planned new state for this object
	Planned            cty.Value
	PlannedEqualsPrior bool       // planned value known and equal to prior
	RequiresReplace    []cty.Path // changed requires-replace paths, map keys as names (attrpath.KeysAsNames): the rules see string (attribute or map key) and int (index) steps

	Lifecycle         Lifecycle
	ForceReplace      bool // address named by -replace
	Triggered         bool // a replace_triggered_by reference fired for this instance
	DependencyPending bool // data sources: a managed dependency has a non-no-op change pending
	InCheck           bool // data sources: declared inside a check block

	// Orphan says why the instance has no configuration (only meaningful when
	// !HasConfig in normal mode).
	Orphan  Orphan
	Removed *Removed // non-nil when a removed block covers this address

	// Prepared is the instance's result of [Engine.Prepare] in this plan,
	// or nil. Set it only when Config is the configuration given to Prepare
	// and Prior its prior object (possibly without marks): Decide then
	// presents them as the prepare stage did instead of converting them
	// again, and releases them.
	Prepared *Preparation
}

// Lifecycle holds the effective lifecycle settings of an instance.
type Lifecycle struct {
	CreateBeforeDestroy bool // configured, forced (infection), or from state when config is gone
	PreventDestroy      bool // from the resource block, when it still exists
}

// Orphan holds the facts that select an orphan's action_reason.
type Orphan struct {
	ResourceInConfig bool   // a resource block for Resource exists in the module
	Moved            bool   // the object's previous address differs from Address
	ModuleDeclared   bool   // the instance's module instance is declared by the current expansion
	Repetition       string // "none" | "count" | "for_each": what the resource block uses now
	InExpansion      bool   // the key is in the current count/for_each expansion
}

// Removed describes the removed block that covers an instance.
type Removed struct{ Destroy bool }

// ActionNone is the [Decision] action for no change recorded (data read
// now, refresh-only, orphan already gone). Every other action is named as
// the Rego rules write it ("no-op", "create", "read", "update",
// "delete-then-create", "create-then-delete", "delete", "forget"), which
// engine/plan/action's Action reads and writes (FromRuleName, RuleName):
// this package, a leaf, does not import it.
const ActionNone = ""

// Decision is what the rules decided for one instance.
type Decision struct {
	Action string // ActionNone, or an action's rule name
	Reason string // JSON-plan action_reason, or ""
	// Provenance lists the rules that decided this; the first chose the action.
	// The slice may be shared between decisions: do not modify it.
	Provenance []provenance.Rule
	Errors     []Finding
	Warnings   []Finding
}

// Finding is an error or warning raised by a rule against an instance. The
// engine places it at the resource block: the only findings the rules can
// raise (prevent_destroy) are about the whole object, not an attribute.
type Finding struct {
	RuleID  string
	Summary string
	Detail  string
}

// ResourceGraph is the input of [Engine.ForcedCreateBeforeDestroy].
type ResourceGraph struct {
	Resources []GraphResource // config resources (addresses as in Instance.Resource)
	Run       Run             // shown as input.run, for team rules
}

// GraphResource is one configuration resource and its direct dependencies.
type GraphResource struct {
	Address             string
	CreateBeforeDestroy bool
	DependsOn           []string // direct dependencies (resource addresses)
}
