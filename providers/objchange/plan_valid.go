package objchange

import (
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// AssertPlanValid checks a provider's planned object against the prior
// object and the configuration: every configured value must be kept (or
// the prior value kept in its place), only computed attributes may be
// chosen by the provider, and nested blocks must match the configuration
// in number and keys. Each problem is a cty.PathError; the engine reports
// them as "Provider produced invalid plan".
func AssertPlanValid(schema *providers.Block, prior, config, planned cty.Value) []error {
	var errs errList
	assertPlanValidBlock(compile(schema), prior, config, planned, &errs)
	return errs.errors()
}

// The walks add what they find to errs, relative to the value they are
// given; errs stays nil (and unallocated) while everything is valid.

// addPresenceMismatch reports a planned value that is null where the
// configuration is not, or the other way round, and says whether it did.
func addPresenceMismatch(planned, config cty.Value, errs *errList) bool {
	switch {
	case planned.IsNull() && !config.IsNull():
		errs.add("planned for absence but config wants existence")
		return true
	case config.IsNull() && !planned.IsNull():
		errs.add("planned for existence but config wants absence")
		return true
	}
	return false
}

func assertPlanValidBlock(cb *compiledBlock, prior, config, planned cty.Value, errs *errList) {
	if addPresenceMismatch(planned, config, errs) {
		return
	}
	switch {
	case !config.IsKnown():
		if planned.IsKnown() {
			errs.add("planned a value for a block whose configuration is unknown")
		}
		return
	case planned.IsNull():
		return
	case !planned.IsKnown():
		errs.add("planned an unknown value for a whole block")
		return
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = cty.NullVal(cb.impliedType)
	}
	for i := range cb.attrs {
		a := &cb.attrs[i]
		n := len(*errs)
		assertPlannedAttrValid(a, attrOrNull(prior, a.name, a.ty), config.GetAttr(a.name), planned.GetAttr(a.name), errs)
		errs.underAttr(n, a.name)
	}
	for i := range cb.blocks {
		nb := &cb.blocks[i]
		n := len(*errs)
		assertPlannedBlocksValid(nb, attrOrNull(prior, nb.name, cty.DynamicPseudoType), config.GetAttr(nb.name), planned.GetAttr(nb.name), errs)
		errs.underAttr(n, nb.name)
	}
}

func assertPlannedBlocksValid(nb *compiledNested, prior, config, planned cty.Value, errs *errList) {
	switch nb.nesting {
	case providers.NestingSingle, providers.NestingGroup:
		assertPlanValidBlock(nb.block, prior, config, planned, errs)
		return
	}
	if !config.IsKnown() {
		// A dynamic block with unknown for_each: the provider cannot know
		// the blocks yet, so it must leave them alone.
		if !equalIgnoringRefinements(planned, config) {
			errs.add("planned a value for blocks whose configuration is unknown")
		}
		return
	}
	if !planned.IsKnown() {
		errs.add("planned an unknown value for a collection of blocks")
		return
	}
	if planned.IsNull() || config.IsNull() {
		if planned.IsNull() != config.IsNull() {
			errs.add("planned block collection presence disagrees with config")
		}
		return
	}
	switch nb.nesting {
	case providers.NestingList:
		assertPlannedListValid(planned, config, "block count in plan (%d) disagrees with count in config (%d)", errs, func(idx, plannedEV cty.Value) {
			assertPlannedElementBlockValid(nb.block, elementOrNull(prior, idx), config.Index(idx), plannedEV, errs)
		})
	case providers.NestingMap:
		plannedKeys, configKeys := sortedKeys(planned), sortedKeys(config)
		before := len(*errs)
		for _, k := range plannedKeys {
			if _, ok := slices.BinarySearch(configKeys, k); !ok {
				errs.add("block key %q is planned but not configured", k)
				errs.underIndex(len(*errs)-1, cty.StringVal(k))
			}
		}
		for _, k := range configKeys {
			if _, ok := slices.BinarySearch(plannedKeys, k); !ok {
				errs.add("block key %q is configured but missing from the plan", k)
				errs.underIndex(len(*errs)-1, cty.StringVal(k))
			}
		}
		if len(*errs) > before {
			return
		}
		for _, k := range plannedKeys {
			key := cty.StringVal(k)
			n := len(*errs)
			assertPlannedElementBlockValid(nb.block, elementOrNull(prior, key), elementAt(config, key), elementAt(planned, key), errs)
			errs.underIndex(n, key)
		}
	case providers.NestingSet:
		// Set elements cannot be correlated with configuration reliably,
		// so only their knownness is checked.
		for it := planned.ElementIterator(); it.Next(); {
			_, plannedEV := it.Element()
			if !plannedEV.IsKnown() {
				errs.add("planned an unknown value for a nested block")
			}
		}
	}
}

// assertPlannedElementBlockValid checks one block of a list or map of
// blocks, which the provider may not plan as unknown.
func assertPlannedElementBlockValid(block *compiledBlock, prior, config, planned cty.Value, errs *errList) {
	if !planned.IsKnown() {
		errs.add("planned an unknown value for a nested block")
		return
	}
	assertPlanValidBlock(block, prior, config, planned, errs)
}

// assertPlannedListValid checks a planned list against the configured
// one: the same length (countFormat words a difference) and each planned
// element by check, whose problems go under the element's index.
func assertPlannedListValid(planned, config cty.Value, countFormat string, errs *errList, check func(idx, plannedEV cty.Value)) {
	plannedN, configN := planned.LengthInt(), config.LengthInt()
	if plannedN != configN {
		errs.add(countFormat, plannedN, configN)
		return
	}
	for it := planned.ElementIterator(); it.Next(); {
		idx, plannedEV := it.Element()
		n := len(*errs)
		check(idx, plannedEV)
		errs.underIndex(n, idx)
	}
}

func assertPlannedAttrValid(a *compiledAttr, prior, config, planned cty.Value, errs *errList) {
	switch {
	case equalIgnoringRefinements(planned, config):
		return
	case !prior.IsNull() && !config.IsNull() && equalIgnoringRefinements(planned, prior):
		// The provider judged the configured change insignificant and kept
		// the prior value: allowed.
		return
	case a.computed && !a.optional && !a.required:
		return
	case config.IsNull() && a.computed:
		return
	case config.IsNull():
		if a.sensitive {
			errs.add("planned a sensitive value for a non-computed attribute")
			return
		}
		errs.add("planned value %s for a non-computed attribute", formatValue(planned))
		return
	case a.nested != nil:
		assertPlannedNestedTypeValid(a, prior, config, planned, errs)
		return
	}
	addMismatch(a.sensitive, prior, config, planned, errs)
}

func addMismatch(sensitive bool, prior, config, planned cty.Value, errs *errList) {
	switch {
	case sensitive && prior.IsNull():
		errs.add("sensitive planned value does not match config value")
	case sensitive:
		errs.add("sensitive planned value does not match config value nor prior value")
	case prior.IsNull():
		errs.add("planned value %s does not match config value %s", formatValue(planned), formatValue(config))
	default:
		errs.add("planned value %s does not match config value %s nor prior value %s",
			formatValue(planned), formatValue(config), formatValue(prior))
	}
}

func assertPlannedNestedTypeValid(a *compiledAttr, prior, config, planned cty.Value, errs *errList) {
	obj := a.nested
	if addPresenceMismatch(planned, config, errs) {
		return
	}
	switch {
	case !config.IsNull() && !planned.IsKnown():
		errs.add("planned an unknown value for a configured attribute")
		return
	case planned.IsNull() || !config.IsKnown():
		return
	}
	switch obj.nesting {
	case providers.NestingSingle, providers.NestingGroup:
		assertPlannedObjectValid(obj, prior, config, planned, errs)
	case providers.NestingList:
		assertPlannedListValid(planned, config, "count in plan (%d) disagrees with count in config (%d)", errs, func(idx, plannedEV cty.Value) {
			assertPlannedObjectValid(obj, elementOrNull(prior, idx), config.Index(idx), plannedEV, errs)
		})
	case providers.NestingMap:
		plannedKeys, configKeys := sortedKeys(planned), sortedKeys(config)
		for _, k := range configKeys {
			if _, ok := slices.BinarySearch(plannedKeys, k); !ok {
				errs.add("key %q is configured but missing from the plan", k)
				errs.underIndex(len(*errs)-1, cty.StringVal(k))
			}
		}
		for _, k := range plannedKeys {
			key := cty.StringVal(k)
			n := len(*errs)
			if _, ok := slices.BinarySearch(configKeys, k); !ok {
				errs.add("key %q is planned but not configured", k)
			} else {
				assertPlannedObjectValid(obj, elementOrNull(prior, key), elementAt(config, key), elementAt(planned, key), errs)
			}
			errs.underIndex(n, key)
		}
	case providers.NestingSet:
		// Unknown elements may collapse into one, so the planned length
		// is a range that must include the configured length.
		configN := config.LengthInt()
		lo, hi := lengthRange(planned)
		if configN < lo || configN > hi {
			errs.add("count in plan (%s) disagrees with count in config (%d)", formatRange(lo, hi), configN)
		}
	}
}

// assertPlannedObjectValid checks one object of a nested-type attribute.
func assertPlannedObjectValid(obj *compiledObject, prior, config, planned cty.Value, errs *errList) {
	switch {
	case planned.IsNull() != config.IsNull():
		errs.add("planned object presence disagrees with config")
		return
	case planned.IsNull() || !config.IsKnown():
		return
	case !planned.IsKnown():
		errs.add("planned an unknown value for a configured object")
		return
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = cty.NullVal(planned.Type())
	}
	for i := range obj.attrs {
		inner := &obj.attrs[i]
		n := len(*errs)
		assertPlannedAttrValid(inner, attrOrNull(prior, inner.name, inner.ty), config.GetAttr(inner.name), planned.GetAttr(inner.name), errs)
		errs.underAttr(n, inner.name)
	}
}

// lengthRange is the smallest and largest length a set may have once its
// unknown elements become known.
func lengthRange(set cty.Value) (lo, hi int) {
	if whollyKnown(set) {
		n := set.LengthInt()
		return n, n
	}
	n := set.LengthInt()
	unknowns := 0
	for it := set.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		if !whollyKnown(ev) {
			unknowns++
		}
	}
	lo = n - unknowns
	if unknowns > 0 && lo == 0 {
		lo = 1
	}
	return lo, n
}

func formatRange(lo, hi int) string {
	if lo == hi {
		return formatValue(cty.NumberIntVal(int64(lo)))
	}
	return formatValue(cty.NumberIntVal(int64(lo))) + "-" + formatValue(cty.NumberIntVal(int64(hi)))
}

// attrOrNull is obj.name, or a null of ty when obj is null or unknown.
func attrOrNull(obj cty.Value, name string, ty cty.Type) cty.Value {
	if obj.IsNull() || !obj.IsKnown() || !obj.Type().IsObjectType() || !obj.Type().HasAttribute(name) {
		return cty.NullVal(ty)
	}
	return obj.GetAttr(name)
}

// elementOrNull is coll[key], or a dynamic null when coll lacks it.
func elementOrNull(coll, key cty.Value) cty.Value {
	if coll.IsNull() || !coll.IsKnown() {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	ty := coll.Type()
	switch {
	case ty.IsObjectType():
		if ty.HasAttribute(key.AsString()) {
			return coll.GetAttr(key.AsString())
		}
	case ty.IsListType() || ty.IsTupleType() || ty.IsMapType():
		if coll.HasIndex(key).True() {
			return coll.Index(key)
		}
	}
	return cty.NullVal(cty.DynamicPseudoType)
}

// sortedKeys lists the keys of a known map or object value in order.
func sortedKeys(v cty.Value) []string {
	keys := make([]string, 0, v.LengthInt())
	if v.Type().IsObjectType() {
		for k := range v.Type().AttributeTypes() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return keys
	}
	for it := v.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		keys = append(keys, k.AsString())
	}
	return keys
}
