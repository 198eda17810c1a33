package objchange

// This file keeps the walks as they were before they were optimised, as
// the reference the differential tests compare the fast walks against.
// Only names changed (ref prefix) and schema helpers became functions.
// Leaf helpers the optimisation did not touch (formatting values and
// ranges, looking up elements, the refinement check) are the production
// ones, so the two walks differ only where the algorithm does.

import (
	"github.com/tenetplan/tenet/providers"
	"github.com/zclconf/go-cty/cty"
)

// refProposedNew merges a prior object and a configuration object into the
// proposed new state sent to PlanResourceChange: configured values win,
// and computed attributes left null in configuration keep their prior
// value. Nested blocks and nested-type attributes are correlated with
// their prior counterparts by index (lists), key (maps) or content (sets).
func refProposedNew(schema *providers.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() && prior.IsNull() {
		return prior
	}
	if prior.IsNull() {
		prior = refBlockEmptyValue(schema)
	}
	return refProposedNewBlock(schema, prior, config)
}

// refPlannedDataResourceObject is the placeholder object of a data resource
// that will be read during apply: configured values as written, every
// computed attribute the configuration leaves null unknown.
func refPlannedDataResourceObject(schema *providers.Block, config cty.Value) cty.Value {
	return refProposedNewBlock(schema, cty.UnknownVal(refBlockImpliedType(schema)), config)
}

func refProposedNewBlock(schema *providers.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return prior
	}
	if prior.IsNull() {
		prior = refBlockEmptyValue(schema)
	} else if !prior.IsKnown() {
		// Take the configuration's concrete types so dynamic parts of an
		// unknown prior do not leak DynamicPseudoType into the result.
		prior = cty.UnknownVal(config.Type())
	}
	vals := make(map[string]cty.Value, len(schema.Attributes)+len(schema.BlockTypes))
	for name, attr := range schema.Attributes {
		vals[name] = refProposedNewAttribute(attr, prior.GetAttr(name), config.GetAttr(name))
	}
	for name, nb := range schema.BlockTypes {
		vals[name] = refProposedNewNestedBlock(nb, prior.GetAttr(name), config.GetAttr(name))
	}
	return cty.ObjectVal(vals)
}

func refProposedNewAttribute(attr *providers.Attribute, prior, config cty.Value) cty.Value {
	switch {
	case attr.Computed && config.IsNull():
		// An optional nested-type attribute whose prior value holds
		// something only the user could have set was removed by the user;
		// keeping the prior would resurrect it.
		if attr.NestedType != nil && attr.Optional && refHoldsConfiguredValue(attr.NestedType, prior) {
			return config
		}
		return prior
	case attr.NestedType != nil:
		return refProposedNewNestedType(attr.NestedType, prior, config)
	default:
		return config
	}
}

func refProposedNewAttributes(attrs map[string]*providers.Attribute, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if !prior.IsKnown() {
		prior = cty.UnknownVal(config.Type())
	}
	vals := make(map[string]cty.Value, len(attrs))
	for name, attr := range attrs {
		priorV := cty.NullVal(refAttrImpliedType(attr))
		if !prior.IsNull() {
			priorV = prior.GetAttr(name)
		}
		vals[name] = refProposedNewAttribute(attr, priorV, config.GetAttr(name))
	}
	return cty.ObjectVal(vals)
}

func refProposedNewNestedType(obj *providers.Object, prior, config cty.Value) cty.Value {
	if !config.IsKnown() {
		return config
	}
	merge := func(prior, config cty.Value) cty.Value {
		return refProposedNewAttributes(obj.Attributes, prior, config)
	}
	switch obj.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		if config.IsNull() {
			return config
		}
		return merge(prior, config)
	case providers.NestingList:
		return refProposedNewByIndex(prior, config, merge)
	case providers.NestingMap:
		return refProposedNewByKey(prior, config, merge)
	case providers.NestingSet:
		return refProposedNewSet(prior, config, func(p, c cty.Value) bool { return refAttrsCouldProduce(obj.Attributes, p, c) }, merge)
	}
	return config
}

func refProposedNewNestedBlock(nb *providers.NestedBlock, prior, config cty.Value) cty.Value {
	if !config.IsKnown() {
		return config
	}
	merge := func(prior, config cty.Value) cty.Value {
		return refProposedNewBlock(&nb.Block, prior, config)
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
		return refProposedNewByIndex(prior, config, merge)
	case providers.NestingMap:
		return refProposedNewByKey(prior, config, merge)
	case providers.NestingSet:
		return refProposedNewSet(prior, config, func(p, c cty.Value) bool { return refBlockCouldProduce(&nb.Block, p, c) }, merge)
	}
	return config
}

type refMergeFunc func(prior, config cty.Value) cty.Value

// refProposedNewByIndex correlates list (or tuple) elements by position.
// Elements beyond the end of a known prior are new and taken verbatim.
func refProposedNewByIndex(prior, config cty.Value, merge refMergeFunc) cty.Value {
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

// refProposedNewByKey correlates map (or object) elements by key. Keys the
// prior lacks are new and taken verbatim.
func refProposedNewByKey(prior, config cty.Value, merge refMergeFunc) cty.Value {
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

// refProposedNewSet pairs each configuration element with the first unused
// prior element that could have produced it; unmatched elements are
// merged with a null prior so their computed attributes stay null.
func refProposedNewSet(prior, config cty.Value, couldProduce func(prior, config cty.Value) bool, merge refMergeFunc) cty.Value {
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

// refBlockCouldProduce reports whether prior may be the result of planning
// config: equal except in computed attributes the configuration leaves
// null. Nested sets must be equal outright.
func refBlockCouldProduce(schema *providers.Block, prior, config cty.Value) bool {
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return prior.RawEquals(config)
	}
	if !refAttrsCouldProduce(schema.Attributes, prior, config) {
		return false
	}
	for name, nb := range schema.BlockTypes {
		p, c := prior.GetAttr(name), config.GetAttr(name)
		switch nb.Nesting {
		case providers.NestingSingle, providers.NestingGroup:
			if !refBlockCouldProduce(&nb.Block, p, c) {
				return false
			}
		case providers.NestingList, providers.NestingMap:
			if !elementsCouldProduce(p, c, func(p, c cty.Value) bool { return refBlockCouldProduce(&nb.Block, p, c) }) {
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

func refAttrsCouldProduce(attrs map[string]*providers.Attribute, prior, config cty.Value) bool {
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
		inner := func(p, c cty.Value) bool { return refAttrsCouldProduce(attr.NestedType.Attributes, p, c) }
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

// refHoldsConfiguredValue reports whether a nested-type value contains a
// non-null attribute that is not computed, i.e. one only the user sets.
func refHoldsConfiguredValue(obj *providers.Object, v cty.Value) bool {
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	objectHolds := func(o cty.Value) bool {
		if o.IsNull() || !o.IsKnown() {
			return false
		}
		for name, attr := range obj.Attributes {
			av := o.GetAttr(name)
			if attr.NestedType != nil && refHoldsConfiguredValue(attr.NestedType, av) {
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

// refAssertPlanValid checks a provider's planned object against the prior
// object and the configuration: every configured value must be kept (or
// the prior value kept in its place), only computed attributes may be
// chosen by the provider, and nested blocks must match the configuration
// in number and keys. Each problem is a cty.PathError; the engine reports
// them as "Provider produced invalid plan".
func refAssertPlanValid(schema *providers.Block, prior, config, planned cty.Value) []error {
	return refAssertPlanValidBlock(schema, prior, config, planned, nil)
}

func refAssertPlanValidBlock(schema *providers.Block, prior, config, planned cty.Value, path cty.Path) []error {
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
		prior = cty.NullVal(refBlockImpliedType(schema))
	}
	for name, attr := range schema.Attributes {
		errs = append(errs, refAssertPlannedAttrValid(attr, attrOrNull(prior, name, refAttrImpliedType(attr)), config.GetAttr(name), planned.GetAttr(name), path.GetAttr(name))...)
	}
	for name, nb := range schema.BlockTypes {
		errs = append(errs, refAssertPlannedBlocksValid(nb, attrOrNull(prior, name, cty.DynamicPseudoType), config.GetAttr(name), planned.GetAttr(name), path.GetAttr(name))...)
	}
	return errs
}

func refAssertPlannedBlocksValid(nb *providers.NestedBlock, prior, config, planned cty.Value, path cty.Path) []error {
	switch nb.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		return refAssertPlanValidBlock(&nb.Block, prior, config, planned, path)
	}
	var errs []error
	if !config.IsKnown() {
		// A dynamic block with unknown for_each: the provider cannot know
		// the blocks yet, so it must leave them alone.
		if !refEqualIgnoringRefinements(planned, config) {
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
			errs = append(errs, refAssertPlanValidBlock(&nb.Block, elementOrNull(prior, idx), config.Index(idx), plannedEV, elemPath)...)
		}
	case providers.NestingMap:
		plannedKeys, configKeys := refKeySet(planned), refKeySet(config)
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
			errs = append(errs, refAssertPlanValidBlock(&nb.Block, elementOrNull(prior, key), elementAt(config, key), plannedEV, elemPath)...)
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

func refAssertPlannedAttrValid(attr *providers.Attribute, prior, config, planned cty.Value, path cty.Path) []error {
	switch {
	case refEqualIgnoringRefinements(planned, config):
		return nil
	case !prior.IsNull() && !config.IsNull() && refEqualIgnoringRefinements(planned, prior):
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
		return refAssertPlannedNestedTypeValid(attr, prior, config, planned, path)
	}
	return []error{refMismatchError(attr.Sensitive, prior, config, planned, path)}
}

func refMismatchError(sensitive bool, prior, config, planned cty.Value, path cty.Path) error {
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

func refAssertPlannedNestedTypeValid(attr *providers.Attribute, prior, config, planned cty.Value, path cty.Path) []error {
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
			errs = append(errs, refAssertPlannedAttrValid(inner, attrOrNull(prior, name, refAttrImpliedType(inner)), config.GetAttr(name), planned.GetAttr(name), path.GetAttr(name))...)
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
		plannedKeys, configKeys := refKeySet(planned), refKeySet(config)
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

// refKeySet lists the keys of a known map or object value.
func refKeySet(v cty.Value) map[string]struct{} {
	keys := make(map[string]struct{}, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		keys[k.AsString()] = struct{}{}
	}
	return keys
}

// refAssertObjectCompatible checks that actual is a valid outcome of planned:
// every known planned value is kept exactly, every unknown planned value
// became something its type and refinements allow, and nested blocks kept
// their number and keys. It serves both for an applied object against its
// final plan ("Provider produced inconsistent result after apply") and for
// a final plan against the initial one ("Provider produced inconsistent
// final plan"); in the latter, actual may keep planned unknowns unknown.
func refAssertObjectCompatible(schema *providers.Block, planned, actual cty.Value) []error {
	if planned.IsWhollyKnown() && planned.RawEquals(actual) {
		return nil
	}
	return refAssertBlockCompatible(schema, planned, actual, nil)
}

func refAssertBlockCompatible(schema *providers.Block, planned, actual cty.Value, path cty.Path) []error {
	var errs []error
	switch {
	case planned.IsNull() && !actual.IsNull():
		return append(errs, path.NewErrorf("was absent, but now present"))
	case !planned.IsNull() && actual.IsNull():
		return append(errs, path.NewErrorf("was present, but now absent"))
	case planned.IsNull() || !planned.IsKnown():
		return nil
	case !actual.IsKnown():
		return append(errs, path.NewErrorf("was known, but now unknown"))
	}
	for name, attr := range schema.Attributes {
		errs = append(errs, refAssertAttrCompatible(attr, planned.GetAttr(name), actual.GetAttr(name), path.GetAttr(name))...)
	}
	for name, nb := range schema.BlockTypes {
		errs = append(errs, refAssertBlocksCompatible(nb, planned.GetAttr(name), actual.GetAttr(name), path.GetAttr(name))...)
	}
	return errs
}

func refAssertBlocksCompatible(nb *providers.NestedBlock, planned, actual cty.Value, path cty.Path) []error {
	switch nb.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		return refAssertBlockCompatible(&nb.Block, planned, actual, path)
	}
	var errs []error
	switch {
	case !planned.IsKnown():
		// Dynamic blocks whose for_each was unknown: any result will do.
		return nil
	case !actual.IsKnown():
		return append(errs, path.NewErrorf("block collection was known, but now unknown"))
	case planned.IsNull() || actual.IsNull():
		if planned.IsNull() != actual.IsNull() {
			errs = append(errs, path.NewErrorf("block collection presence changed"))
		}
		return errs
	}
	each := func(p, a cty.Value, path cty.Path) []error { return refAssertBlockCompatible(&nb.Block, p, a, path) }
	switch nb.Nesting {
	case providers.NestingList:
		errs = append(errs, refAssertListCompatible(planned, actual, path, "block count changed from %d to %d", each)...)
	case providers.NestingMap:
		errs = append(errs, refAssertKeyedCompatible(planned, actual, path, "block key", each)...)
	case providers.NestingSet:
		errs = append(errs, refAssertSetCompatible(planned, actual, path, "block set", func(p, a cty.Value) bool {
			return len(refAssertBlockCompatible(&nb.Block, p, a, nil)) == 0
		})...)
	}
	return errs
}

func refAssertAttrCompatible(attr *providers.Attribute, planned, actual cty.Value, path cty.Path) []error {
	if attr.NestedType == nil {
		return refAssertValueCompatible(planned, actual, attr.Sensitive, path)
	}
	obj := attr.NestedType
	var errs []error
	switch {
	case !planned.IsKnown():
		return refAssertValueCompatible(planned, actual, attr.Sensitive, path)
	case planned.IsNull() && !actual.IsNull():
		return append(errs, path.NewErrorf("was absent, but now present"))
	case !planned.IsNull() && actual.IsNull():
		return append(errs, path.NewErrorf("was present, but now absent"))
	case planned.IsNull():
		return nil
	case !actual.IsKnown():
		return append(errs, path.NewErrorf("was known, but now unknown"))
	}
	each := func(p, a cty.Value, path cty.Path) []error {
		switch {
		case !p.IsKnown():
			return refAssertValueCompatible(p, a, attr.Sensitive, path)
		case p.IsNull() != a.IsNull():
			return []error{path.NewErrorf("object presence changed")}
		case p.IsNull():
			return nil
		case !a.IsKnown():
			return []error{path.NewErrorf("was known, but now unknown")}
		}
		var errs []error
		for name, inner := range obj.Attributes {
			errs = append(errs, refAssertAttrCompatible(inner, p.GetAttr(name), a.GetAttr(name), path.GetAttr(name))...)
		}
		return errs
	}
	switch obj.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		errs = append(errs, each(planned, actual, path)...)
	case providers.NestingList:
		errs = append(errs, refAssertListCompatible(planned, actual, path, "count changed from %d to %d", each)...)
	case providers.NestingMap:
		errs = append(errs, refAssertKeyedCompatible(planned, actual, path, "key", each)...)
	case providers.NestingSet:
		errs = append(errs, refAssertSetCompatible(planned, actual, path, "set", func(p, a cty.Value) bool {
			return len(each(p, a, nil)) == 0
		})...)
	}
	return errs
}

// refAssertValueCompatible compares a plain attribute value (of any type)
// with its planned value.
func refAssertValueCompatible(planned, actual cty.Value, sensitive bool, path cty.Path) []error {
	if planned.IsWhollyKnown() && planned.RawEquals(actual) {
		return nil
	}
	var errs []error
	if planned.Type() == cty.DynamicPseudoType {
		// An unknown of unknown type: the provider could not even predict
		// the type, so anything goes.
		return nil
	}
	if typeErrs := actual.Type().TestConformance(planned.Type()); len(typeErrs) > 0 && actual.Type() != cty.DynamicPseudoType {
		return append(errs, path.NewErrorf("wrong final value type: %s", typeErrs[0]))
	}
	if !planned.IsKnown() {
		if actual.IsKnown() {
			if problem := refinementViolation(planned, actual); problem != "" {
				errs = append(errs, refValueMismatch(path, sensitive, "final value %s does not conform to planning placeholder: %s", formatValue(actual), problem))
			}
		}
		return errs
	}
	if !actual.IsKnown() {
		return append(errs, refValueMismatch(path, sensitive, "was %s, but now unknown", formatValue(planned)))
	}
	if planned.IsNull() || actual.IsNull() {
		if planned.IsNull() == actual.IsNull() {
			return nil
		}
		return append(errs, refValueMismatch(path, sensitive, "was %s, but now %s", formatValue(planned), formatValue(actual)))
	}
	ty := planned.Type()
	switch {
	case ty.IsPrimitiveType():
		if !planned.RawEquals(actual) {
			errs = append(errs, refValueMismatch(path, sensitive, "was %s, but now %s", formatValue(planned), formatValue(actual)))
		}
	case ty.IsListType() || ty.IsTupleType():
		plannedN, actualN := planned.LengthInt(), actual.LengthInt()
		for i := 0; i < plannedN || i < actualN; i++ {
			idx := cty.NumberIntVal(int64(i))
			switch {
			case i >= actualN:
				errs = append(errs, path.NewErrorf("element %d has vanished", i))
			case i >= plannedN:
				errs = append(errs, path.NewErrorf("new element %d has appeared", i))
			default:
				errs = append(errs, refAssertValueCompatible(planned.Index(idx), actual.Index(idx), sensitive, path.Index(idx))...)
			}
		}
	case ty.IsMapType() || ty.IsObjectType():
		errs = append(errs, refAssertKeyedCompatible(planned, actual, path, "element", func(p, a cty.Value, path cty.Path) []error {
			return refAssertValueCompatible(p, a, sensitive, path)
		})...)
	case ty.IsSetType():
		errs = append(errs, refAssertSetCompatible(planned, actual, path, "set", func(p, a cty.Value) bool {
			return len(refAssertValueCompatible(p, a, sensitive, nil)) == 0
		})...)
	}
	return errs
}

// refAssertListCompatible compares lists element by element once their
// lengths agree; countChanged words a difference in length.
func refAssertListCompatible(planned, actual cty.Value, path cty.Path, countChanged string, each func(p, a cty.Value, path cty.Path) []error) []error {
	plannedN, actualN := planned.LengthInt(), actual.LengthInt()
	if plannedN != actualN {
		return []error{path.NewErrorf(countChanged, plannedN, actualN)}
	}
	var errs []error
	for it := planned.ElementIterator(); it.Next(); {
		idx, p := it.Element()
		errs = append(errs, each(p, actual.Index(idx), path.Index(idx))...)
	}
	return errs
}

// refValueMismatch is the error for a value that differs from its plan,
// which names the values unless they are sensitive.
func refValueMismatch(path cty.Path, sensitive bool, format string, args ...any) error {
	if sensitive {
		return path.NewErrorf("inconsistent values for sensitive attribute")
	}
	return path.NewErrorf(format, args...)
}

// refAssertKeyedCompatible compares maps or objects key by key.
func refAssertKeyedCompatible(planned, actual cty.Value, path cty.Path, what string, each func(p, a cty.Value, path cty.Path) []error) []error {
	var errs []error
	actualKeys := refKeySet(actual)
	for it := planned.ElementIterator(); it.Next(); {
		key, p := it.Element()
		k := key.AsString()
		if _, ok := actualKeys[k]; !ok {
			errs = append(errs, path.NewErrorf("%s %q has vanished", what, k))
			continue
		}
		delete(actualKeys, k)
		errs = append(errs, each(p, elementAt(actual, key), refKeyPath(path, planned, k))...)
	}
	for k := range actualKeys {
		errs = append(errs, path.NewErrorf("new %s %q has appeared", what, k))
	}
	return errs
}

func refKeyPath(path cty.Path, coll cty.Value, k string) cty.Path {
	if coll.Type().IsObjectType() {
		return path.GetAttr(k)
	}
	return path.Index(cty.StringVal(k))
}

// refAssertSetCompatible requires every actual element to correlate with a
// planned one and no growth; unknown planned elements may merge, so the
// set may shrink.
func refAssertSetCompatible(planned, actual cty.Value, path cty.Path, what string, compatible func(p, a cty.Value) bool) []error {
	var errs []error
	plannedElems, actualElems := planned.AsValueSlice(), actual.AsValueSlice()
	if len(actualElems) > len(plannedElems) {
		return append(errs, path.NewErrorf("%s length grew from %d to %d", what, len(plannedElems), len(actualElems)))
	}
	matched := make([]bool, len(plannedElems))
	for _, a := range actualElems {
		found := false
		for i, p := range plannedElems {
			if compatible(p, a) {
				matched[i] = true
				found = true
				break
			}
		}
		if !found {
			errs = append(errs, path.NewErrorf("%s has an element that no planned element could have produced", what))
		}
	}
	for i, p := range plannedElems {
		if !matched[i] && p.IsWhollyKnown() {
			errs = append(errs, path.NewErrorf("%s lost a planned element", what))
		}
	}
	return errs
}

// refAssertObjectConforms checks that v has a type conforming to the schema
// ("Provider produced invalid object" / "invalid plan" when it does not).
// A null value of any type conforms only if its type does.
func refAssertObjectConforms(schema *providers.Block, v cty.Value) []error {
	if v == cty.NilVal {
		return []error{cty.Path(nil).NewErrorf("provider returned no object")}
	}
	return v.Type().TestConformance(refBlockImpliedType(schema))
}

// refWithoutRefinements, refUnknownPaths and refNullUnknowns always
// walk: the production ones skip the walk for wholly known values.
func refWithoutRefinements(v cty.Value) cty.Value {
	return replaceUnknowns(v, cty.UnknownVal)
}

// refEqualIgnoringRefinements is RawEquals with unknowns compared by type only.
func refEqualIgnoringRefinements(a, b cty.Value) bool {
	if a.IsWhollyKnown() && b.IsWhollyKnown() {
		return a.RawEquals(b)
	}
	return refWithoutRefinements(a).RawEquals(refWithoutRefinements(b))
}

func refUnknownPaths(v cty.Value) []cty.Path {
	return unknownPaths(v)
}

func refNullUnknowns(v cty.Value) cty.Value {
	return replaceUnknowns(v, cty.NullVal)
}

func refBlockImpliedType(b *providers.Block) cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	attrs := make(map[string]cty.Type, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		attrs[name] = refAttrImpliedType(a)
	}
	for name, nb := range b.BlockTypes {
		attrs[name] = refNestedBlockImpliedType(nb)
	}
	return cty.Object(attrs)
}

func refNestedBlockImpliedType(nb *providers.NestedBlock) cty.Type {
	inner := refBlockImpliedType(&nb.Block)
	switch nb.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		return inner
	case providers.NestingList:
		if inner.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.List(inner)
	case providers.NestingSet:
		return cty.Set(inner)
	case providers.NestingMap:
		if inner.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(inner)
	}
	return cty.NilType
}

func refAttrImpliedType(a *providers.Attribute) cty.Type {
	if a.NestedType == nil {
		return a.Type
	}
	attrs := make(map[string]cty.Type, len(a.NestedType.Attributes))
	for name, inner := range a.NestedType.Attributes {
		attrs[name] = refAttrImpliedType(inner)
	}
	inner := cty.Object(attrs)
	switch a.NestedType.Nesting {
	case providers.NestingList:
		return cty.List(inner)
	case providers.NestingSet:
		return cty.Set(inner)
	case providers.NestingMap:
		return cty.Map(inner)
	}
	return inner
}

func refBlockEmptyValue(b *providers.Block) cty.Value {
	if b == nil {
		return cty.EmptyObjectVal
	}
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(refAttrImpliedType(a))
	}
	for name, nb := range b.BlockTypes {
		ty := refNestedBlockImpliedType(nb)
		switch nb.Nesting {
		case providers.NestingGroup:
			vals[name] = refBlockEmptyValue(&nb.Block)
		case providers.NestingList:
			if ty.IsTupleType() || ty == cty.DynamicPseudoType {
				vals[name] = cty.EmptyTupleVal
			} else {
				vals[name] = cty.ListValEmpty(ty.ElementType())
			}
		case providers.NestingSet:
			vals[name] = cty.SetValEmpty(ty.ElementType())
		case providers.NestingMap:
			if ty.IsObjectType() || ty == cty.DynamicPseudoType {
				vals[name] = cty.EmptyObjectVal
			} else {
				vals[name] = cty.MapValEmpty(ty.ElementType())
			}
		default:
			vals[name] = cty.NullVal(ty)
		}
	}
	return cty.ObjectVal(vals)
}
