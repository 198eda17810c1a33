package objchange

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// ProposedNew merges a prior object and a configuration object into the
// proposed new state sent to PlanResourceChange: configured values win,
// and computed attributes left null in configuration keep their prior
// value. Nested blocks and nested-type attributes are correlated with
// their prior counterparts by index (lists), key (maps) or content (sets).
func ProposedNew(schema *providers.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() && prior.IsNull() {
		return prior
	}
	if prior.IsNull() {
		prior = schema.EmptyValue()
	}
	return proposedNewBlock(schema, prior, config)
}

// PlannedDataResourceObject is the placeholder object of a data resource
// that will be read during apply: configured values as written, every
// computed attribute the configuration leaves null unknown.
func PlannedDataResourceObject(schema *providers.Block, config cty.Value) cty.Value {
	return proposedNewBlock(schema, cty.UnknownVal(schema.ImpliedType()), config)
}

func proposedNewBlock(schema *providers.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return prior
	}
	if prior.IsNull() {
		prior = schema.EmptyValue()
	} else if !prior.IsKnown() {
		// Take the configuration's concrete types so dynamic parts of an
		// unknown prior do not leak DynamicPseudoType into the result.
		prior = cty.UnknownVal(config.Type())
	}
	vals := make(map[string]cty.Value, len(schema.Attributes)+len(schema.BlockTypes))
	for name, attr := range schema.Attributes {
		vals[name] = proposedNewAttribute(attr, prior.GetAttr(name), config.GetAttr(name))
	}
	for name, nb := range schema.BlockTypes {
		vals[name] = proposedNewNestedBlock(nb, prior.GetAttr(name), config.GetAttr(name))
	}
	return cty.ObjectVal(vals)
}

func proposedNewAttribute(attr *providers.Attribute, prior, config cty.Value) cty.Value {
	switch {
	case attr.Computed && config.IsNull():
		// An optional nested-type attribute whose prior value holds
		// something only the user could have set was removed by the user;
		// keeping the prior would resurrect it.
		if attr.NestedType != nil && attr.Optional && holdsConfiguredValue(attr.NestedType, prior) {
			return config
		}
		return prior
	case attr.NestedType != nil:
		return proposedNewNestedType(attr.NestedType, prior, config)
	default:
		return config
	}
}

func proposedNewAttributes(attrs map[string]*providers.Attribute, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if !prior.IsKnown() {
		prior = cty.UnknownVal(config.Type())
	}
	vals := make(map[string]cty.Value, len(attrs))
	for name, attr := range attrs {
		priorV := cty.NullVal(attr.ImpliedType())
		if !prior.IsNull() {
			priorV = prior.GetAttr(name)
		}
		vals[name] = proposedNewAttribute(attr, priorV, config.GetAttr(name))
	}
	return cty.ObjectVal(vals)
}

func proposedNewNestedType(obj *providers.Object, prior, config cty.Value) cty.Value {
	if !config.IsKnown() {
		return config
	}
	merge := func(prior, config cty.Value) cty.Value {
		return proposedNewAttributes(obj.Attributes, prior, config)
	}
	switch obj.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		if config.IsNull() {
			return config
		}
		return merge(prior, config)
	case providers.NestingList:
		return proposedNewByIndex(prior, config, merge)
	case providers.NestingMap:
		return proposedNewByKey(prior, config, merge)
	case providers.NestingSet:
		return proposedNewSet(prior, config, func(p, c cty.Value) bool { return attrsCouldProduce(obj.Attributes, p, c) }, merge)
	}
	return config
}

func proposedNewNestedBlock(nb *providers.NestedBlock, prior, config cty.Value) cty.Value {
	if !config.IsKnown() {
		return config
	}
	merge := func(prior, config cty.Value) cty.Value {
		return proposedNewBlock(&nb.Block, prior, config)
	}
	switch nb.Nesting {
	case providers.NestingSingle:
		if config.IsNull() {
			return config
		}
		return merge(prior, config)
	case providers.NestingGroup:
		return merge(prior, config)
	case providers.NestingList:
		return proposedNewByIndex(prior, config, merge)
	case providers.NestingMap:
		return proposedNewByKey(prior, config, merge)
	case providers.NestingSet:
		return proposedNewSet(prior, config, func(p, c cty.Value) bool { return blockCouldProduce(&nb.Block, p, c) }, merge)
	}
	return config
}

type mergeFunc func(prior, config cty.Value) cty.Value

// proposedNewByIndex correlates list (or tuple) elements by position.
// Elements beyond the end of a known prior are new and taken verbatim.
func proposedNewByIndex(prior, config cty.Value, merge mergeFunc) cty.Value {
	if config.IsNull() || config.LengthInt() == 0 {
		return config
	}
	priorLen := 0
	if prior.IsKnown() && !prior.IsNull() {
		priorLen = prior.LengthInt()
	}
	vals := make([]cty.Value, 0, config.LengthInt())
	for it := config.ElementIterator(); it.Next(); {
		idx, configEV := it.Element()
		i, _ := idx.AsBigFloat().Int64()
		switch {
		case !prior.IsKnown():
			vals = append(vals, merge(cty.UnknownVal(configEV.Type()), configEV))
		case int(i) < priorLen:
			vals = append(vals, merge(prior.Index(idx), configEV))
		default:
			vals = append(vals, configEV)
		}
	}
	if config.Type().IsTupleType() {
		return cty.TupleVal(vals)
	}
	return cty.ListVal(vals)
}

// proposedNewByKey correlates map (or object) elements by key. Keys the
// prior lacks are new and taken verbatim.
func proposedNewByKey(prior, config cty.Value, merge mergeFunc) cty.Value {
	if config.IsNull() || config.LengthInt() == 0 {
		return config
	}
	vals := make(map[string]cty.Value, config.LengthInt())
	for it := config.ElementIterator(); it.Next(); {
		key, configEV := it.Element()
		k := key.AsString()
		switch {
		case !prior.IsKnown():
			vals[k] = merge(cty.UnknownVal(configEV.Type()), configEV)
		case !prior.IsNull() && hasKey(prior, k):
			vals[k] = merge(elementAt(prior, key), configEV)
		default:
			vals[k] = configEV
		}
	}
	if config.Type().IsObjectType() {
		return cty.ObjectVal(vals)
	}
	return cty.MapVal(vals)
}

// elementAt is v[key] for lists, tuples and maps, and the attribute of
// that name for objects (the map form of dynamically-typed blocks).
func elementAt(v cty.Value, key cty.Value) cty.Value {
	if v.Type().IsObjectType() {
		return v.GetAttr(key.AsString())
	}
	return v.Index(key)
}

func hasKey(v cty.Value, k string) bool {
	if v.Type().IsObjectType() {
		return v.Type().HasAttribute(k)
	}
	return v.HasIndex(cty.StringVal(k)).True()
}

// proposedNewSet pairs each configuration element with the first unused
// prior element that could have produced it; unmatched elements are
// merged with a null prior so their computed attributes stay null.
func proposedNewSet(prior, config cty.Value, couldProduce func(prior, config cty.Value) bool, merge mergeFunc) cty.Value {
	if config.IsNull() || config.LengthInt() == 0 {
		return config
	}
	var priorElems []cty.Value
	if prior.IsKnown() && !prior.IsNull() {
		priorElems = prior.AsValueSlice()
	}
	used := make([]bool, len(priorElems))
	vals := make([]cty.Value, 0, config.LengthInt())
	for it := config.ElementIterator(); it.Next(); {
		_, configEV := it.Element()
		priorEV := cty.NullVal(configEV.Type())
		for i, p := range priorElems {
			if !used[i] && couldProduce(p, configEV) {
				used[i] = true
				priorEV = p
				break
			}
		}
		vals = append(vals, merge(priorEV, configEV))
	}
	return cty.SetVal(vals)
}

// blockCouldProduce reports whether prior may be the result of planning
// config: equal except in computed attributes the configuration leaves
// null. Nested sets must be equal outright.
func blockCouldProduce(schema *providers.Block, prior, config cty.Value) bool {
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return prior.RawEquals(config)
	}
	if !attrsCouldProduce(schema.Attributes, prior, config) {
		return false
	}
	for name, nb := range schema.BlockTypes {
		p, c := prior.GetAttr(name), config.GetAttr(name)
		switch nb.Nesting {
		case providers.NestingSingle, providers.NestingGroup:
			if !blockCouldProduce(&nb.Block, p, c) {
				return false
			}
		case providers.NestingList, providers.NestingMap:
			if !elementsCouldProduce(p, c, func(p, c cty.Value) bool { return blockCouldProduce(&nb.Block, p, c) }) {
				return false
			}
		default:
			if !p.RawEquals(c) {
				return false
			}
		}
	}
	return true
}

func attrsCouldProduce(attrs map[string]*providers.Attribute, prior, config cty.Value) bool {
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return prior.RawEquals(config)
	}
	for name, attr := range attrs {
		p, c := prior.GetAttr(name), config.GetAttr(name)
		if attr.Computed && c.IsNull() {
			continue
		}
		if attr.NestedType == nil {
			if !p.RawEquals(c) {
				return false
			}
			continue
		}
		inner := func(p, c cty.Value) bool { return attrsCouldProduce(attr.NestedType.Attributes, p, c) }
		switch attr.NestedType.Nesting {
		case providers.NestingSingle, providers.NestingGroup:
			if !inner(p, c) {
				return false
			}
		case providers.NestingList, providers.NestingMap:
			if !elementsCouldProduce(p, c, inner) {
				return false
			}
		default:
			if !p.RawEquals(c) {
				return false
			}
		}
	}
	return true
}

func elementsCouldProduce(prior, config cty.Value, each func(p, c cty.Value) bool) bool {
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return prior.RawEquals(config)
	}
	if prior.LengthInt() != config.LengthInt() {
		return false
	}
	for it := config.ElementIterator(); it.Next(); {
		key, c := it.Element()
		if prior.Type().IsObjectType() {
			if !prior.Type().HasAttribute(key.AsString()) {
				return false
			}
		} else if !prior.HasIndex(key).True() {
			return false
		}
		if !each(elementAt(prior, key), c) {
			return false
		}
	}
	return true
}

// holdsConfiguredValue reports whether a nested-type value contains a
// non-null attribute that is not computed, i.e. one only the user sets.
func holdsConfiguredValue(obj *providers.Object, v cty.Value) bool {
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	objectHolds := func(o cty.Value) bool {
		if o.IsNull() || !o.IsKnown() {
			return false
		}
		for name, attr := range obj.Attributes {
			av := o.GetAttr(name)
			if attr.NestedType != nil && holdsConfiguredValue(attr.NestedType, av) {
				return true
			}
			if !attr.Computed && !av.IsNull() {
				return true
			}
		}
		return false
	}
	switch obj.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		return objectHolds(v)
	default:
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if objectHolds(ev) {
				return true
			}
		}
	}
	return false
}
