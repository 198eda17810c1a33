package objchange

import "github.com/zclconf/go-cty/cty"

// whollyKnown is v.IsWhollyKnown() without its cost on objects, whose
// element iterator sorts the attribute names on every call.
func whollyKnown(v cty.Value) bool {
	if v.IsMarked() {
		v, _ = v.Unmark()
	}
	if !v.IsKnown() {
		return false
	}
	if v.IsNull() {
		return true
	}
	ty := v.Type()
	switch {
	case ty.IsPrimitiveType():
		return true
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if !whollyKnown(v.GetAttr(name)) {
				return false
			}
		}
		return true
	case v.CanIterateElements():
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if !whollyKnown(ev) {
				return false
			}
		}
	}
	return true
}

// typeConforms reports whether given.TestConformance(want) finds nothing,
// without building paths or errors.
func typeConforms(given, want cty.Type) bool {
	if want == cty.DynamicPseudoType {
		return true
	}
	switch {
	case given.IsObjectType() && want.IsObjectType():
		givenAttrs, wantAttrs := given.AttributeTypes(), want.AttributeTypes()
		if len(givenAttrs) != len(wantAttrs) {
			return false
		}
		for name, wantTy := range wantAttrs {
			givenTy, ok := givenAttrs[name]
			if !ok || !typeConforms(givenTy, wantTy) {
				return false
			}
		}
		return true
	case given.IsTupleType() && want.IsTupleType():
		givenElems, wantElems := given.TupleElementTypes(), want.TupleElementTypes()
		if len(givenElems) != len(wantElems) {
			return false
		}
		for i, wantTy := range wantElems {
			if !typeConforms(givenElems[i], wantTy) {
				return false
			}
		}
		return true
	case given.IsListType() && want.IsListType(),
		given.IsMapType() && want.IsMapType(),
		given.IsSetType() && want.IsSetType():
		return typeConforms(given.ElementType(), want.ElementType())
	}
	return given.Equals(want)
}

// equalIgnoringRefinements is RawEquals with unknowns compared by type
// only: withoutRefinements(a).RawEquals(withoutRefinements(b)), walked
// without rebuilding either value where that gives the same answer.
func equalIgnoringRefinements(a, b cty.Value) bool {
	if eq, ok := equalIgnoringRefinementsFast(a, b); ok {
		return eq
	}
	return withoutRefinements(a).RawEquals(withoutRefinements(b))
}

// equalIgnoringRefinementsFast decides the comparison structurally; ok is
// false for what it leaves to the slow path: marks (which rebuilding
// moves) and sets holding unknowns (whose elements may merge once their
// refinements are gone).
func equalIgnoringRefinementsFast(a, b cty.Value) (eq, ok bool) {
	if a.IsMarked() || b.IsMarked() {
		return false, false
	}
	ty := a.Type()
	if !ty.Equals(b.Type()) {
		return false, true
	}
	aKnown, bKnown := a.IsKnown(), b.IsKnown()
	switch {
	case !aKnown || !bKnown:
		return aKnown == bKnown, true
	case a.IsNull() || b.IsNull():
		return a.IsNull() == b.IsNull(), true
	case ty.IsPrimitiveType():
		return a.RawEquals(b), true
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if eq, ok := equalIgnoringRefinementsFast(a.GetAttr(name), b.GetAttr(name)); !ok || !eq {
				return eq, ok
			}
		}
		return true, true
	case ty.IsListType() || ty.IsTupleType():
		if a.LengthInt() != b.LengthInt() {
			return false, true
		}
		for ai, bi := a.ElementIterator(), b.ElementIterator(); ai.Next() && bi.Next(); {
			_, av := ai.Element()
			_, bv := bi.Element()
			if eq, ok := equalIgnoringRefinementsFast(av, bv); !ok || !eq {
				return eq, ok
			}
		}
		return true, true
	}
	// Maps, sets and capsules: exact when both are wholly known.
	if whollyKnown(a) && whollyKnown(b) {
		return a.RawEquals(b), true
	}
	return false, false
}
