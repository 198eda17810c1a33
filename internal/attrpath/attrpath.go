package attrpath

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// MapKey is a step of the step list written as a string index
// (tags["Name"]): a map key, never an attribute. A plain string step is an
// attribute name, or a key when it meets a map. In a cty.Path it is an
// IndexStep with a string key.
type MapKey string

// Steps returns p as the planning rules' step list: an attribute name is
// a string, a string key a MapKey, a number key an int (truncated). Steps
// with no place in the list (unknown or null keys, set elements) are left
// out: the rules can address neither.
func Steps(p cty.Path) []any {
	out := make([]any, 0, len(p))
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			out = append(out, s.Name)
		case cty.IndexStep:
			k := s.Key
			if !k.IsKnown() || k.IsNull() {
				continue
			}
			switch k.Type() {
			case cty.String:
				out = append(out, MapKey(k.AsString()))
			case cty.Number:
				i, _ := k.AsBigFloat().Int64()
				out = append(out, int(i))
			}
		}
	}
	return out
}

// FromSteps reads a step list as Steps writes it: a string is an
// attribute step, a MapKey a string key, an int a number key.
func FromSteps(steps []any) (cty.Path, error) {
	out := make(cty.Path, 0, len(steps))
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			out = append(out, cty.GetAttrStep{Name: s})
		case MapKey:
			out = append(out, cty.IndexStep{Key: cty.StringVal(string(s))})
		case int:
			out = append(out, cty.IndexStep{Key: cty.NumberIntVal(int64(s))})
		default:
			return nil, fmt.Errorf("path step %v (%T) is neither a name, an index nor a key", s, s)
		}
	}
	return out, nil
}

// KeysAsNames returns p with every string key written as an attribute
// name and the steps Steps leaves out dropped: the form the decide stage
// has always shown requires_replace paths in ("string (attribute or map
// key) or int"), which is part of the rules' contract. p itself is
// returned when it is already in that form, so the common path costs
// nothing.
func KeysAsNames(p cty.Path) cty.Path {
	i := 0
	for ; i < len(p); i++ {
		if ix, ok := p[i].(cty.IndexStep); ok && !isNumberKey(ix.Key) {
			break
		}
	}
	if i == len(p) {
		return p
	}
	out := make(cty.Path, i, len(p))
	copy(out, p[:i])
	for _, s := range p[i:] {
		ix, ok := s.(cty.IndexStep)
		switch {
		case !ok || isNumberKey(ix.Key):
			out = append(out, s)
		case ix.Key.IsKnown() && !ix.Key.IsNull() && ix.Key.Type() == cty.String:
			out = append(out, cty.GetAttrStep{Name: ix.Key.AsString()})
		}
	}
	return out
}

func isNumberKey(k cty.Value) bool {
	return k.IsKnown() && !k.IsNull() && k.Type() == cty.Number
}

// FromTraversal returns the path of t's leading attribute and index steps
// (a root name counts as an attribute) and how many steps of t it took:
// it stops at any other step (a splat) and at an index whose key is
// unknown or null, which names no place. Index keys are kept as written.
func FromTraversal(t hcl.Traversal) (cty.Path, int) {
	p := make(cty.Path, 0, len(t))
	for _, s := range t {
		switch s := s.(type) {
		case hcl.TraverseRoot:
			p = append(p, cty.GetAttrStep{Name: s.Name})
		case hcl.TraverseAttr:
			p = append(p, cty.GetAttrStep{Name: s.Name})
		case hcl.TraverseIndex:
			if !s.Key.IsKnown() || s.Key.IsNull() {
				return p, len(p)
			}
			p = append(p, cty.IndexStep{Key: s.Key})
		default:
			return p, len(p)
		}
	}
	return p, len(p)
}

// String renders p as HCL writes it: tags["a"], list[0], a.b. A first
// attribute has no dot; an attribute name that is not an identifier is
// written as a string index, as HCL would have to. An unknown or null
// key is [?], a set element [...]: neither has a key worth showing.
func String(p cty.Path) string {
	b := make([]byte, 0, 16*len(p))
	for i, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			switch {
			case i == 0:
				b = append(b, s.Name...)
			case isIdentifier(s.Name):
				b = append(b, '.')
				b = append(b, s.Name...)
			default:
				b = append(b, '[')
				b = strconv.AppendQuote(b, s.Name)
				b = append(b, ']')
			}
		case cty.IndexStep:
			b = append(b, '[')
			switch k := s.Key; {
			case !k.IsKnown() || k.IsNull():
				b = append(b, '?')
			case k.Type() == cty.String:
				b = strconv.AppendQuote(b, k.AsString())
			case k.Type() == cty.Number:
				b = appendNumber(b, k.AsBigFloat())
			default:
				b = append(b, "..."...)
			}
			b = append(b, ']')
		}
	}
	return string(b)
}

// ID is p's identity, for de-duplicating and ordering paths: equal paths
// (cty.Path.Equals, for known keys) give equal IDs and different paths
// different ones, an attribute "a" never meeting a key "a" nor one
// attribute "a.b" the two attributes a and b. For identifier names and
// integer or plain string keys it sorts as .name, ["key"] and [0] do.
func ID(p cty.Path) string {
	b := make([]byte, 0, 16*len(p))
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			b = append(b, '.')
			if isIdentifier(s.Name) {
				b = append(b, s.Name...)
			} else {
				b = strconv.AppendQuote(b, s.Name)
			}
		case cty.IndexStep:
			b = append(b, '[')
			switch k := s.Key; {
			case k.IsKnown() && !k.IsNull() && !k.IsMarked() && k.Type() == cty.String:
				b = strconv.AppendQuote(b, k.AsString())
			case k.IsKnown() && !k.IsNull() && !k.IsMarked() && k.Type() == cty.Number:
				b = appendNumber(b, k.AsBigFloat())
			default:
				// Any other key (a set element, unknown, null) by its Go
				// syntax, which starts with a letter: it never meets a
				// quoted string or a number.
				b = append(b, k.GoString()...)
			}
			b = append(b, ']')
		}
	}
	return string(b)
}

// appendNumber writes a number in decimal, without an exponent, as the
// messages that name paths always have.
func appendNumber(b []byte, f *big.Float) []byte {
	if f.IsInt() {
		if i, acc := f.Int64(); acc == big.Exact {
			return strconv.AppendInt(b, i, 10)
		}
	}
	return f.Append(b, 'f', -1)
}

// isIdentifier reports whether s can follow a dot in a traversal: a letter
// or underscore, then letters, digits, underscores and dashes (ASCII is
// all attribute names use; running the HCL lexer here was costly at scale).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case i > 0 && (c == '-' || (c >= '0' && c <= '9')):
		default:
			return false
		}
	}
	return true
}
