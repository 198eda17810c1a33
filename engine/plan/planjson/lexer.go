package planjson

import (
	"encoding/json"

	"github.com/tenetplan/tenet/internal/jsontext"
)

// docDecoder reads a plan document into Document without reflection.
// It produces exactly what encoding/json (with UseNumber) produces, or
// gives up: anything where the two could differ (a syntax or type error, a
// duplicate field, a key matching a field only case-insensitively, very
// deep nesting) sets bad, and the caller decodes with encoding/json instead,
// which also words the error. It is written by hand because it is much
// faster than encoding/json on large plans (BenchmarkDecode in
// decode_test.go). It lexes with jsontext's Scanner over the document as
// one string, so plain strings are slices of it and reading them allocates
// nothing; the methods below only keep the place (pos) and the depth.
type docDecoder struct {
	jsontext.Scanner[string]
	pos   int
	depth int
	bad   bool
	// workers is how many goroutines may decode long arrays.
	workers int
}

// maxDecodeDepth keeps recursion well inside the stack; encoding/json
// allows more, so deeper documents go to it.
const maxDecodeDepth = 500

func (d *docDecoder) fail() { d.bad = true }

func (d *docDecoder) skipSpace() { d.pos = d.Space(d.pos) }

// peek returns the next non-space byte, 0 at the end.
func (d *docDecoder) peek() byte {
	d.skipSpace()
	if d.pos >= len(d.Src) {
		return 0
	}
	return d.Src[d.pos]
}

// consume skips c (after spaces) when it comes next.
func (d *docDecoder) consume(c byte) bool {
	if d.peek() == c {
		d.pos++
		return true
	}
	return false
}

// literal reads null, true or false at pos.
func (d *docDecoder) literal(word string) bool {
	if end := d.Literal(d.pos, word); end >= 0 {
		d.pos = end
		return true
	}
	d.fail()
	return false
}

// null consumes a null when one comes next.
func (d *docDecoder) null() bool {
	if d.peek() == 'n' {
		return d.literal("null")
	}
	return false
}

// openObject consumes the '{' of an object; members are then read with
// member:
//
//	for first := d.openObject(); ; first = false {
//		key, ok := d.member(first)
//		if !ok {
//			break
//		}
//		// consume the value
//	}
func (d *docDecoder) openObject() bool { return d.open('{') }

// open consumes the bracket that starts an object or an array, one level
// deeper, failing past maxDecodeDepth.
func (d *docDecoder) open(bracket byte) bool {
	if !d.consume(bracket) {
		d.fail()
		return false
	}
	d.depth++
	if d.depth > maxDecodeDepth {
		d.fail()
	}
	return !d.bad
}

// member reads the next key of an object and its colon, leaving pos at the
// value; ok is false at the closing brace and on errors.
func (d *docDecoder) member(first bool) (key string, ok bool) {
	if d.bad {
		return "", false
	}
	if first {
		if d.consume('}') {
			d.depth--
			return "", false
		}
	} else if !d.next('}') {
		d.depth--
		return "", false
	}
	if d.peek() != '"' {
		d.fail()
		return "", false
	}
	key = d.string()
	if !d.consume(':') {
		d.fail()
		return "", false
	}
	d.skipSpace()
	return key, !d.bad
}

// openArray consumes the '[' of an array; elements are then read after
// each true result of element.
func (d *docDecoder) openArray() bool { return d.open('[') }

// element moves to the next element of an array; false at the closing
// bracket and on errors.
func (d *docDecoder) element(first bool) bool {
	if d.bad {
		return false
	}
	if first {
		if d.consume(']') {
			d.depth--
			return false
		}
		d.skipSpace()
		return true
	}
	if d.next(']') {
		return true
	}
	d.depth--
	return false
}

// next steps over the comma (and the space after it) or the closing
// bracket after a member or element; true means a comma.
func (d *docDecoder) next(closing byte) bool {
	next, more := d.Next(d.pos, closing)
	if next < 0 {
		d.fail()
		return false
	}
	d.pos = next
	return more
}

// string reads a JSON string at pos (its opening quote). Escapes,
// invalid UTF-8 bytes and unpaired surrogates are decoded as
// encoding/json does (the last two become U+FFFD).
func (d *docDecoder) string() string {
	s, end, _ := d.StringValue(d.pos, nil)
	if end < 0 {
		d.fail()
		return ""
	}
	d.pos = end
	return s
}

// number reads a JSON number at pos.
func (d *docDecoder) number() json.Number {
	end := d.Number(d.pos)
	if end < 0 {
		d.fail()
		return ""
	}
	n := json.Number(d.Src[d.pos:end])
	d.pos = end
	return n
}

// value reads any JSON value as encoding/json decodes it into an `any`
// with UseNumber.
func (d *docDecoder) value() any {
	switch d.peek() {
	case '{':
		m := map[string]any{}
		for first := d.openObject(); ; first = false {
			key, ok := d.member(first)
			if !ok {
				break
			}
			m[key] = d.value()
		}
		return m
	case '[':
		a := []any{}
		for first := d.openArray(); d.element(first); first = false {
			a = append(a, d.value())
		}
		return a
	case '"':
		return d.string()
	case 't':
		d.literal("true")
		return true
	case 'f':
		d.literal("false")
		return false
	case 'n':
		d.literal("null")
		return nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return d.number()
	}
	d.fail()
	return nil
}

// skip reads past a value the views do not use, checking its syntax.
func (d *docDecoder) skip() {
	switch d.peek() {
	case '{':
		for first := d.openObject(); ; first = false {
			if _, ok := d.member(first); !ok {
				break
			}
			d.skip()
		}
	case '[':
		for first := d.openArray(); d.element(first); first = false {
			d.skip()
		}
	case '"':
		d.string()
	case 't':
		d.literal("true")
	case 'f':
		d.literal("false")
	case 'n':
		d.literal("null")
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		d.number()
	default:
		d.fail()
	}
}

// text reads a string field; null leaves it empty, as encoding/json does.
func (d *docDecoder) text() string {
	switch d.peek() {
	case '"':
		return d.string()
	case 'n':
		d.literal("null")
		return ""
	}
	d.fail()
	return ""
}

func (d *docDecoder) boolean() bool {
	switch d.peek() {
	case 't':
		return d.literal("true")
	case 'f':
		d.literal("false")
		return false
	case 'n':
		d.literal("null")
		return false
	}
	d.fail()
	return false
}

// anySlice reads a []any field: null is nil, [] is empty but not nil.
func (d *docDecoder) anySlice() []any {
	if d.null() {
		return nil
	}
	if d.peek() != '[' {
		d.fail()
		return nil
	}
	v, _ := d.value().([]any)
	return v
}
