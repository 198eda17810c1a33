package planning

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
)

// replace_triggered_by (semantics §4): after the referenced resources were
// planned (the references are graph edges), the engine resolves each
// reference per instance and gathers the facts about the referenced changes;
// the rules stage "triggers" decides whether the instance is replaced.

// triggerIndex finds recorded changes of current objects by instance and
// by resource (module instance + resource). Guarded by walkResults.mu.
type triggerIndex struct {
	enabled    bool // some resource has replace_triggered_by
	byInstance map[string]*plan.ResourceInstanceChange
	byResource map[string][]*plan.ResourceInstanceChange
}

func (t *triggerIndex) note(c *plan.ResourceInstanceChange) {
	if !t.enabled || c.DeposedKey != state.NotDeposed {
		return
	}
	if t.byInstance == nil {
		t.byInstance = map[string]*plan.ResourceInstanceChange{}
		t.byResource = map[string][]*plan.ResourceInstanceChange{}
	}
	t.byInstance[c.Addr.String()] = c
	rk := c.Addr.ContainingResource().String()
	t.byResource[rk] = append(t.byResource[rk], c)
}

// usesTriggers reports whether any managed resource has replace_triggered_by.
func usesTriggers(cfg *config.Config) bool {
	for _, m := range cfg.Modules() {
		for _, r := range m.ManagedResources {
			if r.Managed != nil && len(r.Managed.ReplaceTriggeredBy) > 0 {
				return true
			}
		}
	}
	return false
}

// evalTriggers sets Triggered on the facts of the instances whose
// replace_triggered_by fired.
func (w *planWalker) evalTriggers(ctx context.Context, rn *resourceNode, items []*instPlan, batch []rules.Instance) hcl.Diagnostics {
	n := rn.n
	if n.Res == nil || n.Res.Managed == nil || len(n.Res.Managed.ReplaceTriggeredBy) == 0 || w.opts.Mode != plan.NormalMode {
		return nil
	}
	var diags hcl.Diagnostics
	var tb []rules.TriggerInstance
	var which []int
	// Instances of one module instance often resolve a reference the same
	// way (a whole resource): gather those facts once.
	cache := map[string]rules.TriggerRef{}
	for i, it := range items {
		if !it.hasConfig || it.deposed != state.NotDeposed {
			continue
		}
		s := &eval.Scope{Ev: w.ev, Mod: it.addr.Module, Cfg: n.Mod, Rep: it.rep}
		ti := rules.TriggerInstance{Address: it.addr.String()}
		for _, expr := range n.Res.Managed.ReplaceTriggeredBy {
			ref, d := w.triggerRef(s, expr, cache)
			diags = append(diags, d...)
			if !d.HasErrors() {
				ti.References = append(ti.References, ref)
			}
		}
		tb = append(tb, ti)
		which = append(which, i)
	}
	if diags.HasErrors() || len(tb) == 0 {
		return diags
	}
	results, err := w.env.Rules.Triggers(ctx, w.run, tb)
	if err != nil {
		return append(diags, rulesFailed(err, nodes.Range(n)))
	}
	for k, r := range results {
		if r.Triggered {
			batch[which[k]].Triggered = true
		}
	}
	return diags
}

// triggerRef resolves one replace_triggered_by reference for an instance
// and gathers the facts of the changes it names.
func (w *planWalker) triggerRef(s *eval.Scope, expr hcl.Expression, cache map[string]rules.TriggerRef) (out rules.TriggerRef, diags hcl.Diagnostics) {
	trav, diags := resolveTraversal(expr, func(e hcl.Expression) (cty.Value, hcl.Diagnostics) {
		v, d := s.EvalExpr(e, cty.DynamicPseudoType)
		if d.HasErrors() {
			return cty.NilVal, d
		}
		return instanceKey(v, e.Range(), "Invalid replace_triggered_by expression")
	})
	if diags.HasErrors() {
		return out, diags
	}
	ref, d := addrs.ParseRef(trav)
	diags = append(diags, d...)
	if d.HasErrors() {
		return out, diags
	}
	cacheKey := s.Mod.String() + "\x00" + ref.Subject.String() + addrs.TraversalString(ref.Remaining)
	if r, ok := cache[cacheKey]; ok {
		return r, diags
	}
	defer func() {
		if !diags.HasErrors() {
			cache[cacheKey] = out
		}
	}()
	var changes []*plan.ResourceInstanceChange
	var name string
	switch sub := ref.Subject.(type) {
	case addrs.Resource:
		name = sub.Absolute(s.Mod).String()
		changes = w.res.triggerChanges(name, "")
	case addrs.ResourceInstance:
		name = sub.Absolute(s.Mod).String()
		changes = w.res.triggerChanges("", name)
	default:
		return out, append(diags, eval.Errorf(expr.Range().Ptr(), "Invalid replace_triggered_by expression",
			"A replace_triggered_by reference must name a managed resource or resource instance, optionally followed by an attribute."))
	}
	if len(changes) == 0 {
		where := "the root module"
		if !s.Mod.IsRoot() {
			where = s.Mod.String()
		}
		return out, append(diags, eval.Errorf(expr.Range().Ptr(), "Invalid replace_triggered_by reference",
			"No planned change was found for %s in %s, so tenet cannot tell whether it changes. Reference a managed resource that is planned in the same run.", name, where))
	}
	sortChanges(changes)
	out.Ref = name + addrs.TraversalString(ref.Remaining)
	if len(ref.Remaining) == 0 {
		for _, c := range changes {
			out.Actions = append(out.Actions, c.Action.RuleName())
		}
		return out, diags
	}
	c := changes[0]
	out.HasPath = true
	out.Actions = []string{c.Action.RuleName()}
	out.PathChanged = traversalDiffers(c.Before, c.After, ref.Remaining)
	return out, diags
}

func sortChanges(cs []*plan.ResourceInstanceChange) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Addr.Less(cs[j].Addr) })
}

// traversalDiffers compares before and after at a relative traversal: an
// unknown after differs from a known before; a path found on one side only
// differs; a path found on neither does not.
func traversalDiffers(before, after cty.Value, t hcl.Traversal) bool {
	path, n := attrpath.FromTraversal(t)
	if n < len(t) {
		return false
	}
	bv, berr := applyLenient(path, before)
	av, aerr := applyLenient(path, after)
	if berr != nil || aerr != nil {
		return (berr == nil) != (aerr == nil)
	}
	return !bv.RawEquals(av)
}

// applyLenient applies a path; a string index on an object reads the
// attribute, as references do.
func applyLenient(p cty.Path, v cty.Value) (cty.Value, error) {
	for _, s := range p {
		if v == cty.NilVal || v.IsNull() {
			return cty.NilVal, fmt.Errorf("null value")
		}
		if !v.IsKnown() {
			return cty.UnknownVal(cty.DynamicPseudoType), nil
		}
		if ix, ok := s.(cty.IndexStep); ok && ix.Key.Type() == cty.String && v.Type().IsObjectType() {
			s = cty.GetAttrStep{Name: ix.Key.AsString()}
		}
		var err error
		if v, err = s.Apply(v); err != nil {
			return cty.NilVal, err
		}
	}
	return v, nil
}
