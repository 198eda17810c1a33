package addrs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// InstanceKey identifies one instance of a repeated object (count or
// for_each). NoKey (nil) means the object is not repeated.
type InstanceKey interface {
	instanceKeySigil()
	String() string
	// Value is the key as a cty value: a number for IntKey, a string for StringKey.
	Value() cty.Value
}

// NoKey is the key of an object that uses neither count nor for_each.
var NoKey InstanceKey

// IntKey is the key of an instance created by count.
type IntKey int

// StringKey is the key of an instance created by for_each.
type StringKey string

func (IntKey) instanceKeySigil()    {}
func (StringKey) instanceKeySigil() {}

func (k IntKey) String() string { return "[" + strconv.Itoa(int(k)) + "]" }

func (k StringKey) String() string { return "[" + quoteString(string(k)) + "]" }

func (k IntKey) Value() cty.Value    { return cty.NumberIntVal(int64(k)) }
func (k StringKey) Value() cty.Value { return cty.StringVal(string(k)) }

// KeyString renders a key, or "" for NoKey.
func KeyString(k InstanceKey) string {
	if k == nil {
		return ""
	}
	return k.String()
}

// KeyLess orders keys as state files and plans do: no key first, then
// integer keys numerically, then string keys lexically.
func KeyLess(a, b InstanceKey) bool {
	switch a := a.(type) {
	case nil:
		return b != nil
	case IntKey:
		switch b := b.(type) {
		case nil:
			return false
		case IntKey:
			return a < b
		default:
			return true
		}
	case StringKey:
		if b, ok := b.(StringKey); ok {
			return a < b
		}
		return false
	}
	return false
}

// KeyFromValue converts a cty number or string into an instance key.
func KeyFromValue(v cty.Value) (InstanceKey, error) {
	if v.IsNull() || !v.IsKnown() {
		return nil, fmt.Errorf("instance key must be known and not null")
	}
	switch v.Type() {
	case cty.Number:
		bf := v.AsBigFloat()
		i, acc := bf.Int64()
		if acc != 0 {
			return nil, fmt.Errorf("instance key must be a whole number")
		}
		return IntKey(int(i)), nil
	case cty.String:
		return StringKey(v.AsString()), nil
	}
	return nil, fmt.Errorf("instance key must be a number or a string, not %s", v.Type().FriendlyName())
}

// quoteString writes a string literal the way HCL would read it back.
func quoteString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	// "${" and "%{" would start template sequences when read back.
	out := b.String()
	out = strings.ReplaceAll(out, "${", "$${")
	out = strings.ReplaceAll(out, "%{", "%%{")
	return out + `"`
}
