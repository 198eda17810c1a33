package policy

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tenetplan/tenet/internal/regokit"
)

// Change-local policies. Most policies are written `deny contains msg if {
// some rc in input.resource_changes; <conditions on rc>; msg := sprintf(...,
// [rc.address]) }`: what they report is the union of what each change
// gives on its own, and whether a change gives anything does not depend on
// its address, which only goes into the message. For such a policy, the
// changes that agree on everything but their address fail or pass
// together; so the check first evaluates it over one change of each kind,
// and only when one of those fails does it evaluate it over every change.
// A plan of 100,000 alike changes then costs one evaluation, not 100,000.
//
// localPolicy decides whether a compiled policy rule is of that kind; any
// use it does not understand makes it evaluated over every change.

var resourceChangesRef = regokit.Ref(ast.InputRootDocument, "resource_changes")

// addressOnlyBuilders are the built-ins whose output may carry the address
// into a message without any condition depending on it.
var addressOnlyBuilders = map[string]bool{"sprintf": true, "concat": true}

// localPolicy reports whether every definition of the rule at query is a
// partial set rule that binds one change of input.resource_changes and
// reads nothing else of the input, whose conditions do not depend on the
// change's address nor on its position, and which calls only rules and
// functions that do not read the input.
func localPolicy(c *ast.Compiler, query string) bool {
	ref, err := ast.ParseRef(query)
	if err != nil {
		return false
	}
	rules := c.GetRulesExact(ref)
	if len(rules) == 0 {
		return false
	}
	lc := &localChecker{c: c, reads: regokit.NewReads(c)}
	for _, r := range rules {
		if r.Head.RuleKind() != ast.MultiValue || r.Else != nil || !lc.rule(r) {
			return false
		}
	}
	return true
}

type localChecker struct {
	c     *ast.Compiler
	reads *regokit.Reads // whether a rule, through what it depends on, reads input
}

// rule checks one definition.
func (lc *localChecker) rule(r *ast.Rule) bool {
	var elem, idx ast.Var
	var binding *ast.Expr
	for _, x := range r.Body {
		if v, i, ok := changeBinding(x); ok {
			if binding != nil {
				return false // two changes at once
			}
			elem, idx, binding = v, i, x
		}
	}
	if binding == nil {
		return false
	}
	tainted := map[ast.Var]bool{} // carry the address, into messages only
	// seen are the variables of the expressions before: unifying one of
	// them compares rather than binds.
	seen := map[ast.Var]bool{}
	for _, x := range r.Body {
		if x != binding {
			if len(x.With) > 0 {
				return false
			}
			if !lc.carriesAddress(x, elem, tainted, seen) && !lc.exprLocal(x, elem, idx, tainted) {
				return false
			}
		}
		ast.WalkVars(x, func(v ast.Var) bool {
			seen[v] = true
			return false
		})
	}
	// The head may use anything the body bound.
	return true
}

// relaxedBody is, for a policy that binds one change but is not local,
// the longest start of its body whose expressions hold alike for changes
// equal but for their address and position (the binding among them).
// Leaving the later conditions out only lets more through, so when the
// relaxed body finds nothing among one change of each kind, the policy
// reports nothing; and as evaluation goes in body order, the full body
// would never reach the conditions left out either, so it could not have
// failed on an error in one. nil when r does not bind exactly one change
// within that start, or nothing else is left to test.
func (lc *localChecker) relaxedBody(r *ast.Rule) ast.Body {
	var elem, idx ast.Var
	var binding *ast.Expr
	for _, x := range r.Body {
		if v, i, ok := changeBinding(x); ok {
			if binding != nil {
				return nil
			}
			elem, idx, binding = v, i, x
		}
	}
	if binding == nil {
		return nil
	}
	var body ast.Body
	bound := false
	for _, x := range r.Body {
		if x == binding {
			bound = true
		} else if len(x.With) > 0 || !lc.exprLocal(x, elem, idx, nil) {
			break
		}
		body.Append(x.Copy())
	}
	if !bound || len(body) < 2 {
		return nil
	}
	return body
}

// relaxedPolicy is the relaxed body of the single definition of the rule
// at query, for policies that are not local.
func relaxedPolicy(c *ast.Compiler, query string) ast.Body {
	ref, err := ast.ParseRef(query)
	if err != nil {
		return nil
	}
	rules := c.GetRulesExact(ref)
	if len(rules) != 1 || rules[0].Head.RuleKind() != ast.MultiValue || rules[0].Else != nil {
		return nil
	}
	lc := &localChecker{c: c, reads: regokit.NewReads(c)}
	return lc.relaxedBody(rules[0])
}

// changeBinding recognises E = input.resource_changes[K].
func changeBinding(x *ast.Expr) (elem, idx ast.Var, ok bool) {
	if !x.IsEquality() || x.Negated || len(x.With) > 0 {
		return "", "", false
	}
	for _, pair := range [2][2]*ast.Term{{x.Operand(0), x.Operand(1)}, {x.Operand(1), x.Operand(0)}} {
		v, isVar := pair[0].Value.(ast.Var)
		ref, isRef := pair[1].Value.(ast.Ref)
		if !isVar || !isRef || len(ref) != 3 || !ref.HasPrefix(resourceChangesRef) {
			continue
		}
		if k, isVar := ref[2].Value.(ast.Var); isVar {
			return v, k, true
		}
	}
	return "", "", false
}

// carriesAddress accepts the expressions that only move the address
// towards the message: V = E.address, V = sprintf/concat(..., carried),
// and V = an array or object literal holding carried values. It marks V.
func (lc *localChecker) carriesAddress(x *ast.Expr, elem ast.Var, tainted, seen map[ast.Var]bool) bool {
	if x.Negated {
		return false
	}
	terms, ok := x.Terms.([]*ast.Term)
	if !ok || len(terms) == 0 {
		return false
	}
	op := terms[0].String()
	switch {
	case x.IsEquality():
		for _, pair := range [2][2]*ast.Term{{x.Operand(0), x.Operand(1)}, {x.Operand(1), x.Operand(0)}} {
			v, isVar := pair[0].Value.(ast.Var)
			if !isVar || seen[v] || v == elem {
				continue
			}
			if isAddressRef(pair[1], elem) || isCarried(pair[1], tainted) ||
				(isLiteral(pair[1]) && carries(pair[1], elem, tainted) && lc.restLocal(pair[1], elem, tainted)) {
				tainted[v] = true
				return true
			}
		}
	case addressOnlyBuilders[op] && len(terms) >= 3:
		out, isVar := terms[len(terms)-1].Value.(ast.Var)
		args := terms[1 : len(terms)-1]
		if !isVar || seen[out] || !carriesAny(args, elem, tainted) {
			return false
		}
		// What does not carry the address must be local itself.
		for _, a := range args {
			if !lc.restLocal(a, elem, tainted) {
				return false
			}
		}
		tainted[out] = true
		return true
	}
	return false
}

func isAddressRef(t *ast.Term, elem ast.Var) bool {
	ref, ok := t.Value.(ast.Ref)
	return ok && len(ref) == 2 && ref[0].Value.Compare(elem) == 0 && ref[1].Value.Compare(ast.String("address")) == 0
}

func isCarried(t *ast.Term, tainted map[ast.Var]bool) bool {
	v, ok := t.Value.(ast.Var)
	return ok && tainted[v]
}

func isLiteral(t *ast.Term) bool {
	switch t.Value.(type) {
	case *ast.Array, ast.Object:
		return true
	}
	return false
}

// carries reports whether t is (or is a literal built only of) carried
// values, constants and local element members.
func carries(t *ast.Term, elem ast.Var, tainted map[ast.Var]bool) bool {
	switch v := t.Value.(type) {
	case ast.Var:
		return tainted[v]
	case ast.Ref:
		return isAddressRef(t, elem)
	case *ast.Array:
		found := false
		for i := range v.Len() {
			e := v.Elem(i)
			if carries(e, elem, tainted) {
				found = true
			}
		}
		return found
	case ast.Object:
		found := false
		v.Foreach(func(_, val *ast.Term) {
			if carries(val, elem, tainted) {
				found = true
			}
		})
		return found
	}
	return false
}

// restLocal checks the parts of t that do not carry the address: the
// members of a literal one by one, anything else whole.
func (lc *localChecker) restLocal(t *ast.Term, elem ast.Var, tainted map[ast.Var]bool) bool {
	switch v := t.Value.(type) {
	case ast.Var:
		if tainted[v] {
			return true
		}
	case ast.Ref:
		if isAddressRef(t, elem) {
			return true
		}
	case *ast.Array:
		for i := range v.Len() {
			if !lc.restLocal(v.Elem(i), elem, tainted) {
				return false
			}
		}
		return true
	case ast.Object:
		ok := true
		v.Foreach(func(k, val *ast.Term) {
			ok = ok && lc.termLocal(k, elem, "", tainted) && lc.restLocal(val, elem, tainted)
		})
		return ok
	}
	return lc.termLocal(t, elem, "", tainted)
}

func carriesAny(args []*ast.Term, elem ast.Var, tainted map[ast.Var]bool) bool {
	for _, a := range args {
		if carries(a, elem, tainted) {
			return true
		}
	}
	return false
}

// exprLocal checks an expression that is a condition: it may read members
// of the change other than its address, data that does not depend on the
// input, and call functions that are local for the change.
func (lc *localChecker) exprLocal(x *ast.Expr, elem, idx ast.Var, tainted map[ast.Var]bool) bool {
	switch t := x.Terms.(type) {
	case *ast.Term:
		return lc.termLocal(t, elem, idx, tainted)
	case []*ast.Term:
		if len(t) == 0 {
			return true
		}
		op, isRef := t[0].Value.(ast.Ref)
		userFunc := isRef && op[0].Equal(ast.DefaultRootDocument)
		if userFunc && lc.reads.RefReadsInput(op) {
			return false
		}
		for i, arg := range t[1:] {
			if v, ok := arg.Value.(ast.Var); ok && v == elem && userFunc {
				if !lc.paramLocal(op, i, 0) {
					return false
				}
				continue
			}
			if !lc.termLocal(arg, elem, idx, tainted) {
				return false
			}
		}
		return true
	case *ast.Every:
		return lc.visitLocal(t, elem, idx, tainted)
	}
	return lc.visitLocal(x.Terms, elem, idx, tainted)
}

func (lc *localChecker) termLocal(t *ast.Term, elem, idx ast.Var, tainted map[ast.Var]bool) bool {
	return lc.visitLocal(t, elem, idx, tainted)
}

// visitLocal walks x: the change only through constant member names other
// than address, no carried value, no position, no input, data only where
// no rule under it reads the input.
func (lc *localChecker) visitLocal(x any, elem, idx ast.Var, tainted map[ast.Var]bool) bool {
	ok := true
	var vis *ast.GenericVisitor
	vis = ast.NewGenericVisitor(func(n any) bool {
		if !ok {
			return true
		}
		if x, isExpr := n.(*ast.Expr); isExpr && len(x.With) > 0 {
			ok = false
			return true
		}
		t, isTerm := n.(*ast.Term)
		if !isTerm {
			return false
		}
		switch v := t.Value.(type) {
		case ast.Var:
			if v == elem || (idx != "" && v == idx) || tainted[v] || v.Equal(ast.InputRootDocument.Value) {
				ok = false
			}
		case ast.Ref:
			head := v[0]
			switch {
			case head.Value.Compare(elem) == 0:
				if len(v) < 2 {
					ok = false
					return true
				}
				if s, isStr := v[1].Value.(ast.String); !isStr || s == "address" {
					ok = false
					return true
				}
			case head.Equal(ast.InputRootDocument):
				ok = false
				return true
			case head.Equal(ast.DefaultRootDocument):
				if lc.reads.RefReadsInput(v) {
					ok = false
					return true
				}
			default:
				vis.Walk(head)
			}
			for _, step := range v[1:] {
				vis.Walk(step)
			}
			return true
		}
		return false
	})
	vis.Walk(x)
	return ok
}

// paramLocal checks that function fn reads its argument at position i
// only through constant member names other than address, directly or
// through functions it passes it to (depth-limited).
func (lc *localChecker) paramLocal(fn ast.Ref, i, depth int) bool {
	if depth > 4 {
		return false
	}
	rules := lc.c.GetRulesExact(fn)
	if len(rules) == 0 {
		return false
	}
	for _, r := range rules {
		for x := r; x != nil; x = x.Else {
			if i >= len(x.Head.Args) {
				return false
			}
			p, ok := x.Head.Args[i].Value.(ast.Var)
			if !ok {
				return false
			}
			for _, e := range x.Body {
				if len(e.With) > 0 {
					return false
				}
				if !lc.paramExpr(e, p, depth) {
					return false
				}
			}
			if x.Head.Value != nil && !lc.visitLocal(x.Head.Value, p, "", nil) {
				return false
			}
		}
	}
	return true
}

func (lc *localChecker) paramExpr(e *ast.Expr, p ast.Var, depth int) bool {
	if t, ok := e.Terms.([]*ast.Term); ok && len(t) > 0 {
		if op, isRef := t[0].Value.(ast.Ref); isRef && op[0].Equal(ast.DefaultRootDocument) {
			for i, arg := range t[1:] {
				if v, ok := arg.Value.(ast.Var); ok && v == p {
					if lc.reads.RefReadsInput(op) || !lc.paramLocal(op, i, depth+1) {
						return false
					}
					continue
				}
				if !lc.visitLocal(arg, p, "", nil) {
					return false
				}
			}
			return true
		}
	}
	return lc.visitLocal(e, p, "", nil)
}

// changeRepresentatives returns one change of each kind of the input's
// resource_changes, two changes being of a kind when they are equal but
// for their (string) address; nil when there is nothing to gain.
func changeRepresentatives(input ast.Value) []*ast.Term {
	obj, ok := input.(ast.Object)
	if !ok {
		return nil
	}
	rc := obj.Get(keyResourceChanges)
	if rc == nil {
		return nil
	}
	arr, ok := rc.Value.(*ast.Array)
	if !ok || arr.Len() < 2 {
		return nil
	}
	var reps []*ast.Term
	buckets := map[int][]int{}
	for i := range arr.Len() {
		e := arr.Elem(i)
		h := hashButAddress(e)
		found := false
		for _, r := range buckets[h] {
			if equalButAddress(reps[r], e) {
				found = true
				break
			}
		}
		if !found {
			buckets[h] = append(buckets[h], len(reps))
			reps = append(reps, e)
		}
	}
	if len(reps) == arr.Len() {
		return nil
	}
	return reps
}

var (
	keyResourceChanges = ast.StringTerm("resource_changes")
	keyAddress         = ast.StringTerm("address")
)

// stringAddress is a change's address when it is a string.
func stringAddress(t *ast.Term) (*ast.Term, ast.Object, bool) {
	obj, ok := t.Value.(ast.Object)
	if !ok {
		return nil, nil, false
	}
	a := obj.Get(keyAddress)
	if a == nil {
		return nil, nil, false
	}
	if _, isStr := a.Value.(ast.String); !isStr {
		return nil, nil, false
	}
	return a, obj, true
}

// hashButAddress hashes a change without its address (an object's hash
// is the sum of its members' key and value hashes).
func hashButAddress(t *ast.Term) int {
	a, obj, ok := stringAddress(t)
	if !ok {
		return t.Hash()
	}
	return obj.Hash() - keyAddress.Hash() - a.Hash()
}

// equalButAddress reports whether two changes are equal but for their
// string addresses (or equal, when either has none).
func equalButAddress(x, y *ast.Term) bool {
	_, xo, xok := stringAddress(x)
	_, yo, yok := stringAddress(y)
	if !xok || !yok {
		return x.Equal(y)
	}
	if xo.Len() != yo.Len() {
		return false
	}
	same := true
	xo.Foreach(func(k, v *ast.Term) {
		if !same || k.Equal(keyAddress) {
			return
		}
		w := yo.Get(k)
		same = w != nil && v.Value.Compare(w.Value) == 0
	})
	return same
}
