package planning

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
)

// removedTarget is a removed block with its from address made absolute
// (static: a removed block covers every instance).
type removedTarget struct {
	block    *config.Removed
	module   addrs.Module
	resource *addrs.Resource // nil: the whole module
}

// collectRemoved lists the removed blocks of every module. They only count
// in normal mode: destroy mode destroys everything and refresh-only mode
// changes nothing.
func collectRemoved(cfg *config.Config, mode plan.Mode) []removedTarget {
	if mode != plan.NormalMode {
		return nil
	}
	var out []removedTarget
	for _, m := range cfg.Modules() {
		for _, rm := range m.Removed {
			t := removedTarget{block: rm, module: append(append(addrs.Module(nil), m.Path...), rm.From.Module...), resource: rm.From.Resource}
			out = append(out, t)
		}
	}
	return out
}

func (t *removedTarget) covers(addr addrs.AbsResourceInstance) bool {
	mod := addr.Module.Module()
	if t.resource == nil {
		return len(mod) >= len(t.module) && mod[:len(t.module)].Equal(t.module)
	}
	return mod.Equal(t.module) && addr.Resource.Resource == *t.resource
}

// removedFor returns the removed block covering an object without
// configuration, as the rules see it, or nil.
func (w *planWalker) removedFor(addr addrs.AbsResourceInstance) *rules.Removed {
	if t := w.removedTarget(addr); t != nil {
		return &rules.Removed{Destroy: t.block.Destroy}
	}
	return nil
}

func (w *planWalker) removedTarget(addr addrs.AbsResourceInstance) *removedTarget {
	for i := range w.removed {
		if w.removed[i].covers(addr) {
			return &w.removed[i]
		}
	}
	return nil
}

// forgetWarnings tells the user, per instance, that planned forgets leave
// the remote objects unmanaged.
func (w *planWalker) forgetWarnings() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, c := range w.res.recordedChanges() {
		if c.Action != action.Forget || c.DeposedKey != state.NotDeposed {
			continue
		}
		// No source range: OpenTofu names none for this warning.
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Resource going to be removed from the state",
			Detail:   fmt.Sprintf("After this plan gets applied, the resource %s will not be managed anymore by tenet.\n\nIn case you want to manage the resource again, you will have to import it.", c.Addr),
		})
	}
	return diags
}
