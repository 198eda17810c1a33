package plan

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/internal/provenance"
	"github.com/tenetplan/tenet/state"
)

// Mode is the plan mode chosen on the command line.
type Mode byte

const (
	NormalMode      Mode = 0
	DestroyMode     Mode = 'D'
	RefreshOnlyMode Mode = 'R'
)

// Reason says why an action other than the obvious one was chosen; it is
// the JSON plan's action_reason string ("" for none).
type Reason string

const (
	ReasonNone                          Reason = ""
	ReasonReplaceBecauseTainted         Reason = "replace_because_tainted"
	ReasonReplaceByRequest              Reason = "replace_by_request"
	ReasonReplaceByTriggers             Reason = "replace_by_triggers"
	ReasonReplaceBecauseCannotUpdate    Reason = "replace_because_cannot_update"
	ReasonDeleteBecauseNoResourceConfig Reason = "delete_because_no_resource_config"
	ReasonDeleteBecauseWrongRepetition  Reason = "delete_because_wrong_repetition"
	ReasonDeleteBecauseCountIndex       Reason = "delete_because_count_index"
	ReasonDeleteBecauseEachKey          Reason = "delete_because_each_key"
	ReasonDeleteBecauseNoModule         Reason = "delete_because_no_module"
	ReasonDeleteBecauseNoMoveTarget     Reason = "delete_because_no_move_target"
	ReasonReadBecauseConfigUnknown      Reason = "read_because_config_unknown"
	ReasonReadBecauseDependencyPending  Reason = "read_because_dependency_pending"
	ReasonReadBecauseCheckNested        Reason = "read_because_check_nested"
)

// Plan is the result of planning: the changes to make, and everything
// apply needs to check that the world is still as planned.
type Plan struct {
	Mode      Mode
	Timestamp time.Time

	Changes       []*ResourceInstanceChange // sorted by address, then deposed key
	Drift         []*ResourceInstanceChange // refreshed vs previous run (managed current objects)
	OutputChanges []*OutputChange           // root outputs, sorted by name

	// Variables holds the values of the root module's input variables.
	Variables map[string]cty.Value

	PrevRunState *state.State // state as loaded (after moves), before refresh
	PriorState   *state.State // refreshed state the plan was computed against

	// PriorLineage and PriorSerial identify the state file the plan was
	// made from; applying the plan to any other state is refused.
	PriorLineage string
	PriorSerial  uint64
	// ConfigDigest identifies the configuration the plan was made from.
	ConfigDigest string

	TargetAddrs       []string
	ExcludeAddrs      []string
	ForceReplaceAddrs []string
	SkipRefresh       bool

	Errored bool
	// Configuration is the `configuration` object of the JSON plan, built
	// by the engine from the loaded configuration. Read it through
	// ConfigurationJSON: a plan made by the engine builds it on first use
	// (most plans are only shown), see SetConfigurationSource.
	Configuration json.RawMessage
	configOnce    sync.Once
	configSource  func() json.RawMessage
	// RelevantAttributes lists resource attributes that contribute to changes.
	RelevantAttributes []ResourceAttr
	// Checks is the JSON plan's `checks` array as the engine encoded it:
	// the status of every precondition, postcondition, output precondition,
	// check block and variable validation. Nil without checkable objects.
	Checks json.RawMessage

	// Provenance records, per change (keyed by ChangeKey), which rules made
	// the decision; shown by explain and under the JSON plan's "tenet" key.
	Provenance map[string][]provenance.Rule
	// Facts records, per change (keyed by ChangeKey), the facts its decision
	// was made on (see DecisionFacts); shown by explain, optional.
	Facts map[string]*DecisionFacts
	// PolicyResults is filled by the policy check (issue 5); opaque here.
	PolicyResults json.RawMessage

	// TerraformVersion is the version string written into JSON documents.
	TerraformVersion string
}

// ResourceAttr names one attribute of one resource instance.
type ResourceAttr struct {
	Resource string
	Attr     cty.Path
}

// ResourceInstanceChange is the planned change of one resource instance
// object (the current object, or a deposed one when DeposedKey is set).
type ResourceInstanceChange struct {
	Addr        addrs.AbsResourceInstance
	PrevRunAddr addrs.AbsResourceInstance // differs from Addr when moved
	DeposedKey  state.DeposedKey
	Provider    addrs.AbsProviderConfig

	Action action.Action
	Reason Reason

	// Before and After are the object before and after the change, of the
	// resource type's implied type. After may contain unknowns. Values are
	// unmarked; sensitivity is carried in the *SensitivePaths fields.
	Before, After                             cty.Value
	BeforeSensitivePaths, AfterSensitivePaths []cty.Path

	// RequiredReplace lists the paths that forced a replacement.
	RequiredReplace []cty.Path
	// Private is the provider's private data from planning, handed back at apply.
	Private []byte
	// Importing is set when the object was imported during this plan.
	Importing *Importing
	// SchemaVersion of the resource type the values conform to.
	SchemaVersion uint64
	// CreateBeforeDestroy is the effective create_before_destroy setting
	// used to lower a replace and recorded into state at apply.
	CreateBeforeDestroy bool
}

// Importing records an import planned by an import block.
type Importing struct {
	ID string
	// GeneratedConfig is the resource block -generate-config-out wrote for
	// the target, "" when the configuration had one.
	GeneratedConfig string `json:",omitempty"`
}

// ChangeKey identifies a change uniquely: the address, plus " (deposed KEY)" for deposed objects.
func (c *ResourceInstanceChange) ChangeKey() string {
	if c.DeposedKey != state.NotDeposed {
		return c.Addr.String() + " (deposed " + string(c.DeposedKey) + ")"
	}
	return c.Addr.String()
}

// Moved reports whether the object had another address in the previous run.
func (c *ResourceInstanceChange) Moved() bool {
	return c.PrevRunAddr.Resource.Resource.Mode != 0 && !c.PrevRunAddr.Equal(c.Addr)
}

// OutputChange is the planned change of one root output value.
type OutputChange struct {
	Name          string
	Action        action.Action
	Before, After cty.Value // After may be unknown
	Sensitive     bool      // the output is (or was) sensitive
}

// SetConfigurationSource makes the `configuration` object be built by f
// when first needed (JSON plan, saved plan) instead of up front.
func (p *Plan) SetConfigurationSource(f func() json.RawMessage) {
	p.configSource = f
}

// ConfigurationJSON returns the `configuration` object of the JSON plan,
// building it if the plan has a source and no object yet. Safe for
// concurrent use.
func (p *Plan) ConfigurationJSON() json.RawMessage {
	p.configOnce.Do(func() {
		if len(p.Configuration) == 0 && p.configSource != nil {
			p.Configuration = p.configSource()
		}
	})
	return p.Configuration
}
