package objchange

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// formatValue renders a value compactly, HCL-like, for error messages.
func formatValue(v cty.Value) string {
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

func writeValue(b *strings.Builder, v cty.Value) {
	switch {
	case v.IsMarked():
		b.WriteString("(sensitive value)")
		return
	case !v.IsKnown():
		b.WriteString("(known after apply)")
		return
	case v.IsNull():
		b.WriteString("null")
		return
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		b.WriteString(strconv.Quote(v.AsString()))
	case ty == cty.Number:
		b.WriteString(v.AsBigFloat().Text('f', -1))
	case ty == cty.Bool:
		b.WriteString(strconv.FormatBool(v.True()))
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		b.WriteByte('[')
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			_, ev := it.Element()
			writeValue(b, ev)
		}
		b.WriteByte(']')
	case ty.IsMapType() || ty.IsObjectType():
		m := v.AsValueMap()
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(m)) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k)
			b.WriteString(" = ")
			writeValue(b, m[k])
		}
		b.WriteByte('}')
	default:
		b.WriteString(v.GoString())
	}
}

// withoutRefinements replaces every refined unknown by a plain unknown of
// the same type, so values can be compared ignoring refinements.
func withoutRefinements(v cty.Value) cty.Value {
	if whollyKnown(v) {
		return v
	}
	return replaceUnknowns(v, cty.UnknownVal)
}

// UnknownPaths lists the paths of every unknown value inside v, in a
// stable order; the engine reports one error per path when a provider
// leaves unknowns in an applied object.
func UnknownPaths(v cty.Value) []cty.Path {
	if whollyKnown(v) {
		return nil
	}
	return unknownPaths(v)
}

// NullUnknowns replaces every unknown inside v by a null of its type, the
// repair the engine makes before saving an applied object that still has
// unknowns.
func NullUnknowns(v cty.Value) cty.Value {
	if whollyKnown(v) {
		return v
	}
	return replaceUnknowns(v, cty.NullVal)
}

// unknownPaths walks all of v; UnknownPaths skips the walk when v is
// wholly known.
func unknownPaths(v cty.Value) []cty.Path {
	var paths []cty.Path
	_ = cty.Walk(v, func(p cty.Path, v cty.Value) (bool, error) {
		if !v.IsKnown() {
			paths = append(paths, p.Copy())
			return false, nil
		}
		return true, nil
	})
	return paths
}

// replaceUnknowns replaces every unknown inside v by with(its type).
func replaceUnknowns(v cty.Value, with func(cty.Type) cty.Value) cty.Value {
	out, _ := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			return with(v.Type()), nil
		}
		return v, nil
	})
	return out
}
