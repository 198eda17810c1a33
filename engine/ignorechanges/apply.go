package ignorechanges

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/rules"
)

// Steps turns the configured ignore_changes traversals into the step
// form the rules use: string attribute names, int indices, MapKey keys.
func Steps(mr *config.ManagedResource) [][]any {
	if mr == nil || len(mr.IgnoreChanges) == 0 {
		return nil
	}
	out := make([][]any, 0, len(mr.IgnoreChanges))
	for _, t := range mr.IgnoreChanges {
		if steps := TraversalSteps(t); steps != nil {
			out = append(out, steps)
		}
	}
	return out
}

// TraversalSteps is one traversal in the rules' step form, or nil when a
// step is not static.
func TraversalSteps(t hcl.Traversal) []any {
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

// InstanceKeyFact is an instance key as the rules see it: an int, a
// string, or nil for an instance without a key.
func InstanceKeyFact(k addrs.InstanceKey) any {
	switch k := k.(type) {
	case addrs.IntKey:
		return int(k)
	case addrs.StringKey:
		return string(k)
	}
	return nil
}

// Apply returns config with the ignored paths taken from
// prior. With ignore_all, the whole prior object is used, minus the
// computed-only attributes, which a configuration never sets.
func Apply(sch *providers.Block, prior, config cty.Value, p *rules.Preparation) cty.Value {
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
