package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/rules"
)

// ignore_changes: the rules stage "prepare" decides, per instance, which
// configuration paths keep their prior value; this file gathers the facts,
// and applies the decided paths to the configuration value before the
// provider plans (semantics §3).

// ignoreSteps turns the configured ignore_changes traversals into the step
// form the rules use: string attribute names, int indices, MapKey keys.
func ignoreSteps(mr *config.ManagedResource) [][]any {
	if mr == nil || len(mr.IgnoreChanges) == 0 {
		return nil
	}
	out := make([][]any, 0, len(mr.IgnoreChanges))
	for _, t := range mr.IgnoreChanges {
		if steps := traversalSteps(t); steps != nil {
			out = append(out, steps)
		}
	}
	return out
}

func traversalSteps(t hcl.Traversal) []any {
	steps := make([]any, 0, len(t))
	for _, s := range t {
		switch s := s.(type) {
		case hcl.TraverseRoot:
			steps = append(steps, s.Name)
		case hcl.TraverseAttr:
			steps = append(steps, s.Name)
		case hcl.TraverseIndex:
			k := s.Key
			switch {
			case !k.IsKnown() || k.IsNull():
				return nil
			case k.Type() == cty.String:
				steps = append(steps, rules.MapKey(k.AsString()))
			case k.Type() == cty.Number:
				i, _ := k.AsBigFloat().Int64()
				steps = append(steps, int(i))
			default:
				return nil
			}
		default:
			return nil
		}
	}
	return steps
}

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
	if !configured && !w.e.Rules.PrepareWanted() {
		return diags
	}
	steps := ignoreSteps(mr)
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
			Key:           instanceKeyFact(it.addr.Resource.Key),
			HasPrior:      true,
			IgnoreChanges: steps,
			IgnoreAll:     mr.IgnoreAllChanges,
			Config:        eval.MarkPaths(it.config, it.configSensitive),
			Prior:         eval.MarkPaths(it.prior, it.priorSensitive),
		}
		return nil
	})
	preps, err := w.e.Rules.Prepare(ctx, w.run, batch)
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

func instanceKeyFact(k addrs.InstanceKey) any {
	switch k := k.(type) {
	case addrs.IntKey:
		return int(k)
	case addrs.StringKey:
		return string(k)
	}
	return nil
}

// applyIgnoreChanges returns config with the ignored paths taken from
// prior. With ignore_all, the whole prior object is used, minus the
// computed-only attributes, which a configuration never sets.
func applyIgnoreChanges(sch *providers.Block, prior, config cty.Value, p *rules.Preparation) cty.Value {
	if p == nil || prior.IsNull() || config.IsNull() || !prior.IsKnown() {
		return config
	}
	if p.IgnoreAll {
		return nullComputedOnly(sch, prior)
	}
	for _, path := range p.Ignore {
		config = ignorePath(prior, config, path)
	}
	return config
}

// ignorePath takes the prior value at one path. A trailing MapKey on a map
// ignores that key only: the key gets its prior element, or is removed if
// the prior map lacks it. Paths that lead nowhere in either value are
// skipped.
func ignorePath(prior, config cty.Value, path []any) (out cty.Value) {
	defer func() {
		// cty constructors panic on inconsistent element types: such a path
		// is skipped like one that leads nowhere.
		if recover() != nil {
			out = config
		}
	}()
	if len(path) == 0 {
		return config
	}
	var key *string
	if k, ok := path[len(path)-1].(rules.MapKey); ok && len(path) > 1 {
		s := string(k)
		key = &s
		path = path[:len(path)-1]
	}
	pv, ok := stepInto(prior, path)
	if !ok {
		return config
	}
	cv, ok := stepInto(config, path)
	if !ok || pv.RawEquals(cv) {
		return config
	}
	replacement := pv
	if key != nil && cv.Type().IsMapType() {
		if !cv.IsKnown() {
			return config // individual keys of an unknown map cannot be ignored
		}
		replacement = withMapKey(cv, pv, *key)
	}
	res, ok := setAt(config, path, replacement)
	if !ok {
		return config
	}
	return res
}

// withMapKey returns cfg with key set to prior's element, or removed when
// prior has none.
func withMapKey(cfg, prior cty.Value, key string) cty.Value {
	elems := map[string]cty.Value{}
	if !cfg.IsNull() {
		for it := cfg.ElementIterator(); it.Next(); {
			k, v := it.Element()
			elems[k.AsString()] = v
		}
	}
	var pe cty.Value
	if prior.IsKnown() && !prior.IsNull() && prior.Type().IsMapType() {
		if kv := cty.StringVal(key); prior.HasIndex(kv).True() {
			pe = prior.Index(kv)
		}
	}
	if pe == cty.NilVal {
		delete(elems, key)
	} else {
		elems[key] = pe
	}
	if len(elems) == 0 {
		if cfg.IsNull() {
			return cfg
		}
		return cty.MapValEmpty(cfg.Type().ElementType())
	}
	return mapOf(elems, cfg.Type().ElementType())
}

// mapOf builds a map of element type ety, converting elements that came
// from the prior value (their type may be more specific).
func mapOf(elems map[string]cty.Value, ety cty.Type) cty.Value {
	for k, v := range elems {
		if !v.Type().Equals(ety) {
			if cv, err := convert.Convert(v, ety); err == nil {
				elems[k] = cv
			}
		}
	}
	return cty.MapVal(elems)
}

// stepInto follows path through v. A string step reads an object
// attribute or a map key; an int step a list or tuple element; a MapKey
// only a map key.
func stepInto(v cty.Value, path []any) (cty.Value, bool) {
	for _, s := range path {
		if v.IsNull() || !v.IsKnown() {
			return cty.NilVal, false
		}
		ty := v.Type()
		switch s := s.(type) {
		case string:
			switch {
			case ty.IsObjectType():
				if !ty.HasAttribute(s) {
					return cty.NilVal, false
				}
				v = v.GetAttr(s)
			case ty.IsMapType():
				kv := cty.StringVal(s)
				if !v.HasIndex(kv).True() {
					return cty.NilVal, false
				}
				v = v.Index(kv)
			default:
				return cty.NilVal, false
			}
		case rules.MapKey:
			kv := cty.StringVal(string(s))
			if !ty.IsMapType() || !v.HasIndex(kv).True() {
				return cty.NilVal, false
			}
			v = v.Index(kv)
		case int:
			if !ty.IsListType() && !ty.IsTupleType() {
				return cty.NilVal, false
			}
			kv := cty.NumberIntVal(int64(s))
			if !v.HasIndex(kv).True() {
				return cty.NilVal, false
			}
			v = v.Index(kv)
		default:
			return cty.NilVal, false
		}
	}
	return v, true
}

// setAt returns v with the value at path replaced.
func setAt(v cty.Value, path []any, nv cty.Value) (res cty.Value, ok bool) {
	if len(path) == 0 {
		return nv, true
	}
	if v.IsNull() || !v.IsKnown() {
		return v, false
	}
	defer func() {
		// cty constructors panic on inconsistent element types; a path we
		// cannot rewrite is skipped like one that leads nowhere.
		if recover() != nil {
			res, ok = v, false
		}
	}()
	ty := v.Type()
	switch s := path[0].(type) {
	case string:
		if ty.IsObjectType() {
			if !ty.HasAttribute(s) {
				return v, false
			}
			attrs := v.AsValueMap()
			sub, ok := setAt(attrs[s], path[1:], nv)
			if !ok {
				return v, false
			}
			attrs[s] = sub
			return cty.ObjectVal(attrs), true
		}
		return setMapElem(v, s, path[1:], nv)
	case rules.MapKey:
		return setMapElem(v, string(s), path[1:], nv)
	case int:
		if !ty.IsListType() && !ty.IsTupleType() {
			return v, false
		}
		elems := v.AsValueSlice()
		if s < 0 || s >= len(elems) {
			return v, false
		}
		sub, ok := setAt(elems[s], path[1:], nv)
		if !ok {
			return v, false
		}
		elems[s] = sub
		if ty.IsTupleType() {
			return cty.TupleVal(elems), true
		}
		return cty.ListVal(elems), true
	}
	return v, false
}

func setMapElem(v cty.Value, key string, rest []any, nv cty.Value) (cty.Value, bool) {
	if !v.Type().IsMapType() {
		return v, false
	}
	elems := v.AsValueMap()
	cur, ok := elems[key]
	if !ok {
		return v, false
	}
	sub, ok := setAt(cur, rest, nv)
	if !ok {
		return v, false
	}
	elems[key] = sub
	return cty.MapVal(elems), true
}

// nullComputedOnly replaces every computed-only attribute of v (a value of
// block) with null, at any depth.
func nullComputedOnly(block *providers.Block, v cty.Value) cty.Value {
	out, err := cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
		if len(p) == 0 {
			return v, nil
		}
		if a := block.AttributeByPath(p); a != nil && a.Computed && !a.Optional {
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	if err != nil {
		return v
	}
	return out
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
		steps := traversalSteps(t)
		if len(steps) == 0 {
			continue
		}
		name, _ := steps[0].(string)
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
		path := cty.GetAttrPath(name)
		if !isAttr {
			a = nil
			for _, s := range t[1:] {
				if ga, ok := s.(hcl.TraverseAttr); ok {
					path = path.GetAttr(ga.Name)
				} else if ix, ok := s.(hcl.TraverseIndex); ok {
					path = path.Index(ix.Key)
				}
			}
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

// ignoreForApply applies ignore_changes again when an update is re-planned
// at apply with the final configuration, so the final plan matches the
// saved one.
func (w *applyWalker) ignoreForApply(ctx context.Context, n *graph.Node, sch *providers.Schema, c *plan.ResourceInstanceChange, prior, config cty.Value) cty.Value {
	if c.Action != plan.Update || prior.IsNull() || n.Res == nil || n.Res.Managed == nil || w.e.Rules == nil {
		return config
	}
	mr := n.Res.Managed
	if !mr.IgnoreAllChanges && len(mr.IgnoreChanges) == 0 && !w.e.Rules.PrepareWanted() {
		return config
	}
	in := rules.PrepareInstance{
		Address:       c.Addr.String(),
		Resource:      n.Addr.String(),
		Module:        c.Addr.Module.String(),
		Type:          n.Addr.Resource.Type,
		Name:          n.Addr.Resource.Name,
		Key:           instanceKeyFact(c.Addr.Resource.Key),
		HasPrior:      true,
		IgnoreChanges: ignoreSteps(mr),
		IgnoreAll:     mr.IgnoreAllChanges,
		Config:        config,
		Prior:         prior,
	}
	preps, err := w.e.Rules.Prepare(ctx, rules.Run{Mode: rules.ModeNormal, Timestamp: w.p.Timestamp}, []rules.PrepareInstance{in})
	if err != nil || len(preps) != 1 {
		return config
	}
	return applyIgnoreChanges(sch.Block, prior, config, &preps[0])
}
