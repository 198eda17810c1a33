package ignorechanges

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/rules"
)

// Paths returns the configured ignore_changes traversals as paths, leaving
// out those with a step that is not static.
func Paths(mr *config.ManagedResource) []cty.Path {
	if mr == nil || len(mr.IgnoreChanges) == 0 {
		return nil
	}
	out := make([]cty.Path, 0, len(mr.IgnoreChanges))
	for _, t := range mr.IgnoreChanges {
		if p, ok := Path(t); ok {
			out = append(out, p)
		}
	}
	return out
}

// Path is one ignore_changes traversal as a path, or false when a step is
// not static: a splat, or an index whose key is not a known string or
// number.
func Path(t hcl.Traversal) (cty.Path, bool) {
	p, n := attrpath.FromTraversal(t)
	if n < len(t) {
		return nil, false
	}
	for _, s := range p {
		if ix, ok := s.(cty.IndexStep); ok && ix.Key.Type() != cty.String && ix.Key.Type() != cty.Number {
			return nil, false
		}
	}
	return p, true
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

// ignorePath takes the prior value at one path. A trailing string index on
// a map ignores that key only: the key gets its prior element, or is
// removed if the prior map lacks it. Paths that lead nowhere in either
// value are skipped.
func ignorePath(prior, config cty.Value, path cty.Path) (out cty.Value) {
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
	if k, ok := mapKey(path[len(path)-1]); ok && len(path) > 1 {
		key = &k
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

// The steps of a path, as the rules' step list tells them apart: an
// attribute step is a name, read as an object attribute or a map key; a
// string index an explicit map key; a number index a list or tuple
// element.

// mapKey reports whether s is an explicit map key, and which.
func mapKey(s cty.PathStep) (string, bool) {
	if ix, ok := s.(cty.IndexStep); ok && ix.Key.Type() == cty.String && ix.Key.IsKnown() && !ix.Key.IsNull() {
		return ix.Key.AsString(), true
	}
	return "", false
}

// elemIndex reports whether s is a list or tuple index, and which.
func elemIndex(s cty.PathStep) (int, bool) {
	if ix, ok := s.(cty.IndexStep); ok && ix.Key.Type() == cty.Number && ix.Key.IsKnown() && !ix.Key.IsNull() {
		i, _ := ix.Key.AsBigFloat().Int64()
		return int(i), true
	}
	return 0, false
}

// stepInto follows path through v.
func stepInto(v cty.Value, path cty.Path) (cty.Value, bool) {
	for _, s := range path {
		if v.IsNull() || !v.IsKnown() {
			return cty.NilVal, false
		}
		ty := v.Type()
		if ga, ok := s.(cty.GetAttrStep); ok {
			switch {
			case ty.IsObjectType():
				if !ty.HasAttribute(ga.Name) {
					return cty.NilVal, false
				}
				v = v.GetAttr(ga.Name)
			case ty.IsMapType():
				kv := cty.StringVal(ga.Name)
				if !v.HasIndex(kv).True() {
					return cty.NilVal, false
				}
				v = v.Index(kv)
			default:
				return cty.NilVal, false
			}
		} else if k, ok := mapKey(s); ok {
			kv := cty.StringVal(k)
			if !ty.IsMapType() || !v.HasIndex(kv).True() {
				return cty.NilVal, false
			}
			v = v.Index(kv)
		} else if i, ok := elemIndex(s); ok {
			if !ty.IsListType() && !ty.IsTupleType() {
				return cty.NilVal, false
			}
			kv := cty.NumberIntVal(int64(i))
			if !v.HasIndex(kv).True() {
				return cty.NilVal, false
			}
			v = v.Index(kv)
		} else {
			return cty.NilVal, false
		}
	}
	return v, true
}

// setAt returns v with the value at path replaced.
func setAt(v cty.Value, path cty.Path, nv cty.Value) (res cty.Value, ok bool) {
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
	if ga, ok := path[0].(cty.GetAttrStep); ok {
		if ty.IsObjectType() {
			if !ty.HasAttribute(ga.Name) {
				return v, false
			}
			attrs := v.AsValueMap()
			sub, ok := setAt(attrs[ga.Name], path[1:], nv)
			if !ok {
				return v, false
			}
			attrs[ga.Name] = sub
			return cty.ObjectVal(attrs), true
		}
		return setMapElem(v, ga.Name, path[1:], nv)
	}
	if k, ok := mapKey(path[0]); ok {
		return setMapElem(v, k, path[1:], nv)
	}
	if i, ok := elemIndex(path[0]); ok {
		if !ty.IsListType() && !ty.IsTupleType() {
			return v, false
		}
		elems := v.AsValueSlice()
		if i < 0 || i >= len(elems) {
			return v, false
		}
		sub, ok := setAt(elems[i], path[1:], nv)
		if !ok {
			return v, false
		}
		elems[i] = sub
		if ty.IsTupleType() {
			return cty.TupleVal(elems), true
		}
		return cty.ListVal(elems), true
	}
	return v, false
}

func setMapElem(v cty.Value, key string, rest cty.Path, nv cty.Value) (cty.Value, bool) {
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
