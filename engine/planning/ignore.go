package planning

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/ignorechanges"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/rules"
)

// ignore_changes while planning: the prepare rules decide, per instance,
// which configuration paths keep their prior value (semantics §3); this
// file gathers their facts and checks the configured paths against the
// schema. Applying the decision to a value is package ignorechanges'.

// prepareIgnores asks the prepare stage which paths each planned instance
// ignores. Only instances with a usable prior object take part; the
// stage is skipped for resources without ignore_changes unless team rules
// are loaded.
func (w *planWalker) prepareIgnores(ctx context.Context, rn *resourceNode, items []*instPlan) hcl.Diagnostics {
	n := rn.n
	if n.Kind != graph.NodeResource || n.Res.Managed == nil {
		return nil
	}
	diags := ignorechanges.CheckAgainstSchema(n.Res, n.Schema)
	if diags.HasErrors() || w.opts.Mode != plan.NormalMode {
		return diags
	}
	mr := n.Res.Managed
	configured := mr.IgnoreAllChanges || len(mr.IgnoreChanges) > 0
	if !configured && !w.env.Rules.PrepareWanted() {
		return diags
	}
	paths := ignorechanges.Paths(mr)
	var which []*instPlan
	for _, it := range items {
		if it.readyToPlan && !it.tainted && !it.prior.IsNull() {
			which = append(which, it)
		}
	}
	if len(which) == 0 {
		return diags
	}
	// Addresses and marked values are built on every core.
	batch := make([]rules.PrepareInstance, len(which))
	providercall.EachParallel(len(which), func(i int) hcl.Diagnostics {
		it := which[i]
		batch[i] = rules.PrepareInstance{
			Address:       it.addr.String(),
			Resource:      rn.addrStr,
			Module:        it.modID,
			Type:          rn.typ,
			Name:          n.Addr.Resource.Name,
			Key:           ignorechanges.InstanceKeyFact(it.addr.Resource.Key),
			HasPrior:      true,
			IgnoreChanges: paths,
			IgnoreAll:     mr.IgnoreAllChanges,
			Config:        eval.MarkPaths(it.config, it.configSensitive),
			Prior:         eval.MarkPaths(it.prior, it.priorSensitive),
		}
		return nil
	})
	preps, err := w.env.Rules.Prepare(ctx, w.run, batch)
	if err != nil {
		return append(diags, rulesFailed(err, nodes.Range(n)))
	}
	for i, it := range which {
		p := &preps[i]
		it.prepared = p
		if !p.IgnoreAll && len(p.Ignore) == 0 {
			continue
		}
		it.ignore = p
	}
	return diags
}
