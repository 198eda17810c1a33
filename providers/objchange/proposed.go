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
	cb := compile(schema)
	if prior.IsNull() {
		prior = cb.emptyValue
	}
	v, _ := proposedNewBlock(cb, prior, config, 0)
	return v
}

// PlannedDataResourceObject is the placeholder object of a data resource
// that will be read during apply: configured values as written, every
// computed attribute the configuration leaves null unknown.
func PlannedDataResourceObject(schema *providers.Block, config cty.Value) cty.Value {
	cb := compile(schema)
	v, _ := proposedNewBlock(cb, cty.UnknownVal(cb.impliedType), config, 0)
	return v
}

// origin says which input a merged value is identical to (RawEquals), so
// a merge whose parts all come from one input can hand that input back
// instead of rebuilding an equal value. Zero means "rebuilt" or "unsure";
// it is always a safe answer.
type origin uint8

const (
	fromConfig origin = 1 << iota
	fromPrior
)

// also is o when a and b are identical, so that a value taken from one
// input is known to be the other's too. It compares only when asked.
func also(o origin, a, b cty.Value) origin {
	if o != 0 && a.RawEquals(b) {
		return o
	}
	return 0
}

// keepConfig answers a merge with the configuration as it is, which is
// also the prior when want asks and the two are identical.
func keepConfig(prior, config cty.Value, want origin) (cty.Value, origin) {
	return config, fromConfig | also(want&fromPrior, config, prior)
}

// keepPrior answers a merge with the prior as it is, which is also the
// configuration when want asks and the two are identical.
func keepPrior(prior, config cty.Value, want origin) (cty.Value, origin) {
	return prior, fromPrior | also(want&fromConfig, prior, config)
}

// mergeFunc merges one prior element with one configuration element.
type mergeFunc func(prior, config cty.Value) (cty.Value, origin)

// proposedNewBlock merges one block object. want says which inputs the
// caller would like an identity answer about.
func proposedNewBlock(cb *compiledBlock, prior, config cty.Value, want origin) (cty.Value, origin) {
	if config.IsNull() || !config.IsKnown() {
		return keepPrior(prior, config, want)
	}
	var same origin
	switch {
	case prior.IsNull():
		prior = cb.emptyValue
	case !prior.IsKnown():
		// Take the configuration's concrete types so dynamic parts of an
		// unknown prior do not leak DynamicPseudoType into the result.
		prior = cty.UnknownVal(config.Type())
	case hasExactly(prior, cb.width):
		same |= fromPrior
	}
	if hasExactly(config, cb.width) {
		same |= fromConfig
	}
	var buf [16]cty.Value
	vals := buf[:0]
	if cb.width > len(buf) {
		vals = make([]cty.Value, 0, cb.width)
	}
	for i := range cb.attrs {
		a := &cb.attrs[i]
		v, o := proposedNewAttribute(a, prior.GetAttr(a.name), config.GetAttr(a.name), same)
		same &= o
		vals = append(vals, v)
	}
	for i := range cb.blocks {
		nb := &cb.blocks[i]
		v, o := proposedNewNestedBlock(nb, prior.GetAttr(nb.name), config.GetAttr(nb.name), same)
		same &= o
		vals = append(vals, v)
	}
	if whole, ok := wholly(prior, config, same); ok {
		return whole, same
	}
	m := make(map[string]cty.Value, cb.width)
	for i := range cb.attrs {
		m[cb.attrs[i].name] = vals[i]
	}
	for i := range cb.blocks {
		m[cb.blocks[i].name] = vals[len(cb.attrs)+i]
	}
	return cty.ObjectVal(m), 0
}

func proposedNewAttribute(a *compiledAttr, prior, config cty.Value, want origin) (cty.Value, origin) {
	switch {
	case a.computed && config.IsNull():
		// An optional nested-type attribute whose prior value holds
		// something only the user could have set was removed by the user;
		// keeping the prior would resurrect it.
		if a.nested != nil && a.optional && holdsConfiguredValue(a.nested, prior) {
			return keepConfig(prior, config, want)
		}
		return keepPrior(prior, config, want)
	case a.nested != nil:
		return proposedNewNestedType(a.nested, prior, config, want)
	default:
		return keepConfig(prior, config, want)
	}
}

func proposedNewAttributes(attrs []compiledAttr, prior, config cty.Value, want origin) (cty.Value, origin) {
	if config.IsNull() || !config.IsKnown() {
		return keepConfig(prior, config, want)
	}
	var same origin
	if !prior.IsKnown() {
		prior = cty.UnknownVal(config.Type())
	} else if !prior.IsNull() && hasExactly(prior, len(attrs)) {
		same |= fromPrior
	}
	if hasExactly(config, len(attrs)) {
		same |= fromConfig
	}
	var buf [16]cty.Value
	vals := buf[:0]
	if len(attrs) > len(buf) {
		vals = make([]cty.Value, 0, len(attrs))
	}
	for i := range attrs {
		a := &attrs[i]
		priorV := cty.NullVal(a.ty)
		if !prior.IsNull() {
			priorV = prior.GetAttr(a.name)
		}
		v, o := proposedNewAttribute(a, priorV, config.GetAttr(a.name), same)
		same &= o
		vals = append(vals, v)
	}
	if whole, ok := wholly(prior, config, same); ok {
		return whole, same
	}
	m := make(map[string]cty.Value, len(attrs))
	for i := range attrs {
		m[attrs[i].name] = vals[i]
	}
	return cty.ObjectVal(m), 0
}

func proposedNewNestedType(obj *compiledObject, prior, config cty.Value, want origin) (cty.Value, origin) {
	if !config.IsKnown() {
		return keepConfig(prior, config, want)
	}
	merge := func(prior, config cty.Value) (cty.Value, origin) {
		return proposedNewAttributes(obj.attrs, prior, config, fromConfig|fromPrior)
	}
	switch obj.nesting {
	case providers.NestingSingle, providers.NestingGroup:
		if config.IsNull() {
			return keepConfig(prior, config, want)
		}
		return proposedNewAttributes(obj.attrs, prior, config, want)
	}
	return proposedNewCollection(obj.nesting, prior, config, want, merge, func(p, c cty.Value) bool { return attrsCouldProduce(obj.attrs, p, c) })
}

func proposedNewNestedBlock(nb *compiledNested, prior, config cty.Value, want origin) (cty.Value, origin) {
	if !config.IsKnown() {
		return keepConfig(prior, config, want)
	}
	merge := func(prior, config cty.Value) (cty.Value, origin) {
		return proposedNewBlock(nb.block, prior, config, fromConfig|fromPrior)
	}
	switch nb.nesting {
	case providers.NestingSingle:
		if config.IsNull() {
			return keepConfig(prior, config, want)
		}
		return proposedNewBlock(nb.block, prior, config, want)
	case providers.NestingGroup:
		return proposedNewBlock(nb.block, prior, config, want)
	}
	return proposedNewCollection(nb.nesting, prior, config, want, merge, func(p, c cty.Value) bool { return blockCouldProduce(nb.block, p, c) })
}

// proposedNewCollection merges a list, map or set of nested values, each
// element with merge; couldProduce pairs set elements. Other nesting
// modes take the configuration.
func proposedNewCollection(nesting providers.NestingMode, prior, config cty.Value, want origin, merge mergeFunc, couldProduce func(prior, config cty.Value) bool) (cty.Value, origin) {
	switch nesting {
	case providers.NestingList:
		return proposedNewByIndex(prior, config, want, merge)
	case providers.NestingMap:
		return proposedNewByKey(prior, config, want, merge)
	case providers.NestingSet:
		return proposedNewSet(prior, config, want, couldProduce, merge)
	}
	return keepConfig(prior, config, want)
}

// collectionOrigin is what a merged collection may turn out identical
// to before looking at its elements: the configuration unless it is
// marked, and the prior when it is a known collection of the same kind
// and length.
func collectionOrigin(prior, config cty.Value, n int) origin {
	var same origin
	if !config.IsMarked() {
		same |= fromConfig
	}
	if prior.IsKnown() && !prior.IsNull() && !prior.IsMarked() && sameKind(prior.Type(), config.Type()) && prior.LengthInt() == n {
		same |= fromPrior
	}
	return same
}

func sameKind(a, b cty.Type) bool {
	return a.IsListType() == b.IsListType() && a.IsTupleType() == b.IsTupleType() &&
		a.IsMapType() == b.IsMapType() && a.IsObjectType() == b.IsObjectType() && a.IsSetType() == b.IsSetType()
}

// proposedNewByIndex correlates list (or tuple) elements by position.
// Elements beyond the end of a known prior are new and taken verbatim.
func proposedNewByIndex(prior, config cty.Value, want origin, merge mergeFunc) (cty.Value, origin) {
	if config.IsNull() || config.LengthInt() == 0 {
		return keepConfig(prior, config, want)
	}
	priorLen := 0
	if prior.IsKnown() && !prior.IsNull() {
		priorLen = prior.LengthInt()
	}
	n := config.LengthInt()
	same := collectionOrigin(prior, config, n)
	vals := make([]cty.Value, 0, n)
	for it := config.ElementIterator(); it.Next(); {
		idx, configEV := it.Element()
		i, _ := idx.AsBigFloat().Int64()
		var v cty.Value
		var o origin
		switch {
		case !prior.IsKnown():
			v, o = mergeUnknownPrior(configEV, merge)
		case int(i) < priorLen:
			v, o = merge(prior.Index(idx), configEV)
		default:
			v, o = configEV, fromConfig
		}
		same &= o
		vals = append(vals, v)
	}
	if whole, ok := wholly(prior, config, same); ok {
		return whole, same
	}
	if config.Type().IsTupleType() {
		return cty.TupleVal(vals), 0
	}
	return cty.ListVal(vals), 0
}

// proposedNewByKey correlates map (or object) elements by key. Keys the
// prior lacks are new and taken verbatim.
func proposedNewByKey(prior, config cty.Value, want origin, merge mergeFunc) (cty.Value, origin) {
	if config.IsNull() || config.LengthInt() == 0 {
		return keepConfig(prior, config, want)
	}
	n := config.LengthInt()
	same := collectionOrigin(prior, config, n)
	vals := make(map[string]cty.Value, n)
	for it := config.ElementIterator(); it.Next(); {
		key, configEV := it.Element()
		k := key.AsString()
		var o origin
		switch {
		case !prior.IsKnown():
			vals[k], o = mergeUnknownPrior(configEV, merge)
		case !prior.IsNull() && hasKey(prior, k):
			vals[k], o = merge(elementAt(prior, key), configEV)
		default:
			vals[k], o = configEV, fromConfig
		}
		same &= o
	}
	if whole, ok := wholly(prior, config, same); ok {
		return whole, same
	}
	if config.Type().IsObjectType() {
		return cty.ObjectVal(vals), 0
	}
	return cty.MapVal(vals), 0
}

// wholly reports the value a merge is wholly made of when every part of
// it came from the configuration or every part from the prior (same being
// what all parts share), so the caller need not build a new value.
func wholly(prior, config cty.Value, same origin) (cty.Value, bool) {
	switch {
	case same&fromConfig != 0:
		return config, true
	case same&fromPrior != 0:
		return prior, true
	}
	return cty.NilVal, false
}

// mergeUnknownPrior merges a configuration element whose prior is
// unknown: the result owes nothing to the prior.
func mergeUnknownPrior(configEV cty.Value, merge mergeFunc) (cty.Value, origin) {
	v, o := merge(cty.UnknownVal(configEV.Type()), configEV)
	return v, o &^ fromPrior
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
func proposedNewSet(prior, config cty.Value, want origin, couldProduce func(prior, config cty.Value) bool, merge mergeFunc) (cty.Value, origin) {
	if config.IsNull() || config.LengthInt() == 0 {
		return keepConfig(prior, config, want)
	}
	var priorElems []cty.Value
	if prior.IsKnown() && !prior.IsNull() {
		priorElems = prior.AsValueSlice()
	}
	n := config.LengthInt()
	// Each element identical to a different prior element (a matched
	// prior is used once) and as many of them as prior elements: the
	// merged set is the prior.
	same := collectionOrigin(prior, config, n)
	used := make([]bool, len(priorElems))
	vals := make([]cty.Value, 0, n)
	for it := config.ElementIterator(); it.Next(); {
		_, configEV := it.Element()
		priorEV := cty.NullVal(configEV.Type())
		matched := false
		for i, p := range priorElems {
			if !used[i] && couldProduce(p, configEV) {
				used[i] = true
				priorEV = p
				matched = true
				break
			}
		}
		v, o := merge(priorEV, configEV)
		if !matched {
			o &^= fromPrior
		}
		same &= o
		vals = append(vals, v)
	}
	if whole, ok := wholly(prior, config, same); ok {
		return whole, same
	}
	return cty.SetVal(vals), 0
}

// blockCouldProduce reports whether prior may be the result of planning
// config: equal except in computed attributes the configuration leaves
// null. Nested sets must be equal outright.
func blockCouldProduce(cb *compiledBlock, prior, config cty.Value) bool {
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return prior.RawEquals(config)
	}
	if !attrsCouldProduce(cb.attrs, prior, config) {
		return false
	}
	for i := range cb.blocks {
		nb := &cb.blocks[i]
		p, c := prior.GetAttr(nb.name), config.GetAttr(nb.name)
		if !nestedCouldProduce(nb.nesting, p, c, func(p, c cty.Value) bool { return blockCouldProduce(nb.block, p, c) }) {
			return false
		}
	}
	return true
}

// nestedCouldProduce applies one element's test (each) to a nested value
// as its nesting mode says: the value itself, each list or map element,
// or (sets) outright equality.
func nestedCouldProduce(nesting providers.NestingMode, prior, config cty.Value, each func(p, c cty.Value) bool) bool {
	switch nesting {
	case providers.NestingSingle, providers.NestingGroup:
		return each(prior, config)
	case providers.NestingList, providers.NestingMap:
		return elementsCouldProduce(prior, config, each)
	default:
		return prior.RawEquals(config)
	}
}

func attrsCouldProduce(attrs []compiledAttr, prior, config cty.Value) bool {
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return prior.RawEquals(config)
	}
	for i := range attrs {
		a := &attrs[i]
		p, c := prior.GetAttr(a.name), config.GetAttr(a.name)
		if a.computed && c.IsNull() {
			continue
		}
		if a.nested == nil {
			if !p.RawEquals(c) {
				return false
			}
			continue
		}
		if !nestedCouldProduce(a.nested.nesting, p, c, func(p, c cty.Value) bool { return attrsCouldProduce(a.nested.attrs, p, c) }) {
			return false
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
func holdsConfiguredValue(obj *compiledObject, v cty.Value) bool {
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	objectHolds := func(o cty.Value) bool {
		if o.IsNull() || !o.IsKnown() {
			return false
		}
		for i := range obj.attrs {
			a := &obj.attrs[i]
			av := o.GetAttr(a.name)
			if a.nested != nil && holdsConfiguredValue(a.nested, av) {
				return true
			}
			if !a.computed && !av.IsNull() {
				return true
			}
		}
		return false
	}
	switch obj.nesting {
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
