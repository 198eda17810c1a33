package planjson

import (
	"github.com/zclconf/go-cty/cty"
)

// This file turns cty values into the three JSON trees of the plan format:
// the value with its unknown parts left out, the tree saying where the
// unknowns were, and the tree saying what is sensitive. Values are expected
// unmarked (sensitivity travels as paths), but marks are tolerated: a
// marked value counts as sensitive and is unmarked before it is read.

// AppendValue appends v as JSON with its unknown parts left out:
// unknown object attributes and map elements are omitted, unknown sequence
// elements become null (positions matter), and a wholly unknown v is null.
// Sequences (list, set, tuple) become arrays, maps and objects become
// objects, so the output has no type information.
func AppendValue(b []byte, v cty.Value) []byte {
	if v.IsMarked() {
		v, _ = v.Unmark()
	}
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
		return append(b, "null"...)
	}
	ty := v.Type()
	switch {
	case ty.Equals(cty.String):
		return appendString(b, v.AsString())
	case ty.Equals(cty.Number):
		return appendNumber(b, v)
	case ty.Equals(cty.Bool):
		return appendBool(b, v.True())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		b = append(b, '[')
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			b = appendComma(b)
			b = AppendValue(b, ev)
		}
		return append(b, ']')
	case ty.IsMapType() || ty.IsObjectType():
		b = append(b, '{')
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if !ev.IsKnown() {
				continue
			}
			b = appendKey(b, k.AsString())
			b = AppendValue(b, ev)
		}
		return append(b, '}')
	}
	// Capsule types have no JSON form in plans.
	return append(b, "null"...)
}

func appendNumber(b []byte, v cty.Value) []byte {
	bf := v.AsBigFloat()
	if bf.IsInt() {
		if i, acc := bf.Int64(); acc == 0 {
			return appendInt(b, i)
		}
	}
	return bf.Append(b, 'f', -1)
}

func appendInt(b []byte, i int64) []byte {
	if i < 0 {
		return appendUint(append(b, '-'), uint64(-i))
	}
	return appendUint(b, uint64(i))
}

// AppendUnknown appends the after_unknown tree of v: true where v is
// unknown (a wholly unknown collection is just true), false for known
// primitives and nulls, an array per sequence and an object per map or
// object listing only the members whose tree is not false. Empty
// collections give [] or {}. Callers wanting the plan's "{} when wholly
// known" rule check v.IsWhollyKnown() first.
func AppendUnknown(b []byte, v cty.Value) []byte {
	if v.IsMarked() {
		v, _ = v.Unmark()
	}
	if v == cty.NilVal || v.IsNull() {
		return append(b, "false"...)
	}
	if !v.IsKnown() {
		return append(b, "true"...)
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		b = append(b, '[')
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			b = appendComma(b)
			b = AppendUnknown(b, ev)
		}
		return append(b, ']')
	case ty.IsMapType() || ty.IsObjectType():
		b = append(b, '{')
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			mark := len(b)
			b = appendKey(b, k.AsString())
			valStart := len(b)
			b = AppendUnknown(b, ev)
			if string(b[valStart:]) == "false" {
				b = b[:mark]
			}
		}
		return append(b, '}')
	}
	return append(b, "false"...)
}

// AppendSensitive appends the *_sensitive tree of v given the paths
// that are sensitive: true at a sensitive value, false for other nulls and
// primitives, an array per sequence (false entries kept; [] when the
// sequence is unknown), an object per map or object listing only members
// whose tree is not false ({} when unknown).
func AppendSensitive(b []byte, v cty.Value, paths []cty.Path) []byte {
	return appendSensitive(b, v, newPathTrie(paths))
}

func appendSensitive(b []byte, v cty.Value, node *pathTrie) []byte {
	if node != nil && node.sensitive {
		return append(b, "true"...)
	}
	if v.IsMarked() {
		// Marks other than sensitivity do not reach plans, so any mark counts.
		return append(b, "true"...)
	}
	if v == cty.NilVal || v.IsNull() {
		return append(b, "false"...)
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		if !v.IsKnown() || v.LengthInt() == 0 {
			return append(b, '[', ']')
		}
		b = append(b, '[')
		isSet := ty.IsSetType()
		i := int64(0)
		for it := v.ElementIterator(); it.Next(); i++ {
			_, ev := it.Element()
			var child *pathTrie
			if !isSet {
				child = node.index(i)
			}
			b = appendComma(b)
			b = appendSensitive(b, ev, child)
		}
		return append(b, ']')
	case ty.IsMapType() || ty.IsObjectType():
		if !v.IsKnown() {
			return append(b, '{', '}')
		}
		b = append(b, '{')
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			name := k.AsString()
			mark := len(b)
			b = appendKey(b, name)
			valStart := len(b)
			b = appendSensitive(b, ev, node.attr(name))
			if string(b[valStart:]) == "false" {
				b = b[:mark]
			}
		}
		return append(b, '}')
	}
	return append(b, "false"...)
}

// pathTrie indexes sensitive paths by their steps. Attribute names and
// string keys share one namespace, since stored paths use either step for
// object attributes.
type pathTrie struct {
	sensitive bool
	names     map[string]*pathTrie
	indexes   map[int64]*pathTrie
}

func newPathTrie(paths []cty.Path) *pathTrie {
	if len(paths) == 0 {
		return nil
	}
	root := &pathTrie{}
	for _, p := range paths {
		n := root
		for _, step := range p {
			if n = n.child(step); n == nil {
				break
			}
		}
		if n != nil {
			n.sensitive = true
		}
	}
	return root
}

// child returns (creating) the node for step, or nil for steps that cannot
// address anything in a plan tree (set elements, non-integer keys).
func (n *pathTrie) child(step cty.PathStep) *pathTrie {
	switch s := step.(type) {
	case cty.GetAttrStep:
		return n.named(s.Name)
	case cty.IndexStep:
		k := s.Key
		if k.IsMarked() {
			k, _ = k.Unmark()
		}
		if !k.IsKnown() || k.IsNull() {
			return nil
		}
		switch {
		case k.Type().Equals(cty.String):
			return n.named(k.AsString())
		case k.Type().Equals(cty.Number):
			i, acc := k.AsBigFloat().Int64()
			if acc != 0 {
				return nil
			}
			if n.indexes == nil {
				n.indexes = map[int64]*pathTrie{}
			}
			c := n.indexes[i]
			if c == nil {
				c = &pathTrie{}
				n.indexes[i] = c
			}
			return c
		}
	}
	return nil
}

func (n *pathTrie) named(name string) *pathTrie {
	if n.names == nil {
		n.names = map[string]*pathTrie{}
	}
	c := n.names[name]
	if c == nil {
		c = &pathTrie{}
		n.names[name] = c
	}
	return c
}

func (n *pathTrie) attr(name string) *pathTrie {
	if n == nil {
		return nil
	}
	return n.names[name]
}

func (n *pathTrie) index(i int64) *pathTrie {
	if n == nil {
		return nil
	}
	return n.indexes[i]
}

// appendPath appends a path as the plan's step array: attribute names and
// string keys as strings, numeric keys as numbers. Other keys (set
// elements) are written as their JSON value.
func appendPath(b []byte, p cty.Path) []byte {
	b = append(b, '[')
	for _, step := range p {
		b = appendComma(b)
		switch s := step.(type) {
		case cty.GetAttrStep:
			b = appendString(b, s.Name)
		case cty.IndexStep:
			b = AppendValue(b, s.Key)
		}
	}
	return append(b, ']')
}
