package statefile

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/tenetplan/tenet/internal/jsontext"
)

// clipLimit bounds how much of a state file's content a message repeats:
// a hostile or broken file must not fill the terminal (a 50 MB "serial"
// once was echoed whole).
const clipLimit = 64

// clip shortens input for a message, saying how long it really was.
func clip(s string) string {
	if len(s) <= clipLimit {
		return s
	}
	return fmt.Sprintf("%s… (%d bytes)", strings.ToValidUTF8(s[:clipLimit], ""), len(s))
}

// typeWords says what a value of the Go type t is in a state file's
// terms, for "must be ..." messages that would otherwise name Go types.
func typeWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "a list"
	case reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf("a whole number from 0 to %d", uint64(math.MaxUint64)>>(64-t.Bits()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a different kind of value"
}

// maxExponent bounds the decimal exponent of numbers tenet reads. A
// number such as 9007199E54740993 is a few bytes in the file but 54
// million digits once written out again, which stalls any write of the
// state for minutes; such files are rejected on read instead. Numbers
// up to 1e20000 cover every value a provider can mean.
const maxExponent = 20000

// hugeExponent reports whether the JSON number num has an exponent
// beyond maxExponent either way.
func hugeExponent(num []byte) bool {
	e := -1
	for i, c := range num {
		if c == 'e' || c == 'E' {
			e = i + 1
			break
		}
	}
	if e < 0 || e >= len(num) {
		return false
	}
	if num[e] == '+' || num[e] == '-' {
		e++
	}
	for e < len(num)-1 && num[e] == '0' {
		e++
	}
	digits := num[e:]
	if len(digits) > 5 {
		return true
	}
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	return n > maxExponent
}

// findHugeNumber returns the first number in the JSON value raw whose
// exponent is beyond maxExponent, or "" when there is none. raw must be
// valid JSON.
func findHugeNumber(raw []byte) string {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			// Skip the string, minding escapes.
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
		case c == '-' || '0' <= c && c <= '9':
			end := jsontext.NumberEnd(raw, i)
			if end < 0 {
				return ""
			}
			if hugeExponent(raw[i:end]) {
				return string(raw[i:end])
			}
			i = end - 1
		}
	}
	return ""
}

// hugeNumberError says why a value with a huge number is refused.
func hugeNumberError(num string) error {
	return fmt.Errorf("the number %s is too large or too small for tenet to write back (its exponent is beyond ±%d); correct the value in the state file, or remove the object from the state", clip(num), maxExponent)
}
