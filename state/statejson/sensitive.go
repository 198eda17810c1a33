package statejson

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/zclconf/go-cty/cty"
)

// pathSet holds sensitive paths in a form both walkers can probe: each
// step is a quoted name (object attribute or map key, which JSON cannot
// tell apart) or a bracketed number (sequence index).
type pathSet map[string]struct{}

func newPathSet(paths []cty.Path) pathSet {
	if len(paths) == 0 {
		return nil
	}
	set := make(pathSet, len(paths))
	for _, p := range paths {
		var b []byte
		ok := true
		for _, step := range p {
			switch st := step.(type) {
			case cty.GetAttrStep:
				b = appendNameStep(b, st.Name)
			case cty.IndexStep:
				switch {
				case st.Key.IsNull() || !st.Key.IsKnown():
					ok = false
				case st.Key.Type() == cty.String:
					b = appendNameStep(b, st.Key.AsString())
				case st.Key.Type() == cty.Number:
					i, _ := st.Key.AsBigFloat().Int64()
					b = appendIndexStep(b, int(i))
				default:
					ok = false // set elements: not addressable in the view
				}
			}
		}
		if ok {
			set[string(b)] = struct{}{}
		}
	}
	return set
}

func appendNameStep(b []byte, name string) []byte {
	return strconv.AppendQuote(append(b, '.'), name)
}

func appendIndexStep(b []byte, i int) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(i), 10)
	return append(b, ']')
}

func (s pathSet) has(path []byte) bool {
	if s == nil {
		return false
	}
	_, ok := s[string(path)]
	return ok
}

// sensitiveCty writes the sensitive_values shape of v: true where
// sensitive, false for other leaves and nulls, arrays keeping every
// element, objects and maps keeping only keys that are not false. It
// reports whether it wrote a plain false.
func sensitiveCty(buf *bytes.Buffer, v cty.Value, path []byte, sens pathSet) bool {
	if sens.has(path) {
		buf.WriteString("true")
		return false
	}
	ty := v.Type()
	if v.IsNull() || !v.IsKnown() || ty.IsPrimitiveType() || ty == cty.DynamicPseudoType {
		buf.WriteString("false")
		return true
	}
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		buf.WriteByte('[')
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, ev := it.Element()
			if i > 0 {
				buf.WriteByte(',')
			}
			sensitiveCty(buf, ev, appendIndexStep(path, i), sens)
		}
		buf.WriteByte(']')
		return false
	case ty.IsMapType() || ty.IsObjectType():
		buf.WriteByte('{')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			mark := buf.Len()
			if !first {
				buf.WriteByte(',')
			}
			writeString(buf, k.AsString())
			buf.WriteByte(':')
			if sensitiveCty(buf, ev, appendNameStep(path, k.AsString()), sens) {
				buf.Truncate(mark)
				continue
			}
			first = false
		}
		buf.WriteByte('}')
		return false
	}
	buf.WriteString("false")
	return true
}

// sensitiveJSON is sensitiveCty over schema-less decoded JSON.
func sensitiveJSON(buf *bytes.Buffer, v any, path []byte, sens pathSet) bool {
	if sens.has(path) {
		buf.WriteString("true")
		return false
	}
	switch v := v.(type) {
	case []any:
		buf.WriteByte('[')
		for i, ev := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			sensitiveJSON(buf, ev, appendIndexStep(path, i), sens)
		}
		buf.WriteByte(']')
		return false
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf.WriteByte('{')
		first := true
		for _, k := range keys {
			mark := buf.Len()
			if !first {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			if sensitiveJSON(buf, v[k], appendNameStep(path, k), sens) {
				buf.Truncate(mark)
				continue
			}
			first = false
		}
		buf.WriteByte('}')
		return false
	case nil, bool, string, json.Number:
	}
	buf.WriteString("false")
	return true
}
