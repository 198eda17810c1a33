package planning

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
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
	diags := ignoreChangesWarnings(n)
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

// ignoreChangesWarnings checks each configured ignore_changes path against
// the schema once per resource block: an unknown root attribute is an
// error, a computed-only attribute a redundant element.
func ignoreChangesWarnings(n *graph.Node) hcl.Diagnostics {
	if n.Res == nil || n.Res.Managed == nil || n.Schema == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, t := range n.Res.Managed.IgnoreChanges {
		path, ok := ignorechanges.Path(t)
		if !ok || len(path) == 0 {
			continue
		}
		ga, _ := path[0].(cty.GetAttrStep)
		name := ga.Name
		block := n.Schema.Block
		a, isAttr := block.Attributes[name]
		_, isBlock := block.BlockTypes[name]
		if !isAttr && !isBlock {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported attribute",
				Detail:   fmt.Sprintf("This object has no argument, nested block, or exported attribute named %q.", name),
				Subject:  t.SourceRange().Ptr(),
			})
			continue
		}
		if !isAttr {
			a = block.AttributeByPath(path)
		}
		if a != nil && a.Computed && !a.Optional {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Redundant ignore_changes element",
				Detail:   fmt.Sprintf("Adding an attribute name to ignore_changes tells tenet to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute %s is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.", strings.TrimPrefix(addrs.TraversalString(t), ".")),
				Subject:  t.SourceRange().Ptr(),
			})
		}
	}
	return diags
}
