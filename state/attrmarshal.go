package state

import (
	"math/big"
	"slices"
	"strconv"

	"github.com/tenetplan/tenet/internal/jsontext"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// MarshalAttrs encodes v as ty for a state object's AttrsJSON, the mirror
// of UnmarshalAttrs: exactly the bytes ctyjson.Marshal(v, ty) gives, with
// less work per value (no conformance walk, integers without big.Float
// formatting). Anything unusual (marks, unknowns, a value whose type is not
// ty's, infinities) goes to ctyjson.Marshal, so errors read the same.
// BenchmarkAttrCodecs in attr_bench_test.go shows it pays.
func MarshalAttrs(v cty.Value, ty cty.Type) ([]byte, error) {
	b, ok := appendAttrs(make([]byte, 0, 128), v, ty)
	if !ok {
		return ctyjson.Marshal(v, ty)
	}
	return b, nil
}

// appendAttrs appends v encoded as ty; ok=false means "not sure, let
// go-cty do it".
func appendAttrs(b []byte, v cty.Value, ty cty.Type) ([]byte, bool) {
	if v.IsMarked() || !v.IsKnown() {
		return b, false
	}
	if ty == cty.DynamicPseudoType {
		// The value goes in a {"value":…,"type":…} wrapper; rare in
		// schemas, so go-cty writes this part.
		raw, err := ctyjson.Marshal(v, ty)
		if err != nil {
			return b, false
		}
		return append(b, raw...), true
	}
	vty := v.Type()
	if v.IsNull() {
		if vty != cty.DynamicPseudoType && !vty.Equals(ty) {
			return b, false
		}
		return append(b, "null"...), true
	}
	switch {
	case ty == cty.String:
		if vty != cty.String {
			return b, false
		}
		return jsontext.AppendQuote(b, v.AsString()), true
	case ty == cty.Number:
		if vty != cty.Number {
			return b, false
		}
		f := v.AsBigFloat()
		if f.IsInf() {
			return b, false
		}
		// An integer of at most 53 bits held with at least 53 bits of
		// precision prints as its digits: no shorter decimal rounds to it.
		// Negative zero prints as "-0", so it takes the slow way.
		negZero := f.Sign() == 0 && f.Signbit()
		if f.IsInt() && !negZero && (f.Prec() >= 53 || f.Sign() == 0) {
			if i, acc := f.Int64(); acc == big.Exact && i <= 1<<53 && i >= -(1<<53) {
				return strconv.AppendInt(b, i, 10), true
			}
		}
		return f.Append(b, 'f', -1), true
	case ty == cty.Bool:
		if vty != cty.Bool {
			return b, false
		}
		if v.True() {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case ty.IsObjectType():
		if !vty.IsObjectType() {
			return b, false
		}
		atys := ty.AttributeTypes()
		if len(vty.AttributeTypes()) != len(atys) {
			return b, false
		}
		var buf [16]string
		names := buf[:0]
		for k := range atys {
			if !vty.HasAttribute(k) {
				return b, false
			}
			names = append(names, k)
		}
		slices.Sort(names)
		b = append(b, '{')
		for i, k := range names {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsontext.AppendQuote(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendAttrs(b, v.GetAttr(k), atys[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	case ty.IsListType() && vty.IsListType(), ty.IsSetType() && vty.IsSetType():
		ety := ty.ElementType()
		b = append(b, '[')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			if !first {
				b = append(b, ',')
			}
			first = false
			_, ev := it.Element()
			var ok bool
			if b, ok = appendAttrs(b, ev, ety); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case ty.IsMapType() && vty.IsMapType():
		ety := ty.ElementType()
		b = append(b, '{')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			if !first {
				b = append(b, ',')
			}
			first = false
			ek, ev := it.Element()
			b = jsontext.AppendQuote(b, ek.AsString())
			b = append(b, ':')
			var ok bool
			if b, ok = appendAttrs(b, ev, ety); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	case ty.IsTupleType() && vty.IsTupleType():
		etys := ty.TupleElementTypes()
		if len(vty.TupleElementTypes()) != len(etys) {
			return b, false
		}
		b = append(b, '[')
		i := 0
		for it := v.ElementIterator(); it.Next(); {
			if i > 0 {
				b = append(b, ',')
			}
			_, ev := it.Element()
			var ok bool
			if b, ok = appendAttrs(b, ev, etys[i]); !ok {
				return b, false
			}
			i++
		}
		return append(b, ']'), true
	}
	return b, false
}
