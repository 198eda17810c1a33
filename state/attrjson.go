package state

import (
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/internal/jsontext"
)

// UnmarshalAttrs decodes a state object's attribute JSON (AttrsJSON) as
// ty. It gives exactly what ctyjson.Unmarshal gives, several times faster
// (BenchmarkAttrCodecs in attr_bench_test.go): go-cty's decoder
// re-tokenises every nested value with encoding/json. Anything the fast
// path is not sure about (type mismatches, odd encodings, errors) goes to
// ctyjson.Unmarshal, so errors read the same.
func UnmarshalAttrs(buf []byte, ty cty.Type) (cty.Value, error) {
	d := fastDecoder{Scanner: jsontext.Scanner[[]byte]{Src: buf}}
	d.skipSpace()
	v, ok := d.value(ty)
	if ok {
		d.skipSpace()
		ok = d.pos == len(buf)
	}
	if !ok {
		return ctyjson.Unmarshal(buf, ty)
	}
	return v, nil
}

// fastDecoder is a recursive-descent JSON reader that builds cty values
// for a known type, at pos over the shared lexer. Its methods return
// ok=false instead of errors.
type fastDecoder struct {
	jsontext.Scanner[[]byte]
	pos int
}

func (d *fastDecoder) skipSpace() { d.pos = d.Space(d.pos) }

func (d *fastDecoder) peek() byte {
	if d.pos < len(d.Src) {
		return d.Src[d.pos]
	}
	return 0
}

// literal consumes s if it comes next.
func (d *fastDecoder) literal(s string) bool {
	end := d.Literal(d.pos, s)
	if end < 0 {
		return false
	}
	d.pos = end
	return true
}

func (d *fastDecoder) value(ty cty.Type) (cty.Value, bool) {
	if d.literal("null") {
		return cty.NullVal(ty), true
	}
	switch {
	case ty == cty.DynamicPseudoType:
		return d.dynamic()
	case ty == cty.String:
		if d.peek() != '"' {
			return cty.NilVal, false
		}
		s, ok := d.str()
		return cty.StringVal(s), ok
	case ty == cty.Number:
		c := d.peek()
		if c != '-' && (c < '0' || c > '9') {
			return cty.NilVal, false
		}
		tok := d.number()
		if tok == "" {
			return cty.NilVal, false
		}
		v, err := cty.ParseNumberVal(tok)
		return v, err == nil
	case ty == cty.Bool:
		if d.literal("true") {
			return cty.True, true
		}
		if d.literal("false") {
			return cty.False, true
		}
		return cty.NilVal, false
	case ty.IsObjectType():
		return d.object(ty)
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		return d.sequence(ty)
	case ty.IsMapType():
		return d.mapping(ty.ElementType())
	}
	return cty.NilVal, false
}

// str reads a JSON string: plain content is taken as is, escapes and
// non-ASCII are decoded as encoding/json decodes them.
func (d *fastDecoder) str() (string, bool) {
	s, end, _ := d.StringValue(d.pos, nil)
	if end < 0 {
		return "", false
	}
	d.pos = end
	return s, true
}

// number reads the text of a JSON number, or "" when there is none.
func (d *fastDecoder) number() string {
	end := d.Number(d.pos)
	if end < 0 {
		return ""
	}
	start := d.pos
	d.pos = end
	return string(d.Src[start:end])
}

// members reads an object's members, calling member for each key with the
// decoder positioned at the value.
func (d *fastDecoder) members(member func(key string) bool) bool {
	if d.peek() != '{' {
		return false
	}
	d.pos++
	d.skipSpace()
	if d.peek() == '}' {
		d.pos++
		return true
	}
	for {
		d.skipSpace()
		if d.peek() != '"' {
			return false
		}
		key, ok := d.str()
		if !ok {
			return false
		}
		d.skipSpace()
		if d.peek() != ':' {
			return false
		}
		d.pos++
		d.skipSpace()
		if !member(key) {
			return false
		}
		d.skipSpace()
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return true
		default:
			return false
		}
	}
}

// elements reads an array, calling elem with the index of each element.
func (d *fastDecoder) elements(elem func(i int) bool) bool {
	if d.peek() != '[' {
		return false
	}
	d.pos++
	d.skipSpace()
	if d.peek() == ']' {
		d.pos++
		return true
	}
	for i := 0; ; i++ {
		d.skipSpace()
		if !elem(i) {
			return false
		}
		d.skipSpace()
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return true
		default:
			return false
		}
	}
}

func (d *fastDecoder) object(ty cty.Type) (cty.Value, bool) {
	atys := ty.AttributeTypes()
	vals := make(map[string]cty.Value, len(atys))
	ok := d.members(func(key string) bool {
		aty, known := atys[key]
		if !known {
			return false
		}
		v, ok := d.value(aty)
		vals[key] = v
		return ok
	})
	if !ok {
		return cty.NilVal, false
	}
	for k, aty := range atys {
		if _, ok := vals[k]; !ok {
			vals[k] = cty.NullVal(aty)
		}
	}
	if len(vals) == 0 {
		return cty.EmptyObjectVal, true
	}
	return cty.ObjectVal(vals), true
}

func (d *fastDecoder) sequence(ty cty.Type) (cty.Value, bool) {
	var etys []cty.Type
	var ety cty.Type
	isTuple := ty.IsTupleType()
	if isTuple {
		etys = ty.TupleElementTypes()
	} else {
		ety = ty.ElementType()
	}
	var vals []cty.Value
	ok := d.elements(func(i int) bool {
		et := ety
		if isTuple {
			if i >= len(etys) {
				return false
			}
			et = etys[i]
		}
		v, ok := d.value(et)
		vals = append(vals, v)
		return ok
	})
	if !ok {
		return cty.NilVal, false
	}
	switch {
	case isTuple:
		if len(vals) != len(etys) {
			return cty.NilVal, false
		}
		if len(vals) == 0 {
			return cty.EmptyTupleVal, true
		}
		return cty.TupleVal(vals), true
	case ty.IsListType():
		if len(vals) == 0 {
			return cty.ListValEmpty(ety), true
		}
		return cty.ListVal(vals), true
	default:
		if len(vals) == 0 {
			return cty.SetValEmpty(ety), true
		}
		return cty.SetVal(vals), true
	}
}

func (d *fastDecoder) mapping(ety cty.Type) (cty.Value, bool) {
	vals := map[string]cty.Value{}
	ok := d.members(func(key string) bool {
		v, ok := d.value(ety)
		vals[key] = v
		return ok
	})
	if !ok {
		return cty.NilVal, false
	}
	if len(vals) == 0 {
		return cty.MapValEmpty(ety), true
	}
	return cty.MapVal(vals), true
}

// dynamic reads the {"value": ..., "type": ...} form of a value whose type
// the schema leaves open.
func (d *fastDecoder) dynamic() (cty.Value, bool) {
	var ty cty.Type
	valStart, valEnd := -1, -1
	ok := d.members(func(key string) bool {
		switch key {
		case "type":
			start := d.pos
			if !d.skipValue() {
				return false
			}
			t, ok := typeFromJSON(d.Src[start:d.pos])
			ty = t
			return ok
		case "value":
			valStart = d.pos
			if !d.skipValue() {
				return false
			}
			valEnd = d.pos
			return true
		}
		return false
	})
	if !ok || ty == cty.NilType || valStart < 0 {
		return cty.NilVal, false
	}
	sub := fastDecoder{Scanner: jsontext.Scanner[[]byte]{Src: d.Src[:valEnd]}, pos: valStart}
	return sub.value(ty)
}

// skipValue moves past one JSON value of any kind.
func (d *fastDecoder) skipValue() bool {
	end := d.Value(d.pos, 0)
	if end < 0 {
		return false
	}
	d.pos = end
	return true
}

// typeCache remembers decoded type descriptors: the same few ("string",
// ["list","string"], ...) repeat for every instance of a resource. It
// stops growing at typeCacheMax entries.
var typeCache struct {
	sync.RWMutex
	m map[string]cty.Type
}

const typeCacheMax = 4096

func typeFromJSON(raw []byte) (cty.Type, bool) {
	typeCache.RLock()
	t, ok := typeCache.m[string(raw)]
	typeCache.RUnlock()
	if ok {
		return t, true
	}
	t, err := ctyjson.UnmarshalType(raw)
	if err != nil {
		return cty.NilType, false
	}
	typeCache.Lock()
	if typeCache.m == nil {
		typeCache.m = map[string]cty.Type{}
	}
	if len(typeCache.m) < typeCacheMax {
		typeCache.m[string(raw)] = t
	}
	typeCache.Unlock()
	return t, true
}
