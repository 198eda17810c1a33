package objchange

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// AssertObjectCompatible checks that actual is a valid outcome of planned:
// every known planned value is kept exactly, every unknown planned value
// became something its type and refinements allow, and nested blocks kept
// their number and keys. It serves both for an applied object against its
// final plan ("Provider produced inconsistent result after apply") and for
// a final plan against the initial one ("Provider produced inconsistent
// final plan"); in the latter, actual may keep planned unknowns unknown.
func AssertObjectCompatible(schema *providers.Block, planned, actual cty.Value) []error {
	if planned.IsWhollyKnown() && planned.RawEquals(actual) {
		return nil
	}
	return assertBlockCompatible(schema, planned, actual, nil)
}

func assertBlockCompatible(schema *providers.Block, planned, actual cty.Value, path cty.Path) []error {
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
		errs = append(errs, assertAttrCompatible(attr, planned.GetAttr(name), actual.GetAttr(name), path.GetAttr(name))...)
	}
	for name, nb := range schema.BlockTypes {
		errs = append(errs, assertBlocksCompatible(nb, planned.GetAttr(name), actual.GetAttr(name), path.GetAttr(name))...)
	}
	return errs
}

func assertBlocksCompatible(nb *providers.NestedBlock, planned, actual cty.Value, path cty.Path) []error {
	switch nb.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		return assertBlockCompatible(&nb.Block, planned, actual, path)
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
	each := func(p, a cty.Value, path cty.Path) []error { return assertBlockCompatible(&nb.Block, p, a, path) }
	switch nb.Nesting {
	case providers.NestingList:
		plannedN, actualN := planned.LengthInt(), actual.LengthInt()
		if plannedN != actualN {
			return append(errs, path.NewErrorf("block count changed from %d to %d", plannedN, actualN))
		}
		for it := planned.ElementIterator(); it.Next(); {
			idx, p := it.Element()
			errs = append(errs, each(p, actual.Index(idx), path.Index(idx))...)
		}
	case providers.NestingMap:
		errs = append(errs, assertKeyedCompatible(planned, actual, path, "block key", each)...)
	case providers.NestingSet:
		errs = append(errs, assertSetCompatible(planned, actual, path, "block set", func(p, a cty.Value) bool {
			return len(assertBlockCompatible(&nb.Block, p, a, nil)) == 0
		})...)
	}
	return errs
}

func assertAttrCompatible(attr *providers.Attribute, planned, actual cty.Value, path cty.Path) []error {
	if attr.NestedType == nil {
		return assertValueCompatible(planned, actual, attr.Sensitive, path)
	}
	obj := attr.NestedType
	var errs []error
	switch {
	case !planned.IsKnown():
		return assertValueCompatible(planned, actual, attr.Sensitive, path)
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
			return assertValueCompatible(p, a, attr.Sensitive, path)
		case p.IsNull() != a.IsNull():
			return []error{path.NewErrorf("object presence changed")}
		case p.IsNull():
			return nil
		case !a.IsKnown():
			return []error{path.NewErrorf("was known, but now unknown")}
		}
		var errs []error
		for name, inner := range obj.Attributes {
			errs = append(errs, assertAttrCompatible(inner, p.GetAttr(name), a.GetAttr(name), path.GetAttr(name))...)
		}
		return errs
	}
	switch obj.Nesting {
	case providers.NestingSingle, providers.NestingGroup:
		errs = append(errs, each(planned, actual, path)...)
	case providers.NestingList:
		plannedN, actualN := planned.LengthInt(), actual.LengthInt()
		if plannedN != actualN {
			return append(errs, path.NewErrorf("count changed from %d to %d", plannedN, actualN))
		}
		for it := planned.ElementIterator(); it.Next(); {
			idx, p := it.Element()
			errs = append(errs, each(p, actual.Index(idx), path.Index(idx))...)
		}
	case providers.NestingMap:
		errs = append(errs, assertKeyedCompatible(planned, actual, path, "key", each)...)
	case providers.NestingSet:
		errs = append(errs, assertSetCompatible(planned, actual, path, "set", func(p, a cty.Value) bool {
			return len(each(p, a, nil)) == 0
		})...)
	}
	return errs
}

// assertValueCompatible compares a plain attribute value (of any type)
// with its planned value.
func assertValueCompatible(planned, actual cty.Value, sensitive bool, path cty.Path) []error {
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
				if sensitive {
					return append(errs, path.NewErrorf("inconsistent values for sensitive attribute"))
				}
				errs = append(errs, path.NewErrorf("final value %s does not conform to planning placeholder: %s", formatValue(actual), problem))
			}
		}
		return errs
	}
	if !actual.IsKnown() {
		if sensitive {
			return append(errs, path.NewErrorf("inconsistent values for sensitive attribute"))
		}
		return append(errs, path.NewErrorf("was %s, but now unknown", formatValue(planned)))
	}
	if planned.IsNull() || actual.IsNull() {
		if planned.IsNull() == actual.IsNull() {
			return nil
		}
		if sensitive {
			return append(errs, path.NewErrorf("inconsistent values for sensitive attribute"))
		}
		return append(errs, path.NewErrorf("was %s, but now %s", formatValue(planned), formatValue(actual)))
	}
	ty := planned.Type()
	switch {
	case ty.IsPrimitiveType():
		if !planned.RawEquals(actual) {
			if sensitive {
				return append(errs, path.NewErrorf("inconsistent values for sensitive attribute"))
			}
			errs = append(errs, path.NewErrorf("was %s, but now %s", formatValue(planned), formatValue(actual)))
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
				errs = append(errs, assertValueCompatible(planned.Index(idx), actual.Index(idx), sensitive, path.Index(idx))...)
			}
		}
	case ty.IsMapType() || ty.IsObjectType():
		errs = append(errs, assertKeyedCompatible(planned, actual, path, "element", func(p, a cty.Value, path cty.Path) []error {
			return assertValueCompatible(p, a, sensitive, path)
		})...)
	case ty.IsSetType():
		errs = append(errs, assertSetCompatible(planned, actual, path, "set", func(p, a cty.Value) bool {
			return len(assertValueCompatible(p, a, sensitive, nil)) == 0
		})...)
	}
	return errs
}

// assertKeyedCompatible compares maps or objects key by key.
func assertKeyedCompatible(planned, actual cty.Value, path cty.Path, what string, each func(p, a cty.Value, path cty.Path) []error) []error {
	var errs []error
	actualKeys := keySet(actual)
	for it := planned.ElementIterator(); it.Next(); {
		key, p := it.Element()
		k := key.AsString()
		if _, ok := actualKeys[k]; !ok {
			errs = append(errs, path.NewErrorf("%s %q has vanished", what, k))
			continue
		}
		delete(actualKeys, k)
		errs = append(errs, each(p, elementAt(actual, key), keyPath(path, planned, k))...)
	}
	for k := range actualKeys {
		errs = append(errs, path.NewErrorf("new %s %q has appeared", what, k))
	}
	return errs
}

func keyPath(path cty.Path, coll cty.Value, k string) cty.Path {
	if coll.Type().IsObjectType() {
		return path.GetAttr(k)
	}
	return path.Index(cty.StringVal(k))
}

// assertSetCompatible requires every actual element to correlate with a
// planned one and no growth; unknown planned elements may merge, so the
// set may shrink.
func assertSetCompatible(planned, actual cty.Value, path cty.Path, what string, compatible func(p, a cty.Value) bool) []error {
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

// refinementViolation explains how a known value breaks the promises an
// unknown placeholder made, or returns "".
func refinementViolation(planned, actual cty.Value) string {
	rng := planned.Range()
	if rng.DefinitelyNotNull() && actual.IsNull() {
		return "value must not be null"
	}
	if actual.IsNull() {
		return ""
	}
	ty := actual.Type()
	switch {
	case ty == cty.String:
		if prefix := rng.StringPrefix(); prefix != "" {
			s := actual.AsString()
			if len(s) < len(prefix) || s[:len(prefix)] != prefix {
				return "value must start with " + formatValue(cty.StringVal(prefix))
			}
		}
	case ty == cty.Number:
		if lower, inclusive := rng.NumberLowerBound(); lower.IsKnown() && !lower.IsNull() {
			if cmp := actual.AsBigFloat().Cmp(lower.AsBigFloat()); cmp < 0 || (cmp == 0 && !inclusive) {
				return "value is below the planned lower bound"
			}
		}
		if upper, inclusive := rng.NumberUpperBound(); upper.IsKnown() && !upper.IsNull() {
			if cmp := actual.AsBigFloat().Cmp(upper.AsBigFloat()); cmp > 0 || (cmp == 0 && !inclusive) {
				return "value is above the planned upper bound"
			}
		}
	case ty.IsCollectionType():
		n := actual.LengthInt()
		if n < rng.LengthLowerBound() || n > rng.LengthUpperBound() {
			return "collection length is outside the planned range"
		}
	}
	return ""
}
