package objchange

import (
	"slices"

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
	if planned.RawEquals(actual) && whollyKnown(planned) {
		return nil
	}
	var errs errList
	assertBlockCompatible(compile(schema), planned, actual, &errs)
	return errs.errors()
}

// The walks add what they find to errs, relative to the value they are
// given; errs stays nil (and unallocated) while everything is compatible.

// addPresenceChange reports a value that was planned null and is not,
// or the other way round, and says whether it did.
func addPresenceChange(planned, actual cty.Value, errs *errList) bool {
	switch {
	case planned.IsNull() && !actual.IsNull():
		errs.add("was absent, but now present")
		return true
	case !planned.IsNull() && actual.IsNull():
		errs.add("was present, but now absent")
		return true
	}
	return false
}

func assertBlockCompatible(cb *compiledBlock, planned, actual cty.Value, errs *errList) {
	if addPresenceChange(planned, actual, errs) {
		return
	}
	switch {
	case planned.IsNull() || !planned.IsKnown():
		return
	case !actual.IsKnown():
		errs.add("was known, but now unknown")
		return
	}
	for i := range cb.attrs {
		a := &cb.attrs[i]
		n := len(*errs)
		assertAttrCompatible(a, planned.GetAttr(a.name), actual.GetAttr(a.name), errs)
		errs.underAttr(n, a.name)
	}
	for i := range cb.blocks {
		nb := &cb.blocks[i]
		n := len(*errs)
		assertBlocksCompatible(nb, planned.GetAttr(nb.name), actual.GetAttr(nb.name), errs)
		errs.underAttr(n, nb.name)
	}
}

// elemCheck compares one element of a collection: a nested block, an
// object of a nested-type attribute, or else a plain value. It is a
// struct rather than a func value so that calls through it are direct.
type elemCheck struct {
	block     *compiledBlock
	attr      *compiledAttr
	sensitive bool
}

func (c elemCheck) check(p, a cty.Value, errs *errList) {
	switch {
	case c.block != nil:
		assertBlockCompatible(c.block, p, a, errs)
	case c.attr != nil:
		assertObjectCompatible(c.attr, p, a, errs)
	default:
		assertValueCompatible(p, a, c.sensitive, errs)
	}
}

// compatible reports whether check finds nothing wrong.
func (c elemCheck) compatible(p, a cty.Value) bool {
	var errs errList
	c.check(p, a, &errs)
	return len(errs) == 0
}

func assertBlocksCompatible(nb *compiledNested, planned, actual cty.Value, errs *errList) {
	switch nb.nesting {
	case providers.NestingSingle, providers.NestingGroup:
		assertBlockCompatible(nb.block, planned, actual, errs)
		return
	}
	switch {
	case !planned.IsKnown():
		// Dynamic blocks whose for_each was unknown: any result will do.
		return
	case !actual.IsKnown():
		errs.add("block collection was known, but now unknown")
		return
	case planned.IsNull() || actual.IsNull():
		if planned.IsNull() != actual.IsNull() {
			errs.add("block collection presence changed")
		}
		return
	}
	assertElemsCompatible(nb.nesting, planned, actual, blockWords, elemCheck{block: nb.block}, errs)
}

// collectionWords name a collection's parts in assertElemsCompatible's
// messages; they are constants so that comparing allocates nothing.
type collectionWords struct{ countChanged, key, set string }

var (
	blockWords  = collectionWords{"block count changed from %d to %d", "block key", "block set"}
	objectWords = collectionWords{"count changed from %d to %d", "key", "set"}
)

// assertElemsCompatible compares the elements of a list, map or set of
// nested blocks or objects.
func assertElemsCompatible(nesting providers.NestingMode, planned, actual cty.Value, words collectionWords, each elemCheck, errs *errList) {
	switch nesting {
	case providers.NestingList:
		plannedN, actualN := planned.LengthInt(), actual.LengthInt()
		if plannedN != actualN {
			errs.add(words.countChanged, plannedN, actualN)
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			idx, p := it.Element()
			n := len(*errs)
			each.check(p, actual.Index(idx), errs)
			errs.underIndex(n, idx)
		}
	case providers.NestingMap:
		assertKeyedCompatible(planned, actual, words.key, each, errs)
	case providers.NestingSet:
		assertSetCompatible(planned, actual, words.set, each, errs)
	}
}

func assertAttrCompatible(attr *compiledAttr, planned, actual cty.Value, errs *errList) {
	if attr.nested == nil {
		assertValueCompatible(planned, actual, attr.sensitive, errs)
		return
	}
	obj := attr.nested
	if !planned.IsKnown() {
		assertValueCompatible(planned, actual, attr.sensitive, errs)
		return
	}
	if addPresenceChange(planned, actual, errs) {
		return
	}
	switch {
	case planned.IsNull():
		return
	case !actual.IsKnown():
		errs.add("was known, but now unknown")
		return
	}
	each := elemCheck{attr: attr}
	switch obj.nesting {
	case providers.NestingSingle, providers.NestingGroup:
		each.check(planned, actual, errs)
	default:
		assertElemsCompatible(obj.nesting, planned, actual, objectWords, each, errs)
	}
}

// assertObjectCompatible compares one object of a nested-type attribute.
func assertObjectCompatible(attr *compiledAttr, p, a cty.Value, errs *errList) {
	switch {
	case !p.IsKnown():
		assertValueCompatible(p, a, attr.sensitive, errs)
		return
	case p.IsNull() != a.IsNull():
		errs.add("object presence changed")
		return
	case p.IsNull():
		return
	case !a.IsKnown():
		errs.add("was known, but now unknown")
		return
	}
	for i := range attr.nested.attrs {
		inner := &attr.nested.attrs[i]
		n := len(*errs)
		assertAttrCompatible(inner, p.GetAttr(inner.name), a.GetAttr(inner.name), errs)
		errs.underAttr(n, inner.name)
	}
}

// assertValueCompatible compares a plain attribute value (of any type)
// with its planned value.
func assertValueCompatible(planned, actual cty.Value, sensitive bool, errs *errList) {
	if planned.RawEquals(actual) && whollyKnown(planned) {
		return
	}
	if planned.Type() == cty.DynamicPseudoType {
		// An unknown of unknown type: the provider could not even predict
		// the type, so anything goes.
		return
	}
	if !typeConforms(actual.Type(), planned.Type()) && actual.Type() != cty.DynamicPseudoType {
		typeErrs := actual.Type().TestConformance(planned.Type())
		errs.add("wrong final value type: %s", typeErrs[0])
		return
	}
	if !planned.IsKnown() {
		if actual.IsKnown() {
			if problem := refinementViolation(planned, actual); problem != "" {
				if sensitive {
					errs.add("inconsistent values for sensitive attribute")
					return
				}
				errs.add("final value %s does not conform to planning placeholder: %s", formatValue(actual), problem)
			}
		}
		return
	}
	if !actual.IsKnown() {
		if sensitive {
			errs.add("inconsistent values for sensitive attribute")
			return
		}
		errs.add("was %s, but now unknown", formatValue(planned))
		return
	}
	if planned.IsNull() || actual.IsNull() {
		if planned.IsNull() == actual.IsNull() {
			return
		}
		if sensitive {
			errs.add("inconsistent values for sensitive attribute")
			return
		}
		errs.add("was %s, but now %s", formatValue(planned), formatValue(actual))
		return
	}
	ty := planned.Type()
	switch {
	case ty.IsPrimitiveType():
		if !planned.RawEquals(actual) {
			if sensitive {
				errs.add("inconsistent values for sensitive attribute")
				return
			}
			errs.add("was %s, but now %s", formatValue(planned), formatValue(actual))
		}
	case ty.IsListType() || ty.IsTupleType():
		plannedN, actualN := planned.LengthInt(), actual.LengthInt()
		for i := 0; i < plannedN || i < actualN; i++ {
			switch {
			case i >= actualN:
				errs.add("element %d has vanished", i)
			case i >= plannedN:
				errs.add("new element %d has appeared", i)
			default:
				idx := cty.NumberIntVal(int64(i))
				n := len(*errs)
				assertValueCompatible(planned.Index(idx), actual.Index(idx), sensitive, errs)
				errs.underIndex(n, idx)
			}
		}
	case ty.IsMapType() || ty.IsObjectType():
		assertKeyedCompatible(planned, actual, "element", elemCheck{sensitive: sensitive}, errs)
	case ty.IsSetType():
		assertSetCompatible(planned, actual, "set", elemCheck{sensitive: sensitive}, errs)
	}
}

// assertKeyedCompatible compares maps or objects key by key.
func assertKeyedCompatible(planned, actual cty.Value, what string, each elemCheck, errs *errList) {
	actualKeys := sortedKeys(actual)
	seen := make([]bool, len(actualKeys))
	for it := planned.ElementIterator(); it.Next(); {
		key, p := it.Element()
		k := key.AsString()
		i, ok := slices.BinarySearch(actualKeys, k)
		if !ok {
			errs.add("%s %q has vanished", what, k)
			continue
		}
		seen[i] = true
		n := len(*errs)
		each.check(p, elementAt(actual, key), errs)
		if planned.Type().IsObjectType() {
			errs.underAttr(n, k)
		} else {
			errs.underIndex(n, cty.StringVal(k))
		}
	}
	for i, k := range actualKeys {
		if !seen[i] {
			errs.add("new %s %q has appeared", what, k)
		}
	}
}

// assertSetCompatible requires every actual element to correlate with a
// planned one and no growth; unknown planned elements may merge, so the
// set may shrink.
func assertSetCompatible(planned, actual cty.Value, what string, each elemCheck, errs *errList) {
	plannedElems, actualElems := planned.AsValueSlice(), actual.AsValueSlice()
	if len(actualElems) > len(plannedElems) {
		errs.add("%s length grew from %d to %d", what, len(plannedElems), len(actualElems))
		return
	}
	matched := make([]bool, len(plannedElems))
	for _, a := range actualElems {
		found := false
		for i, p := range plannedElems {
			if each.compatible(p, a) {
				matched[i] = true
				found = true
				break
			}
		}
		if !found {
			errs.add("%s has an element that no planned element could have produced", what)
		}
	}
	for i, p := range plannedElems {
		if !matched[i] && whollyKnown(p) {
			errs.add("%s lost a planned element", what)
		}
	}
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
