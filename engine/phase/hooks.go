package phase

import (
	"time"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/state"
)

// Hooks lets the CLI show progress. Methods are called from many
// goroutines at once; implementations must serialise their own output.
type Hooks interface {
	// PreApply and PostApply report an operation on an object: act is
	// Create, Update, Delete, Read or Forget (a replace is reported as its
	// delete and its create).
	PreApply(addr addrs.AbsResourceInstance, deposed state.DeposedKey, act action.Action, idKey, idValue string)
	PostApply(addr addrs.AbsResourceInstance, deposed state.DeposedKey, act action.Action, idKey, idValue string, elapsed time.Duration, failed bool)
	PreRefresh(addr addrs.AbsResourceInstance, deposed state.DeposedKey, idKey, idValue string)
	PostRefresh(addr addrs.AbsResourceInstance, deposed state.DeposedKey, idKey, idValue string)
}

// ImportHooks is implemented by Hooks that also show imports: PrepareImport
// when planning asks the provider for an object to import, ImportStart and
// ImportComplete when an apply takes an imported object into the state
// (before the instance's other operations). Hooks without them miss nothing
// else.
type ImportHooks interface {
	PrepareImport(addr addrs.AbsResourceInstance, id string)
	ImportStart(addr addrs.AbsResourceInstance, id string)
	ImportComplete(addr addrs.AbsResourceInstance, id string)
}

// NoHooks ignores every event.
type NoHooks struct{}

func (NoHooks) PreApply(addrs.AbsResourceInstance, state.DeposedKey, action.Action, string, string) {}
func (NoHooks) PostApply(addrs.AbsResourceInstance, state.DeposedKey, action.Action, string, string, time.Duration, bool) {
}
func (NoHooks) PreRefresh(addrs.AbsResourceInstance, state.DeposedKey, string, string)  {}
func (NoHooks) PostRefresh(addrs.AbsResourceInstance, state.DeposedKey, string, string) {}

// ProvisionHooks is implemented by Hooks that also show provisioners:
// ProvisionStart before one provisioner runs for an object, ProvisionOutput
// for each line it reports (empty lines too), ProvisionEnd when it has
// finished, with failed set when it failed. They come between the
// object's PreApply and PostApply. Hooks without them miss nothing else.
type ProvisionHooks interface {
	ProvisionStart(addr addrs.AbsResourceInstance, typ string)
	ProvisionOutput(addr addrs.AbsResourceInstance, typ string, line string)
	ProvisionEnd(addr addrs.AbsResourceInstance, typ string, failed bool)
}
