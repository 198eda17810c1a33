package human

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/tenetplan/tenet/providers"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// diffNode is the computed difference of one value: what happened to it and
// how to draw it. Computing the whole tree first lets a parent know its
// children's actions (to hide unchanged ones and pad keys) before printing.
type diffNode struct {
	act     action.Action // action.NoOp, action.Create, action.Update or action.Delete
	replace bool          // the path is in replace_paths
	r       nodeRenderer
	// before and after are the values a primitiveRenderer draws; kept
	// here, the renderer needs no allocation of its own.
	before, after any
}

// nodeRenderer draws the text that follows "key = " (or a list element's
// symbol), over as many lines as it needs; level is the nesting level of the
// line it starts on.
type nodeRenderer interface {
	writeValue(p *printer, n *diffNode, level int)
}

// namedNode is an attribute of an object or block, or a map element.
type namedNode struct {
	key  string // as displayed (quoted when needed)
	node *diffNode
	// important attributes are shown even when unchanged.
	important bool
}

// blockEntry is one nested block instance.
type blockEntry struct {
	typeName string
	label    string // ` "key"` for map-nested blocks
	node     *diffNode
}

func nullAction(c valueChange) action.Action {
	switch {
	case c.beforeNull() && c.afterNull():
		return action.NoOp
	case c.beforeNull():
		return action.Create
	case c.afterNull():
		return action.Delete
	}
	return action.NoOp
}

// diffBlock computes the diff of a block body; schema nil means the
// attributes are rendered from the JSON values alone.
func diffBlock(c valueChange, schema *blockInfo) *diffNode {
	if c.sensitive() {
		return &diffNode{replace: c.forcesReplace(), act: sensitiveAction(c), r: sensitiveBlockRenderer{}}
	}
	if c.afterUnknown() {
		n := &diffNode{replace: c.forcesReplace(), act: action.Update, r: unknownRenderer{}}
		if c.beforeNull() {
			n.act = action.Create
		}
		return n
	}
	// The node, its renderer and its attributes' nodes in few allocations.
	nb := &struct {
		node diffNode
		br   blockRenderer
	}{}
	n, br := &nb.node, &nb.br
	n.replace = c.forcesReplace()
	changed := false
	if schema == nil {
		for _, name := range unionKeys(c.before, c.after, c.unknown) {
			child := c.attr(name)
			if child.bothNull() {
				continue
			}
			cn := diffAttribute(child, cty.DynamicPseudoType)
			changed = changed || cn.act != action.NoOp
			br.attrs = append(br.attrs, namedNode{key: attributeKey(name), node: cn, important: isImportant(name)})
		}
	} else {
		nodes := make([]diffNode, len(schema.attrs))
		br.attrs = make([]namedNode, 0, len(schema.attrs))
		for i := range schema.attrs {
			a := &schema.attrs[i]
			child := c.attr(a.name)
			if a.ty == cty.DynamicPseudoType {
				// OpenTofu marks no "# forces replacement" inside
				// dynamically typed attributes (terraform_data's).
				child.replace = pathMatcher{}
			}
			if a.sensitive && !child.bothNull() {
				child.beforeSensitive, child.afterSensitive = true, true
			}
			if child.bothNull() {
				continue
			}
			cn := &nodes[i]
			fillAttribute(cn, child, a.ty)
			changed = changed || cn.act != action.NoOp
			br.attrs = append(br.attrs, namedNode{key: a.key, node: cn, important: a.important})
		}
		for i := range schema.blocks {
			b := &schema.blocks[i]
			entries := diffNestedBlocks(c.attr(b.name), b)
			for _, e := range entries {
				changed = changed || e.node.act != action.NoOp
			}
			if len(entries) > 0 {
				br.groups = append(br.groups, entries)
			}
		}
	}
	return n.settle(c, changed, br)
}

// settle gives n its renderer and its action: c's, or an update where
// only what n holds changed.
func (n *diffNode) settle(c valueChange, changed bool, r nodeRenderer) *diffNode {
	n.act = nullAction(c)
	if n.act == action.NoOp && changed {
		n.act = action.Update
	}
	n.r = r
	return n
}

func diffNestedBlocks(c valueChange, b *nestedInfo) []blockEntry {
	name := b.name
	if c.bothNull() {
		return nil
	}
	if c.sensitive() || c.afterUnknown() {
		return []blockEntry{{typeName: name, node: diffBlock(c, b.body)}}
	}
	switch b.nb.Nesting {
	case providers.NestingList:
		var out []blockEntry
		for _, op := range sequenceOps(c.before, c.after, c.unknown, true) {
			out = append(out, blockEntry{typeName: name, node: diffBlock(c.elem(op.bi, op.ai), b.body)})
		}
		return out
	case providers.NestingSet:
		var out []blockEntry
		for _, op := range setOps(c.before, c.after, c.unknown) {
			out = append(out, blockEntry{typeName: name, node: diffBlock(c.elem(op.bi, op.ai), b.body)})
		}
		return out
	case providers.NestingMap:
		var out []blockEntry
		for _, key := range unionKeys(c.before, c.after, c.unknown) {
			child := c.attr(key)
			if child.bothNull() {
				continue
			}
			out = append(out, blockEntry{typeName: name, label: " " + views.QuoteString(key), node: diffBlock(child, b.body)})
		}
		return out
	}
	return []blockEntry{{typeName: name, node: diffBlock(c, b.body)}}
}

// diffAttribute computes the diff of an attribute value of type ty.
func diffAttribute(c valueChange, ty cty.Type) *diffNode {
	n := &diffNode{}
	fillAttribute(n, c, ty)
	return n
}

// fillAttribute is diffAttribute into a node the caller allocated.
func fillAttribute(n *diffNode, c valueChange, ty cty.Type) *diffNode {
	*n = diffNode{replace: c.forcesReplace()}
	if c.sensitive() {
		n.act = sensitiveAction(c)
		sr := sensitiveRenderer{
			becomes: !c.beforeNull() && !c.afterNull() && c.beforeSensitive != true && c.afterSensitive == true,
			stops:   !c.beforeNull() && !c.afterNull() && c.beforeSensitive == true && c.afterSensitive != true,
		}
		if !c.reveal {
			n.r = sr
			return n
		}
		// As OpenTofu's -show-sensitive: the value's own diff is drawn in
		// place of "(sensitive value)", while the symbol and the warning
		// stay those of the sensitive value.
		inner := c
		inner.beforeSensitive, inner.afterSensitive = nil, nil
		n.r = revealedRenderer{sensitiveRenderer: sr, inner: diffAttribute(inner, ty)}
		return n
	}
	if c.afterUnknown() {
		n.act = action.Update
		ur := unknownRenderer{}
		if c.beforeNull() {
			n.act = action.Create
		} else {
			before := c
			before.after, before.unknown, before.afterSensitive = nil, nil, nil
			ur.before = diffAttribute(before, ty)
		}
		n.r = ur
		return n
	}
	if ty == cty.DynamicPseudoType {
		ty = inferType(c.before, c.after)
		if ty == cty.NilType {
			// The value changed kind (e.g. string to object): show the old
			// value going away and the new one arriving.
			before, after := c, c
			before.after, before.unknown, before.afterSensitive = nil, nil, nil
			after.before, after.beforeSensitive = nil, nil
			n.act = action.Update
			n.r = typeChangeRenderer{
				before: diffAttribute(before, cty.DynamicPseudoType),
				after:  diffAttribute(after, cty.DynamicPseudoType),
			}
			return n
		}
	}
	switch {
	case ty.IsListType() || ty.IsTupleType():
		return diffSequence(c, ty, n)
	case ty.IsSetType():
		return diffSet(c, ty, n)
	case ty.IsMapType():
		return diffMapOrObject(c, n, func(string) cty.Type { return ty.ElementType() }, true)
	case ty.IsObjectType():
		return diffMapOrObject(c, n, func(name string) cty.Type {
			if ty.HasAttribute(name) {
				return ty.AttributeType(name)
			}
			return cty.DynamicPseudoType
		}, false)
	}
	n.act = primitiveAction(c)
	if before, after, ok := jsonStrings(c.before, c.after); ok {
		inner := diffAttribute(valueChange{before: before, after: after}, cty.DynamicPseudoType)
		n.r = jsonRenderer{inner: inner}
		return n
	}
	if s, ok := multilineString(c.before, c.after); ok && s {
		n.r = heredocRenderer{before: c.before, after: c.after}
	} else {
		n.r, n.before, n.after = primitiveRenderer{}, c.before, c.after
	}
	return n
}

func primitiveAction(c valueChange) action.Action {
	if a := nullAction(c); a != action.NoOp || c.bothNull() {
		return a
	}
	if jsonEqual(c.before, c.after) {
		return action.NoOp
	}
	return action.Update
}

func sensitiveAction(c valueChange) action.Action {
	if a := nullAction(c); a != action.NoOp || c.bothNull() {
		return a
	}
	if c.afterUnknown() || !jsonEqual(c.before, c.after) || (c.beforeSensitive == true) != (c.afterSensitive == true) {
		return action.Update
	}
	return action.NoOp
}

func diffMapOrObject(c valueChange, n *diffNode, typeOf func(string) cty.Type, isMap bool) *diffNode {
	or := &objectRenderer{isMap: isMap}
	changed := false
	for _, key := range unionKeys(c.before, c.after, c.unknown) {
		child := c.attr(key)
		if !isMap && child.bothNull() {
			continue
		}
		if isMap && !hasMember(c.before, key) && !hasMember(c.after, key) && member(c.unknown, key) == nil {
			continue
		}
		cn := diffAttribute(child, typeOf(key))
		if isMap {
			// A map element that appears or disappears is added or removed
			// even when its value is null.
			switch {
			case !hasMember(c.before, key) && cn.act == action.NoOp:
				cn.act = action.Create
			case !hasMember(c.after, key) && member(c.unknown, key) == nil && cn.act == action.NoOp:
				cn.act = action.Delete
			}
		}
		changed = changed || cn.act != action.NoOp
		display := attributeKey(key)
		if isMap {
			display = views.QuoteString(key)
		}
		or.attrs = append(or.attrs, namedNode{key: display, node: cn, important: !isMap && isImportant(key)})
	}
	return n.settle(c, changed, or)
}

func diffSequence(c valueChange, ty cty.Type, n *diffNode) *diffNode {
	elemType := func(i int) cty.Type {
		if ty.IsListType() {
			return ty.ElementType()
		}
		if i >= 0 && i < ty.Length() {
			return ty.TupleElementType(i)
		}
		return cty.DynamicPseudoType
	}
	// Objects changed in place pair up as one changed element; in a
	// dynamically typed array, elements that are objects do.
	objects := ty.IsListType() && ty.ElementType().IsObjectType() ||
		ty.IsTupleType() && ty.Length() == 0 && allObjects(c.before) && allObjects(c.after)
	lr := &listRenderer{}
	changed := false
	for _, op := range sequenceOps(c.before, c.after, c.unknown, objects) {
		idx := op.ai
		if idx < 0 {
			idx = op.bi
		}
		cn := diffAttribute(c.elem(op.bi, op.ai), elemType(idx))
		cn.act = elementAction(op, cn.act)
		changed = changed || cn.act != action.NoOp
		lr.elems = append(lr.elems, cn)
	}
	return n.settle(c, changed, lr)
}

func diffSet(c valueChange, ty cty.Type, n *diffNode) *diffNode {
	lr := &listRenderer{set: true}
	changed := false
	for _, op := range setOps(c.before, c.after, c.unknown) {
		cn := diffAttribute(c.elem(op.bi, op.ai), ty.ElementType())
		cn.act = elementAction(op, cn.act)
		changed = changed || cn.act != action.NoOp
		lr.elems = append(lr.elems, cn)
	}
	return n.settle(c, changed, lr)
}

// elementAction makes an element that exists on only one side an addition
// or a removal even when its value is null.
func elementAction(op seqOp, a action.Action) action.Action {
	switch {
	case op.bi < 0:
		return action.Create
	case op.ai < 0:
		return action.Delete
	}
	return a
}

// inferType finds the shape of a dynamically typed value from its JSON;
// cty.NilType when before and after have different shapes.
func inferType(before, after any) cty.Type {
	kb, ka := jsonKind(before), jsonKind(after)
	switch {
	case kb == 0:
		kb = ka
	case ka == 0:
		ka = kb
	}
	if kb != ka {
		return cty.NilType
	}
	switch kb {
	case 'o':
		return cty.EmptyObject // attributes are looked up as dynamic
	case 'a':
		return cty.EmptyTuple // elements are dynamic
	}
	return cty.String // any primitive: rendered from its JSON
}

func jsonKind(v any) byte {
	switch v.(type) {
	case nil:
		return 0
	case map[string]any:
		return 'o'
	case []any:
		return 'a'
	}
	return 'p'
}

func multilineString(before, after any) (bool, bool) {
	bs, bok := before.(string)
	as, aok := after.(string)
	if !bok && !aok {
		return false, false
	}
	return strings.Contains(bs, "\n") || strings.Contains(as, "\n"), true
}

func hasMember(v any, key string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m[key]
	return ok
}

// unionKeys lists the keys of the JSON objects given, sorted.
func unionKeys(vs ...any) []string {
	var keys []string
	seen := map[string]bool{}
	for _, v := range vs {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

func isImportant(name string) bool { return name == "id" || name == "name" || name == "tags" }

// attributeKey shows a name bare when it is a valid identifier, else quoted.
func attributeKey(name string) string {
	if views.IsIdentifier(name) {
		return name
	}
	return views.QuoteString(name)
}

// seqOp pairs a before position with an after position (-1: absent).
type seqOp struct{ bi, ai int }

// maxLCSCells bounds the work of aligning two sequences; longer ones are
// compared position by position.
const maxLCSCells = 1 << 20

// sequenceOps aligns two JSON arrays on their longest common subsequence.
// With pairUpdates, a removal next to an addition becomes one changed
// element (used for objects, whose attributes are then diffed).
func sequenceOps(before, after, unknown any, pairUpdates bool) []seqOp {
	b, _ := before.([]any)
	a, _ := after.([]any)
	isUnknown := func(i int) bool { return element(unknown, i) == true }
	equal := func(i, j int) bool { return !isUnknown(j) && jsonEqual(b[i], a[j]) }
	var ops []seqOp
	if len(b)*len(a) > maxLCSCells {
		for i := 0; i < len(b) || i < len(a); i++ {
			op := seqOp{bi: -1, ai: -1}
			if i < len(b) {
				op.bi = i
			}
			if i < len(a) {
				op.ai = i
			}
			ops = append(ops, op)
		}
		return ops
	}
	// lcs[i][j] is the LCS length of b[i:] and a[j:].
	w := len(a) + 1
	lcs := make([]int32, (len(b)+1)*w)
	for i := len(b) - 1; i >= 0; i-- {
		for j := len(a) - 1; j >= 0; j-- {
			if equal(i, j) {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	var dels, adds []int
	flush := func() {
		k := 0
		if pairUpdates {
			for ; k < len(dels) && k < len(adds); k++ {
				ops = append(ops, seqOp{bi: dels[k], ai: adds[k]})
			}
		}
		for _, d := range dels[k:] {
			ops = append(ops, seqOp{bi: d, ai: -1})
		}
		for _, x := range adds[k:] {
			ops = append(ops, seqOp{bi: -1, ai: x})
		}
		dels, adds = dels[:0], adds[:0]
	}
	i, j := 0, 0
	for i < len(b) || j < len(a) {
		switch {
		case i < len(b) && j < len(a) && equal(i, j):
			flush()
			ops = append(ops, seqOp{bi: i, ai: j})
			i++
			j++
		case j < len(a) && (i == len(b) || lcs[i*w+j+1] >= lcs[(i+1)*w+j]):
			adds = append(adds, j)
			j++
		default:
			dels = append(dels, i)
			i++
		}
	}
	flush()
	return ops
}

// setOps matches set elements by value: equal elements are unchanged, the
// rest are removed or added.
func setOps(before, after, unknown any) []seqOp {
	b, _ := before.([]any)
	a, _ := after.([]any)
	byValue := make(map[string][]int, len(a))
	for j, v := range a {
		if element(unknown, j) != nil && element(unknown, j) != false {
			continue
		}
		k := canonicalJSON(v)
		byValue[k] = append(byValue[k], j)
	}
	matched := make([]bool, len(a))
	var ops []seqOp
	for i, v := range b {
		k := canonicalJSON(v)
		if js := byValue[k]; len(js) > 0 {
			ops = append(ops, seqOp{bi: i, ai: js[0]})
			matched[js[0]] = true
			byValue[k] = js[1:]
			continue
		}
		ops = append(ops, seqOp{bi: i, ai: -1})
	}
	for j := range a {
		if !matched[j] {
			ops = append(ops, seqOp{bi: -1, ai: j})
		}
	}
	return ops
}

func canonicalJSON(v any) string {
	out, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return ""
	}
	return string(out)
}

// allObjects reports whether v is a JSON array of objects (or not an array).
func allObjects(v any) bool {
	elems, _ := v.([]any)
	for _, e := range elems {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return true
}

// jsonStrings decodes strings holding JSON objects or arrays, so they are
// drawn as jsonencode(...) with a diff of their content; ok is false
// unless every non-null side is such a string.
func jsonStrings(before, after any) (b, a any, ok bool) {
	decode := func(v any) (any, bool) {
		s, isString := v.(string)
		if !isString {
			return nil, false
		}
		t := strings.TrimSpace(s)
		if t == "" || (t[0] != '{' && t[0] != '[') {
			return nil, false
		}
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		var out any
		if dec.Decode(&out) != nil || dec.More() {
			return nil, false
		}
		return out, true
	}
	if before == nil && after == nil {
		return nil, nil, false
	}
	if before != nil {
		if b, ok = decode(before); !ok {
			return nil, nil, false
		}
	}
	if after != nil {
		if a, ok = decode(after); !ok {
			return nil, nil, false
		}
	}
	return b, a, true
}
