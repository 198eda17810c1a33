package rules

import (
	"encoding/json"
	"math/big"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/attrpath"
)

// valueBuilder converts cty values to terms for one chunk of instances.
// Converting values is most of what team rules cost, so it avoids what
// cty's element iterator allocates for objects (a sorted name list and a
// normalised string value per attribute) and shares one term per attribute
// name or map key within the chunk, whose values mostly have the same names.
type valueBuilder struct {
	isSensitive func(mark any) bool
	names       map[string]*ast.Term
	// items is scratch space for the items of the objects being built, a
	// stack shared by nested objects: ast.NewObject copies its items.
	items [][2]*ast.Term
	// lastOrphan is the term of lastOrphanFacts (see orphan).
	lastOrphan      *ast.Term
	lastOrphanFacts Orphan
}

func (e *Engine) newValueBuilder() *valueBuilder {
	return &valueBuilder{isSensitive: e.isSensitive, names: map[string]*ast.Term{}}
}

// name returns the shared term of an attribute name or map key.
func (b *valueBuilder) name(s string) *ast.Term {
	if b.names == nil {
		return ast.StringTerm(s)
	}
	t, ok := b.names[s]
	if !ok {
		t = ast.StringTerm(s)
		b.names[s] = t
	}
	return t
}

// object builds an object from the items stacked since from, and pops them.
func (b *valueBuilder) object(from int) *ast.Term {
	t := ast.ObjectTerm(b.items[from:]...)
	b.items = b.items[:from]
	return t
}

// str returns a term for a string value, shared within the chunk when it
// is short: short values (tags, flags, names of things) often repeat.
func (b *valueBuilder) str(s string) *ast.Term {
	if len(s) > 64 {
		return ast.StringTerm(s)
	}
	return b.name(s)
}

// attrSet names the top-level attributes of a value that rules can read;
// nil stands for all of them.
type attrSet map[string]bool

func (a attrSet) has(name string) bool { return a == nil || a[name] }

// sameAs reports whether a and b name the same attributes.
func (a attrSet) sameAs(b attrSet) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for name := range a {
		if !b[name] {
			return false
		}
	}
	return true
}

// value presents a cty value JSON-plan style:
//
//	{"values": <known parts>, "unknown": <true at unknown leaves>, "sensitive": <true at sensitive leaves>}
//
// Unknown object attributes and map elements are omitted from values (unknown
// list elements become null, keeping positions). The unknown and sensitive
// trees hold objects for objects and maps, listing only the attributes that
// contain an unknown (or sensitive) value, and arrays for lists, sets and
// tuples; a wholly unknown (sensitive) value is true and a value without any
// is false ({} at the top of an object). cty.NilVal is null.
//
// Only the top-level attributes in attrs are presented (all when nil), in
// values and in both trees. marked reports whether v carries marks.
//
// like, when not nil, is a value presented before (the configuration for a
// prior object, the prior object for a planned one): a top-level attribute
// equal to like's shares its term, which saves converting what did not
// change.
func (b *valueBuilder) value(v cty.Value, attrs attrSet, like *presented) (t *ast.Term, marked bool) {
	if v == cty.NilVal {
		return ast.InternedNullTerm, false
	}
	// Most values are wholly known and unmarked: one walk converts them.
	if t, ok := b.plainTop(v, attrs, like); ok {
		none := ast.InternedTerm(false)
		if isObjectLike(v.Type()) {
			none = emptyObject
		}
		return ast.ObjectTerm(ast.Item(keyValues, t), ast.Item(keyUnknown, none), ast.Item(keySensitive, none)), false
	}
	var sensitive *ast.Term
	if v.ContainsMarked() {
		marked = true
		var pvm []cty.PathValueMarks
		v, pvm = v.UnmarkDeepWithPaths()
		sensitive = b.sensitiveTree(v, pvm, attrs)
	}
	unknown := ast.InternedTerm(false)
	if !v.IsWhollyKnown() {
		unknown = markTree(v, attrs, func(v cty.Value) bool { return !v.IsKnown() }, func(v cty.Value) bool { return v.IsWhollyKnown() })
	}
	if isObjectLike(v.Type()) {
		if unknown.Equal(ast.InternedTerm(false)) {
			unknown = emptyObject
		}
		if sensitive == nil || sensitive.Equal(ast.InternedTerm(false)) {
			sensitive = emptyObject
		}
	}
	if sensitive == nil {
		sensitive = ast.InternedTerm(false)
	}
	return ast.ObjectTerm(
		ast.Item(keyValues, b.known(v, attrs)),
		ast.Item(keyUnknown, unknown),
		ast.Item(keySensitive, sensitive),
	), marked
}

func isObjectLike(ty cty.Type) bool { return ty.IsObjectType() || ty.IsMapType() }

// presented is a value with the values object of its presentation.
type presented struct {
	v      cty.Value
	values ast.Object
}

// presentedAs pairs a value with the term value returned for it.
func presentedAs(v cty.Value, t *ast.Term) *presented {
	if t == nil || !v.Type().IsObjectType() || !v.IsKnown() || v.IsNull() {
		return nil
	}
	wrapper, ok := t.Value.(ast.Object)
	if !ok {
		return nil
	}
	values, ok := valueAt(wrapper, keyValues).(ast.Object)
	if !ok {
		return nil
	}
	return &presented{v: v, values: values}
}

// plainTop is plain for a top-level value, sharing the terms of attributes
// equal to like's.
func (b *valueBuilder) plainTop(v cty.Value, attrs attrSet, like *presented) (*ast.Term, bool) {
	ty := v.Type()
	if like == nil || !ty.IsObjectType() || v.IsMarked() || !v.IsKnown() || v.IsNull() {
		return b.plain(v, attrs)
	}
	likeTy := like.v.Type()
	from := len(b.items)
	for name := range ty.AttributeTypes() {
		if !attrs.has(name) {
			continue
		}
		av := v.GetAttr(name)
		if likeTy.HasAttribute(name) {
			if t := like.values.Get(b.name(name)); t != nil && sameValue(av, like.v.GetAttr(name)) {
				b.items = append(b.items, ast.Item(b.name(name), t))
				continue
			}
		}
		t, ok := b.plain(av, nil)
		if !ok {
			b.items = b.items[:from]
			return nil, false
		}
		b.items = append(b.items, ast.Item(b.name(name), t))
	}
	return b.object(from), true
}

// presentsAlike reports whether b is presented exactly as a is when only
// the top-level attributes in attrs are shown: a's term then stands for
// b's. Only for a restricted set of attributes (a configuration and its
// prior object differ in their computed attributes).
func presentsAlike(a, b cty.Value, attrs attrSet) bool {
	if attrs == nil || a.IsMarked() || b.IsMarked() || !a.IsKnown() || !b.IsKnown() || a.IsNull() || b.IsNull() {
		return false
	}
	ta, tb := a.Type(), b.Type()
	if !ta.IsObjectType() || !tb.IsObjectType() {
		return false
	}
	for name := range attrs {
		ha, hb := ta.HasAttribute(name), tb.HasAttribute(name)
		if ha != hb || (ha && !sameValue(a.GetAttr(name), b.GetAttr(name))) {
			return false
		}
	}
	return true
}

// sameValue reports whether a and b are wholly known, unmarked and
// presented alike, so that one's term can stand for the other's. It is
// cheaper than converting either, and much cheaper than RawEquals, which
// compares types deeply.
func sameValue(a, b cty.Value) bool {
	if a.IsMarked() || b.IsMarked() || !a.IsKnown() || !b.IsKnown() {
		return false
	}
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	ta, tb := a.Type(), b.Type()
	switch {
	case ta == cty.String:
		return tb == cty.String && a.AsString() == b.AsString()
	case ta == cty.Bool:
		return tb == cty.Bool && a.True() == b.True()
	case ta == cty.Number:
		return tb == cty.Number && a.RawEquals(b)
	case ta.IsObjectType():
		if !tb.IsObjectType() {
			return false
		}
		aa, ab := ta.AttributeTypes(), tb.AttributeTypes()
		if len(aa) != len(ab) {
			return false
		}
		for name := range aa {
			if _, ok := ab[name]; !ok || !sameValue(a.GetAttr(name), b.GetAttr(name)) {
				return false
			}
		}
		return true
	case ta.IsMapType() && tb.IsMapType(),
		ta.IsListType() && tb.IsListType(),
		ta.IsSetType() && tb.IsSetType(),
		ta.IsTupleType() && tb.IsTupleType():
		if a.LengthInt() != b.LengthInt() {
			return false
		}
		ia, ib := a.ElementIterator(), b.ElementIterator()
		for ia.Next() && ib.Next() {
			ka, ea := ia.Element()
			kb, eb := ib.Element()
			if ta.IsMapType() && ka.AsString() != kb.AsString() {
				return false
			}
			if !sameValue(ea, eb) {
				return false
			}
		}
		return true
	default:
		return false
	}
}

// plain converts a value that has no unknown and no marked part, and
// reports false as soon as it meets one (value then takes the general path).
func (b *valueBuilder) plain(v cty.Value, attrs attrSet) (*ast.Term, bool) {
	if v.IsMarked() || !v.IsKnown() {
		return nil, false
	}
	if v.IsNull() {
		return ast.InternedNullTerm, true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return b.str(v.AsString()), true
	case ty == cty.Bool:
		return ast.InternedTerm(v.True()), true
	case ty == cty.Number:
		return numberTerm(v.AsBigFloat()), true
	case ty.IsObjectType():
		from := len(b.items)
		for name := range ty.AttributeTypes() {
			if !attrs.has(name) {
				continue
			}
			t, ok := b.plain(v.GetAttr(name), nil)
			if !ok {
				b.items = b.items[:from]
				return nil, false
			}
			b.items = append(b.items, ast.Item(b.name(name), t))
		}
		return b.object(from), true
	case ty.IsMapType():
		from := len(b.items)
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			t, ok := b.plain(ev, nil)
			if !ok {
				b.items = b.items[:from]
				return nil, false
			}
			b.items = append(b.items, ast.Item(b.name(k.AsString()), t))
		}
		return b.object(from), true
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := make([]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			t, ok := b.plain(ev, nil)
			if !ok {
				return nil, false
			}
			elems = append(elems, t)
		}
		return ast.ArrayTerm(elems...), true
	default: // capsules have no JSON form
		return ast.InternedNullTerm, true
	}
}

// ctyValueTerm converts the known parts of an unmarked value.
func ctyValueTerm(v cty.Value) *ast.Term {
	var b valueBuilder
	return b.known(v, nil)
}

// known converts the known parts of an unmarked value.
func (b *valueBuilder) known(v cty.Value, attrs attrSet) *ast.Term {
	if !v.IsKnown() || v.IsNull() {
		return ast.InternedNullTerm
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return b.str(v.AsString())
	case ty == cty.Bool:
		return ast.InternedTerm(v.True())
	case ty == cty.Number:
		return numberTerm(v.AsBigFloat())
	case isObjectLike(ty):
		items := make([][2]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if !ev.IsKnown() || (ty.IsObjectType() && !attrs.has(k.AsString())) {
				continue
			}
			items = append(items, ast.Item(b.name(k.AsString()), b.known(ev, nil)))
		}
		return ast.ObjectTerm(items...)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := make([]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			elems = append(elems, b.known(ev, nil))
		}
		return ast.ArrayTerm(elems...)
	default: // capsules have no JSON form
		return ast.InternedNullTerm
	}
}

func numberTerm(f *big.Float) *ast.Term {
	if f.IsInf() {
		return ast.InternedNullTerm
	}
	if f.IsInt() {
		if i, acc := f.Int64(); acc == big.Exact {
			return ast.InternedTerm(int(i))
		}
		return ast.NumberTerm(json.Number(f.Text('f', 0)))
	}
	return ast.NumberTerm(json.Number(f.Text('g', -1)))
}

// markTree builds a tree of true at the values for which leaf holds, pruning
// subtrees for which clean holds; at the top, only attributes in attrs.
func markTree(v cty.Value, attrs attrSet, leaf, clean func(cty.Value) bool) *ast.Term {
	switch {
	case leaf(v):
		return ast.InternedTerm(true)
	case clean(v) || v.IsNull() || !v.IsKnown():
		return ast.InternedTerm(false)
	}
	ty := v.Type()
	switch {
	case isObjectLike(ty):
		var items [][2]*ast.Term
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if ty.IsObjectType() && !attrs.has(k.AsString()) {
				continue
			}
			if sub := markTree(ev, nil, leaf, clean); !sub.Equal(ast.InternedTerm(false)) {
				items = append(items, ast.Item(ast.StringTerm(k.AsString()), sub))
			}
		}
		if len(items) == 0 {
			return ast.InternedTerm(false)
		}
		return ast.ObjectTerm(items...)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := make([]*ast.Term, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			elems = append(elems, markTree(ev, nil, leaf, clean))
		}
		return ast.ArrayTerm(elems...)
	default:
		return ast.InternedTerm(false)
	}
}

// sensitiveTree marks the paths of v that carry a sensitive mark.
func (b *valueBuilder) sensitiveTree(v cty.Value, pvm []cty.PathValueMarks, attrs attrSet) *ast.Term {
	marked := map[string]bool{}
	for _, p := range pvm {
		for m := range p.Marks {
			if b.isSensitive == nil || b.isSensitive(m) {
				marked[attrpath.ID(p.Path)] = true
				break
			}
		}
	}
	if len(marked) == 0 {
		return nil
	}
	return sensitiveAt(v, nil, marked, attrs)
}

func sensitiveAt(v cty.Value, path cty.Path, marked map[string]bool, attrs attrSet) *ast.Term {
	if marked[attrpath.ID(path)] {
		return ast.InternedTerm(true)
	}
	if v.IsNull() || !v.IsKnown() {
		return ast.InternedTerm(false)
	}
	ty := v.Type()
	switch {
	case isObjectLike(ty):
		var items [][2]*ast.Term
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			var step cty.PathStep = cty.GetAttrStep{Name: k.AsString()}
			if ty.IsMapType() {
				step = cty.IndexStep{Key: k}
			} else if !attrs.has(k.AsString()) {
				continue
			}
			if sub := sensitiveAt(ev, append(path, step), marked, nil); !sub.Equal(ast.InternedTerm(false)) {
				items = append(items, ast.Item(ast.StringTerm(k.AsString()), sub))
			}
		}
		if len(items) == 0 {
			return ast.InternedTerm(false)
		}
		return ast.ObjectTerm(items...)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var elems []*ast.Term
		any := false
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			sub := sensitiveAt(ev, append(path, cty.IndexStep{Key: k}), marked, nil)
			any = any || !sub.Equal(ast.InternedTerm(false))
			elems = append(elems, sub)
		}
		if !any {
			return ast.InternedTerm(false)
		}
		return ast.ArrayTerm(elems...)
	default:
		return ast.InternedTerm(false)
	}
}
