package applying

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/ignorechanges"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/rules"
)

// ignoreForApply applies ignore_changes again when an update is re-planned
// at apply with the final configuration, so the final plan matches the
// saved one.
func (w *applyWalker) ignoreForApply(ctx context.Context, n *graph.Node, sch *providers.Schema, c *plan.ResourceInstanceChange, prior, config cty.Value) cty.Value {
	if c.Action != action.Update || prior.IsNull() || n.Res == nil || n.Res.Managed == nil || w.env.Rules == nil {
		return config
	}
	mr := n.Res.Managed
	if !mr.IgnoreAllChanges && len(mr.IgnoreChanges) == 0 && !w.env.Rules.PrepareWanted() {
		return config
	}
	in := rules.PrepareInstance{
		Address:       c.Addr.String(),
		Resource:      n.Addr.String(),
		Module:        c.Addr.Module.String(),
		Type:          n.Addr.Resource.Type,
		Name:          n.Addr.Resource.Name,
		Key:           ignorechanges.InstanceKeyFact(c.Addr.Resource.Key),
		HasPrior:      true,
		IgnoreChanges: ignorechanges.Paths(mr),
		IgnoreAll:     mr.IgnoreAllChanges,
		Config:        config,
		Prior:         prior,
	}
	preps, err := w.env.Rules.Prepare(ctx, rules.Run{Mode: rules.ModeNormal, Timestamp: w.p.Timestamp}, []rules.PrepareInstance{in})
	if err != nil || len(preps) != 1 {
		return config
	}
	return ignorechanges.Apply(sch.Block, prior, config, &preps[0])
}
