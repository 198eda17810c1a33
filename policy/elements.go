package policy

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Element pruning: policies typically read a handful of members of each
// resource change (address, type, mode, change.actions, a few attributes
// of change.after), yet converting whole changes into ast terms dominates
// a check of a large plan. analyzeElements follows, in the compiled
// modules, every value that is an element of input.resource_changes (or
// input.resource_drift) or a member below one, through local variables,
// array comprehensions, complete rules that collect such elements, and
// user functions, and records the member paths some rule can read. Any
// use it does not understand needs the whole value it was given; anything
// it cannot follow at all (a `with`, an unknown call, a bare data
// reference) gives up, and then every element is kept whole.

// elemRoots are the top-level members whose array elements are pruned.
var elemRoots = []string{"resource_changes", "resource_drift"}

// fieldNode is a node of the tree of needed member paths. A whole node is
// needed with everything below it; otherwise only its children are.
type fieldNode struct {
	whole    bool
	children map[string]*fieldNode
}

// need marks path (below n) as needed whole.
func (n *fieldNode) need(path []string) {
	for _, s := range path {
		if n.whole {
			return
		}
		c := n.children[s]
		if c == nil {
			if n.children == nil {
				n.children = map[string]*fieldNode{}
			}
			c = &fieldNode{}
			n.children[s] = c
		}
		n = c
	}
	n.whole = true
	n.children = nil
}

// graft marks everything src needs as needed below path of n.
func (n *fieldNode) graft(path []string, src *fieldNode) {
	if src.whole {
		n.need(path)
		return
	}
	for name, c := range src.children {
		n.graft(append(path[:len(path):len(path)], name), c)
	}
}

// lookup walks path: whole is true when a node on the way (or at its
// end) is whole, found is false when the path leaves the tree.
func (n *fieldNode) lookup(path []string) (whole, found bool) {
	for _, s := range path {
		if n.whole {
			return true, true
		}
		if n = n.children[s]; n == nil {
			return false, false
		}
	}
	return n.whole, true
}

// absKind classifies what a local variable (or term) holds.
type absKind uint8

const (
	absNone absKind = iota // nothing tracked
	absElem                // the member at path of one element
	absColl                // a collection whose elements are absElem at path
)

type absVal struct {
	kind absKind
	root string // an element root, or a function parameter's private root
	path []string
}

func (v absVal) extend(s string) absVal {
	v.path = append(v.path[:len(v.path):len(v.path)], s)
	return v
}

// scope holds the variables of one rule body, comprehension or every.
type scope struct {
	parent  *scope
	tracked map[ast.Var]absVal
	seen    map[ast.Var]bool
}

func newScope(parent *scope) *scope {
	return &scope{parent: parent, tracked: map[ast.Var]absVal{}, seen: map[ast.Var]bool{}}
}

func (sc *scope) lookup(v ast.Var) absVal {
	for s := sc; s != nil; s = s.parent {
		if t, ok := s.tracked[v]; ok {
			return t
		}
	}
	return absVal{}
}

// fresh reports whether v has not occurred yet, so unifying it binds it.
func (sc *scope) fresh(v ast.Var) bool {
	if v.IsWildcard() {
		return false
	}
	for s := sc; s != nil; s = s.parent {
		if s.seen[v] {
			return false
		}
		if _, ok := s.tracked[v]; ok {
			return false
		}
	}
	return true
}

type funcKey struct {
	name string
	arg  int
}

// collRule is a complete rule whose value is an array collecting elements.
type collRule struct {
	path []string // below data
	elem absVal   // what each element of its value is
}

type elemAnalyzer struct {
	// rules by their path below data, joined by "\x00".
	rules map[string][]*ast.Rule
	// candidates are rules shaped like collection rules; colls are the
	// ones currently treated as such.
	candidates map[string]bool
	colls      map[string]collRule
	observed   map[string][]absVal
	trees      map[string]*fieldNode
	funcMemo   map[funcKey]*fieldNode
	funcBusy   map[funcKey]bool
	funcRuns   int
	gaveUp     bool
	// ruleVars counts the occurrences of each variable in the rule being
	// analysed, so comprehensions can tell their own variables apart.
	ruleVars map[ast.Var]int
	// handled counts the references to element roots and collection
	// rules the walk evaluated; a plain visitor must count no more.
	handled int
	// inFunc is set while a function is analysed for an argument: those
	// walks repeat rules the plain walk counts.
	inFunc   bool
	nextRoot int
	// collOf gives the path key of each candidate definition.
	collOf map[*ast.Rule]string
}

const maxFuncRuns = 2000

// analyzeElements returns the needed member paths of the elements of each
// root, or nil when it cannot tell (keep elements whole).
func analyzeElements(modules map[string]*ast.Module) map[string]*fieldNode {
	a := &elemAnalyzer{rules: map[string][]*ast.Rule{}, candidates: map[string]bool{}, collOf: map[*ast.Rule]string{}}
	var all []*ast.Rule
	for _, m := range modules {
		for _, r := range m.Rules {
			all = append(all, r)
			path, ok := rulePath(m.Package.Path, r.Head.Ref())
			if !ok {
				continue
			}
			key := strings.Join(path, "\x00")
			a.rules[key] = append(a.rules[key], r)
		}
	}
	a.findCandidates()
	a.colls = map[string]collRule{}
	for range len(a.candidates) + 2 {
		a.pass(all)
		if a.gaveUp {
			return nil
		}
		next := a.confirmedColls()
		if sameColls(next, a.colls) {
			if a.handled != countElementRefs(all, a.colls) {
				return nil
			}
			return a.trees
		}
		a.colls = next
	}
	return nil
}

// rulePath is the path below data of a rule with a ground head.
func rulePath(pkg ast.Ref, head ast.Ref) ([]string, bool) {
	var out []string
	for _, t := range pkg[1:] {
		s, ok := t.Value.(ast.String)
		if !ok {
			return nil, false
		}
		out = append(out, string(s))
	}
	for i, t := range head {
		switch v := t.Value.(type) {
		case ast.Var:
			if i != 0 {
				return nil, false
			}
			out = append(out, string(v))
		case ast.String:
			out = append(out, string(v))
		default:
			return nil, false
		}
	}
	return out, true
}

func refPath(ref ast.Ref) ([]string, bool) {
	if len(ref) == 0 || !ref[0].Equal(ast.DefaultRootDocument) {
		return nil, false
	}
	out := make([]string, 0, len(ref)-1)
	for _, t := range ref[1:] {
		s, ok := t.Value.(ast.String)
		if !ok {
			return nil, false
		}
		out = append(out, string(s))
	}
	return out, true
}

// pass analyses every rule once with the current collection rules.
func (a *elemAnalyzer) pass(all []*ast.Rule) {
	a.trees = map[string]*fieldNode{}
	for _, r := range elemRoots {
		a.trees[r] = &fieldNode{}
	}
	a.observed = map[string][]absVal{}
	a.funcMemo = map[funcKey]*fieldNode{}
	a.funcBusy = map[funcKey]bool{}
	a.handled = 0
	for _, r := range all {
		for x := r; x != nil && !a.gaveUp; x = x.Else {
			a.rule(x, r, -1, absVal{})
		}
	}
	for _, root := range elemRoots {
		if a.trees[root] == nil {
			a.trees[root] = &fieldNode{}
		}
	}
}

// rule analyses one definition. For a function, param >= 0 tracks that
// argument as val. top is the first rule of an else chain (whose head
// args and path the else rules share).
func (a *elemAnalyzer) rule(r, top *ast.Rule, param int, val absVal) {
	a.ruleVars = map[ast.Var]int{}
	ast.WalkVars(r, func(v ast.Var) bool {
		a.ruleVars[v]++
		return false
	})
	sc := newScope(nil)
	args := r.Head.Args
	if len(args) == 0 {
		args = top.Head.Args
	}
	for i, t := range args {
		ast.WalkVars(t, func(v ast.Var) bool {
			sc.seen[v] = true
			return false
		})
		if i != param {
			continue
		}
		if v, ok := t.Value.(ast.Var); ok && a.ruleVars[v] > 0 && !repeatedArg(args, v) {
			sc.tracked[v] = val
		} else {
			a.need(val)
		}
	}
	a.body(sc, r.Body)
	if a.gaveUp {
		return
	}
	if param < 0 && top == r {
		if key, ok := a.collKey(r); ok {
			got := a.eval(sc, r.Head.Value)
			a.observed[key] = append(a.observed[key], got)
			if c, ok := a.colls[key]; ok && got.kind == absColl && sameAbs(absVal{kind: absElem, root: got.root, path: got.path}, c.elem) {
				return // its value is followed where the rule is read
			}
			a.need(got)
			return
		}
	}
	if ref := r.Head.Reference; len(ref) > 1 {
		for _, t := range ref[1:] {
			a.use(sc, t)
		}
	}
	if r.Head.Key != nil {
		a.use(sc, r.Head.Key)
	}
	if r.Head.Value != nil {
		a.use(sc, r.Head.Value)
	}
}

func repeatedArg(args ast.Args, v ast.Var) bool {
	n := 0
	for _, t := range args {
		ast.WalkVars(t, func(w ast.Var) bool {
			if w == v {
				n++
			}
			return false
		})
	}
	return n > 1
}

func (a *elemAnalyzer) collKey(r *ast.Rule) (string, bool) {
	key, ok := a.collOf[r]
	return key, ok
}

func (a *elemAnalyzer) need(v absVal) {
	if v.kind == absNone {
		return
	}
	t := a.trees[v.root]
	if t == nil {
		t = &fieldNode{}
		a.trees[v.root] = t
	}
	t.need(v.path)
}

func (a *elemAnalyzer) body(sc *scope, body ast.Body) {
	for _, e := range body {
		if a.gaveUp {
			return
		}
		a.expr(sc, e)
	}
}

func (a *elemAnalyzer) expr(sc *scope, e *ast.Expr) {
	if len(e.With) > 0 {
		a.gaveUp = true
		return
	}
	switch t := e.Terms.(type) {
	case *ast.Term:
		a.use(sc, t)
	case []*ast.Term:
		a.call(sc, t, e.Negated)
	case *ast.Every:
		a.every(sc, t)
	case *ast.SomeDecl:
		// `some x` only declares; anything else is read.
		for _, s := range t.Symbols {
			if _, ok := s.Value.(ast.Var); !ok {
				a.use(sc, s)
			}
		}
		return
	default:
		a.gaveUp = true
		return
	}
	ast.WalkVars(e, func(v ast.Var) bool {
		sc.seen[v] = true
		return false
	})
}

// call handles an expression calling a built-in or user function;
// unification of a fresh variable with a tracked value binds it.
func (a *elemAnalyzer) call(sc *scope, terms []*ast.Term, negated bool) {
	op, ok := terms[0].Value.(ast.Ref)
	if !ok {
		a.gaveUp = true
		return
	}
	args := terms[1:]
	switch {
	case isEq(terms[0]) && len(args) == 2:
		if !negated {
			for _, pair := range [][2]*ast.Term{{args[0], args[1]}, {args[1], args[0]}} {
				if v, ok := pair[0].Value.(ast.Var); ok && sc.fresh(v) {
					if val := a.eval(sc, pair[1]); val.kind != absNone {
						sc.tracked[v] = val
					}
					return
				}
			}
		}
	case op.Equal(ast.Count.Ref()) && len(args) >= 1:
		// The size of a collection does not depend on its elements.
		if val := a.eval(sc, args[0]); val.kind != absColl {
			a.need(val)
		}
		for _, t := range args[1:] {
			a.use(sc, t)
		}
		return
	case op[0].Equal(ast.DefaultRootDocument):
		a.userCall(sc, op, args)
		return
	}
	for _, t := range args {
		a.use(sc, t)
	}
}

// userCall follows elements passed to a function into its definitions.
func (a *elemAnalyzer) userCall(sc *scope, op ast.Ref, args []*ast.Term) {
	path, ok := refPath(op)
	if !ok {
		a.gaveUp = true
		return
	}
	name := strings.Join(path, "\x00")
	defs := a.rules[name]
	if len(defs) == 0 || len(defs[0].Head.Args) == 0 {
		a.gaveUp = true
		return
	}
	arity := len(defs[0].Head.Args)
	for i, t := range args {
		if i >= arity {
			a.use(sc, t)
			continue
		}
		val := a.eval(sc, t)
		if val.kind != absElem {
			a.need(val)
			continue
		}
		rel := a.funcNeeds(funcKey{name, i}, defs)
		if rel == nil {
			a.need(val)
			continue
		}
		t := a.trees[val.root]
		if t == nil {
			t = &fieldNode{}
			a.trees[val.root] = t
		}
		t.graft(val.path, rel)
	}
}

// funcNeeds is what the definitions of a function read of argument
// k.arg, relative to it; nil means all of it.
func (a *elemAnalyzer) funcNeeds(k funcKey, defs []*ast.Rule) *fieldNode {
	if rel, ok := a.funcMemo[k]; ok {
		return rel
	}
	if a.funcBusy[k] || a.funcRuns >= maxFuncRuns {
		return nil // recursion or too much work: the whole argument
	}
	a.funcBusy[k] = true
	a.funcRuns++
	root := "\x00param" + string(rune('0'+a.nextRoot%10)) + strings.Repeat("'", a.nextRoot/10)
	a.nextRoot++
	a.trees[root] = &fieldNode{}
	saved, savedIn := a.ruleVars, a.inFunc
	a.inFunc = true
	for _, r := range defs {
		for x := r; x != nil && !a.gaveUp; x = x.Else {
			a.rule(x, r, k.arg, absVal{kind: absElem, root: root})
		}
	}
	a.ruleVars, a.inFunc = saved, savedIn
	rel := a.trees[root]
	delete(a.trees, root)
	delete(a.funcBusy, k)
	a.funcMemo[k] = rel
	return rel
}

func (a *elemAnalyzer) every(sc *scope, e *ast.Every) {
	dom := a.eval(sc, e.Domain)
	child := a.childScope(sc, e)
	if e.Key != nil {
		a.use(child, e.Key) // its own variable: nothing tracked
	}
	if v, ok := e.Value.Value.(ast.Var); ok && dom.kind == absColl && !v.IsWildcard() {
		child.tracked[v] = absVal{kind: absElem, root: dom.root, path: dom.path}
	} else {
		a.need(dom)
		a.use(child, e.Value)
	}
	a.body(child, e.Body)
}

// childScope opens the scope of a comprehension or every: variables of
// the rule that occur outside x are the enclosing body's.
func (a *elemAnalyzer) childScope(sc *scope, x any) *scope {
	child := newScope(sc)
	inner := map[ast.Var]int{}
	ast.WalkVars(x, func(v ast.Var) bool {
		inner[v]++
		return false
	})
	for v, n := range inner {
		if a.ruleVars[v] > n {
			child.seen[v] = true
		}
	}
	return child
}

// eval returns what t holds when it can be followed; otherwise it records
// t as read and returns absNone.
func (a *elemAnalyzer) eval(sc *scope, t *ast.Term) absVal {
	switch v := t.Value.(type) {
	case ast.Var:
		if val := sc.lookup(v); val.kind != absNone {
			return val
		}
		a.use(sc, t)
	case ast.Ref:
		return a.evalRef(sc, v)
	case *ast.ArrayComprehension:
		child := a.childScope(sc, v)
		a.body(child, v.Body)
		val := a.eval(child, v.Term)
		if val.kind == absElem {
			val.kind = absColl
			return val
		}
		a.need(val)
	default:
		a.use(sc, t)
	}
	return absVal{}
}

// evalRef follows a reference from a tracked variable, an element root
// or a collection rule; reading below an element with a key that is not a
// constant string needs the member whole.
func (a *elemAnalyzer) evalRef(sc *scope, ref ast.Ref) absVal {
	for _, t := range ref[1:] {
		a.use(sc, t)
	}
	var val absVal
	rest := ref[1:]
	switch head := ref[0].Value.(type) {
	case ast.Var:
		switch {
		case head == ast.InputRootDocument.Value.(ast.Var):
			if len(ref) < 2 {
				return absVal{}
			}
			s, ok := ref[1].Value.(ast.String)
			if !ok || !isElemRoot(string(s)) {
				return absVal{}
			}
			a.countHandled()
			val, rest = absVal{kind: absColl, root: string(s)}, ref[2:]
		case head == ast.DefaultRootDocument.Value.(ast.Var):
			var n int
			val, n = a.dataRef(ref)
			if val.kind == absNone {
				return val
			}
			rest = ref[n:]
		default:
			val = sc.lookup(head)
		}
	default:
		a.use(sc, ref[0])
	}
	for _, t := range rest {
		switch val.kind {
		case absNone:
			return val
		case absColl:
			val.kind = absElem
		case absElem:
			s, ok := t.Value.(ast.String)
			if !ok {
				a.need(val)
				return absVal{}
			}
			val = val.extend(string(s))
		}
	}
	return val
}

func (a *elemAnalyzer) countHandled() {
	if !a.inFunc {
		a.handled++
	}
}

func isElemRoot(s string) bool {
	for _, r := range elemRoots {
		if r == s {
			return true
		}
	}
	return false
}

// dataRef matches a data reference against the collection rules: the
// rule itself (its value followed, n terms consumed), or a reference that
// may contain or select it (its elements needed whole).
func (a *elemAnalyzer) dataRef(ref ast.Ref) (absVal, int) {
	var found absVal
	n := 0
	matched := false
	for _, c := range a.colls {
		exact, overlap := matchRulePath(ref, c.path)
		if !overlap {
			continue
		}
		if !matched {
			a.countHandled()
			matched = true
		}
		if exact {
			found, n = absVal{kind: absColl, root: c.elem.root, path: c.elem.path}, len(c.path)+1
			continue
		}
		a.need(c.elem)
	}
	return found, n
}

// matchRulePath compares a data reference with a rule path: exact when
// it names the rule (maybe reading below it), overlap when it may
// contain, name or select it.
func matchRulePath(ref ast.Ref, path []string) (exact, overlap bool) {
	exact = len(ref)-1 >= len(path)
	for i := 0; i < len(path) && i+1 < len(ref); i++ {
		switch v := ref[i+1].Value.(type) {
		case ast.String:
			if string(v) != path[i] {
				return false, false
			}
		case ast.Var:
			exact = false
		default:
			return false, false
		}
	}
	return exact, true
}

// use records everything t holds or refers to as read whole.
func (a *elemAnalyzer) use(sc *scope, t *ast.Term) {
	if t == nil || a.gaveUp {
		return
	}
	switch v := t.Value.(type) {
	case ast.Null, ast.Boolean, ast.Number, ast.String:
	case ast.Var:
		if v == ast.DefaultRootDocument.Value.(ast.Var) && len(a.colls) > 0 {
			a.gaveUp = true
			return
		}
		a.need(sc.lookup(v))
	case ast.Ref:
		a.need(a.evalRef(sc, v))
	case *ast.Array:
		for i := range v.Len() {
			a.use(sc, v.Elem(i))
		}
	case ast.Object:
		v.Foreach(func(k, x *ast.Term) {
			a.use(sc, k)
			a.use(sc, x)
		})
	case ast.Set:
		v.Foreach(func(x *ast.Term) { a.use(sc, x) })
	case *ast.ArrayComprehension:
		a.need(a.eval(sc, t))
	case *ast.SetComprehension:
		child := a.childScope(sc, v)
		a.body(child, v.Body)
		a.use(child, v.Term)
	case *ast.ObjectComprehension:
		child := a.childScope(sc, v)
		a.body(child, v.Body)
		a.use(child, v.Key)
		a.use(child, v.Value)
	case ast.Call:
		a.call(sc, v, false)
	default:
		a.gaveUp = true
	}
}

// countElementRefs counts, with a plain visitor, the references to
// element roots and (possibly) collection rules in the rules: the
// structured walk must have evaluated each of them.
func countElementRefs(rules []*ast.Rule, colls map[string]collRule) int {
	n := 0
	var vis *ast.GenericVisitor
	vis = ast.NewGenericVisitor(func(x any) bool {
		var ref ast.Ref
		switch x := x.(type) {
		case ast.Ref:
			ref = x
		case *ast.Term:
			r, ok := x.Value.(ast.Ref)
			if !ok {
				return false
			}
			ref = r
		default:
			return false
		}
		switch {
		case ref[0].Equal(ast.InputRootDocument):
			if len(ref) > 1 {
				if s, ok := ref[1].Value.(ast.String); ok && isElemRoot(string(s)) {
					n++
				}
			}
		case ref[0].Equal(ast.DefaultRootDocument):
			for _, c := range colls {
				if _, overlap := matchRulePath(ref, c.path); overlap {
					n++
					break
				}
			}
		}
		for _, t := range ref[1:] {
			vis.Walk(t)
		}
		return true
	})
	for _, r := range rules {
		vis.Walk(r)
	}
	return n
}
