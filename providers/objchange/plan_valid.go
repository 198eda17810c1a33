package objchange

import (
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
	return assertPlanValidBlock(schema, prior, config, planned, nil)
}

func assertPlanValidBlock(schema *providers.Block, prior, config, planned cty.Value, path cty.Path) []error {
	var errs []error
	switch {
	case planned.IsNull() && !config.IsNull():
		return append(errs, path.NewErrorf("planned for absence but config wants existence"))
	case config.IsNull() && !planned.IsNull():
		return append(errs, path.NewErrorf("planned for existence but config wants absence"))
	case !config.IsKnown():
		if planned.IsKnown() {
			errs = append(errs, path.NewErrorf("planned a value for a block whose configuration is unknown"))
		}
		return errs
	case planned.IsNull():
		return nil
	case !planned.IsKnown():
		return append(errs, path.NewErrorf("planned an unknown value for a whole block"))
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = cty.NullVal(schema.ImpliedType())
	}
	for name, attr := range schema.Attributes {
		errs = append(errs, assertPlannedAttrValid(attr, attrOrNull(prior, name, attr.ImpliedType()), config.GetAttr(name), planned.GetAttr(name), path.GetAttr(name))...)
	}
	for name, nb := range schema.BlockTypes {
		errs = append(errs, assertPlannedBlocksValid(nb, attrOrNull(prior, name, cty.DynamicPseudoType), config.GetAttr(name), planned.GetAttr(name), path.GetAttr(name))...)
	}
	return errs
}

func assertPlannedBlocksValid(nb *providers.NestedBlock, prior, config, planned cty.Value, path cty.Path) []error {
	switch nb.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		return assertPlanValidBlock(&nb.Block, prior, config, planned, path)
	}
	var errs []error
	if !config.IsKnown() {
		// A dynamic block with unknown for_each: the provider cannot know
		// the blocks yet, so it must leave them alone.
		if !equalIgnoringRefinements(planned, config) {
			errs = append(errs, path.NewErrorf("planned a value for blocks whose configuration is unknown"))
		}
		return errs
	}
	if !planned.IsKnown() {
		return append(errs, path.NewErrorf("planned an unknown value for a collection of blocks"))
	}
	if planned.IsNull() || config.IsNull() {
		if planned.IsNull() != config.IsNull() {
			errs = append(errs, path.NewErrorf("planned block collection presence disagrees with config"))
		}
		return errs
	}
	switch nb.Nesting {
	case providers.NestingList:
		plannedN, configN := planned.LengthInt(), config.LengthInt()
		if plannedN != configN {
			return append(errs, path.NewErrorf("block count in plan (%d) disagrees with count in config (%d)", plannedN, configN))
		}
		for it := planned.ElementIterator(); it.Next(); {
			idx, plannedEV := it.Element()
			elemPath := path.Index(idx)
			if !plannedEV.IsKnown() {
				errs = append(errs, elemPath.NewErrorf("planned an unknown value for a nested block"))
				continue
			}
			errs = append(errs, assertPlanValidBlock(&nb.Block, elementOrNull(prior, idx), config.Index(idx), plannedEV, elemPath)...)
		}
	case providers.NestingMap:
		plannedKeys, configKeys := keySet(planned), keySet(config)
		for k := range plannedKeys {
			if _, ok := configKeys[k]; !ok {
				errs = append(errs, path.Index(cty.StringVal(k)).NewErrorf("block key %q is planned but not configured", k))
			}
		}
		for k := range configKeys {
			if _, ok := plannedKeys[k]; !ok {
				errs = append(errs, path.Index(cty.StringVal(k)).NewErrorf("block key %q is configured but missing from the plan", k))
			}
		}
		if len(errs) > 0 {
			return errs
		}
		for k := range plannedKeys {
			key := cty.StringVal(k)
			elemPath := path.Index(key)
			plannedEV := elementAt(planned, key)
			if !plannedEV.IsKnown() {
				errs = append(errs, elemPath.NewErrorf("planned an unknown value for a nested block"))
				continue
			}
			errs = append(errs, assertPlanValidBlock(&nb.Block, elementOrNull(prior, key), elementAt(config, key), plannedEV, elemPath)...)
		}
	case providers.NestingSet:
		// Set elements cannot be correlated with configuration reliably,
		// so only their knownness is checked.
		for it := planned.ElementIterator(); it.Next(); {
			_, plannedEV := it.Element()
			if !plannedEV.IsKnown() {
				errs = append(errs, path.NewErrorf("planned an unknown value for a nested block"))
			}
		}
	}
	return errs
}

func assertPlannedAttrValid(attr *providers.Attribute, prior, config, planned cty.Value, path cty.Path) []error {
	switch {
	case equalIgnoringRefinements(planned, config):
		return nil
	case !prior.IsNull() && !config.IsNull() && equalIgnoringRefinements(planned, prior):
		// The provider judged the configured change insignificant and kept
		// the prior value: allowed.
		return nil
	case attr.Computed && !attr.Optional && !attr.Required:
		return nil
	case config.IsNull() && attr.Computed:
		return nil
	case config.IsNull():
		if attr.Sensitive {
			return []error{path.NewErrorf("planned a sensitive value for a non-computed attribute")}
		}
		return []error{path.NewErrorf("planned value %s for a non-computed attribute", formatValue(planned))}
	case attr.NestedType != nil:
		return assertPlannedNestedTypeValid(attr, prior, config, planned, path)
	}
	return []error{mismatchError(attr.Sensitive, prior, config, planned, path)}
}

func mismatchError(sensitive bool, prior, config, planned cty.Value, path cty.Path) error {
	switch {
	case sensitive && prior.IsNull():
		return path.NewErrorf("sensitive planned value does not match config value")
	case sensitive:
		return path.NewErrorf("sensitive planned value does not match config value nor prior value")
	case prior.IsNull():
		return path.NewErrorf("planned value %s does not match config value %s", formatValue(planned), formatValue(config))
	}
	return path.NewErrorf("planned value %s does not match config value %s nor prior value %s",
		formatValue(planned), formatValue(config), formatValue(prior))
}

func assertPlannedNestedTypeValid(attr *providers.Attribute, prior, config, planned cty.Value, path cty.Path) []error {
	obj := attr.NestedType
	var errs []error
	switch {
	case planned.IsNull() && !config.IsNull():
		return append(errs, path.NewErrorf("planned for absence but config wants existence"))
	case config.IsNull() && !planned.IsNull():
		return append(errs, path.NewErrorf("planned for existence but config wants absence"))
	case !config.IsNull() && !planned.IsKnown():
		return append(errs, path.NewErrorf("planned an unknown value for a configured attribute"))
	case planned.IsNull() || !config.IsKnown():
		return nil
	}
	checkObject := func(prior, config, planned cty.Value, path cty.Path) {
		switch {
		case planned.IsNull() != config.IsNull():
			errs = append(errs, path.NewErrorf("planned object presence disagrees with config"))
			return
		case planned.IsNull() || !config.IsKnown():
			return
		case !planned.IsKnown():
			errs = append(errs, path.NewErrorf("planned an unknown value for a configured object"))
			return
		}
		if prior.IsNull() || !prior.IsKnown() {
			prior = cty.NullVal(planned.Type())
		}
		for name, inner := range obj.Attributes {
			errs = append(errs, assertPlannedAttrValid(inner, attrOrNull(prior, name, inner.ImpliedType()), config.GetAttr(name), planned.GetAttr(name), path.GetAttr(name))...)
		}
	}
	switch obj.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		checkObject(prior, config, planned, path)
	case providers.NestingList:
		plannedN, configN := planned.LengthInt(), config.LengthInt()
		if plannedN != configN {
			return append(errs, path.NewErrorf("count in plan (%d) disagrees with count in config (%d)", plannedN, configN))
		}
		for it := planned.ElementIterator(); it.Next(); {
			idx, plannedEV := it.Element()
			checkObject(elementOrNull(prior, idx), config.Index(idx), plannedEV, path.Index(idx))
		}
	case providers.NestingMap:
		plannedKeys, configKeys := keySet(planned), keySet(config)
		for k := range configKeys {
			if _, ok := plannedKeys[k]; !ok {
				errs = append(errs, path.Index(cty.StringVal(k)).NewErrorf("key %q is configured but missing from the plan", k))
			}
		}
		for k := range plannedKeys {
			key := cty.StringVal(k)
			if _, ok := configKeys[k]; !ok {
				errs = append(errs, path.Index(key).NewErrorf("key %q is planned but not configured", k))
				continue
			}
			checkObject(elementOrNull(prior, key), elementAt(config, key), elementAt(planned, key), path.Index(key))
		}
	case providers.NestingSet:
		// Unknown elements may collapse into one, so the planned length
		// is a range that must include the configured length.
		configN := config.LengthInt()
		lo, hi := lengthRange(planned)
		if configN < lo || configN > hi {
			errs = append(errs, path.NewErrorf("count in plan (%s) disagrees with count in config (%d)", formatRange(lo, hi), configN))
		}
	}
	return errs
}

// lengthRange is the smallest and largest length a set may have once its
// unknown elements become known.
func lengthRange(set cty.Value) (lo, hi int) {
	if set.IsWhollyKnown() {
		n := set.LengthInt()
		return n, n
	}
	n := set.LengthInt()
	unknowns := 0
	for it := set.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		if !ev.IsWhollyKnown() {
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

// keySet lists the keys of a known map or object value.
func keySet(v cty.Value) map[string]struct{} {
	keys := make(map[string]struct{}, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		keys[k.AsString()] = struct{}{}
	}
	return keys
}
