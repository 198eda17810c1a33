package rules

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The rewrite of the bodies and heads of rules about one instance into the
// chunk form (chunk_form.go): binding the index i, and reading the rules
// about the instance with it.

// predicate matches an expression that is a predicate about the instance
// alone (negated or not).
func (c *chunkRewriter) predicate(x *ast.Expr) (key string, named *ast.Term, ok bool) {
	t, isTerm := x.Terms.(*ast.Term)
	if !isTerm || len(x.With) > 0 {
		return "", nil, false
	}
	key, kind, named, rest, found := c.resolve(t)
	return key, named, found && len(rest) == 0 && kind == kindPredicate
}

// body rewrites a body about the instance.
func (c *chunkRewriter) body(body ast.Body, st *bindState) (ast.Body, error) {
	out := make(ast.Body, 0, len(body)+2)
	folded := map[int]bool{}
	for j, x := range body {
		if folded[j] || !c.needsInstance(x) {
			if !folded[j] {
				out = append(out, x)
			}
			continue
		}
		if len(x.With) > 0 {
			return nil, fmt.Errorf("%v: `with` in a rule about one instance", x)
		}
		if _, ok := x.Terms.(*ast.Every); ok {
			return nil, fmt.Errorf("%v: `every` in a rule about one instance", x)
		}
		if decl, ok := x.Terms.(*ast.SomeDecl); ok {
			if xs, done, err := c.iterate(decl, st, &out); done || err != nil {
				out = append(out, xs...)
				if err != nil {
					return nil, err
				}
				continue
			}
		}
		if key, named, ok := c.predicate(x); ok {
			if !st.index && st.pending == nil && !x.Negated {
				// The first condition: iterate P, with the predicates the
				// body also tests folded in (read only when P holds for
				// some instance).
				st.index = true
				coll := named
				for k := j + 1; k < len(body); k++ {
					if key2, named2, ok := c.predicate(body[k]); ok {
						if coll == named {
							coll = c.freshVar()
							out = append(out, assign(coll, named), ast.NewExpr([]*ast.Term{ast.NewTerm(ast.NotEqual.Ref()), coll, ast.SetTerm()}))
						}
						c.tested[key], c.tested[key2] = true, true
						op := ast.And
						if body[k].Negated {
							op = ast.Minus
						}
						coll, folded[k] = setOp(op, coll, named2), true
					}
				}
				st.rule.bindAt = len(out)
				out = append(out, someIn(nil, iTerm, coll))
				continue
			}
			out = c.bindIndex(out, st, nil)
			c.tested[key] = true
			out = append(out, member(iTerm, c.local(st, key, named), x.Negated))
			continue
		}
		if t, ok := x.Terms.(*ast.Term); ok {
			// A constant value alone: the instance is among its indices.
			if key, kind, named, rest, found := c.resolve(t); found && kind == kindValue && c.constant[key] && len(rest) == 0 {
				if !st.index && st.pending == nil && !x.Negated {
					st.rule.bindAt, st.index = len(out), true
					out = append(out, someIn(nil, iTerm, refTo(named, ast.StringTerm("indices"))))
					continue
				}
				out = c.bindIndex(out, st, nil)
				out = append(out, member(iTerm, refTo(c.local(st, key, named), ast.StringTerm("indices")), x.Negated))
				continue
			}
		}
		out = c.bindIndex(out, st, x)
		if !st.inst && !st.rule.inline && readsInstance(x) {
			out = append(out, assign(instTerm, ast.RefTerm(append(instancesRef.Copy(), iTerm)...)))
			st.inst = true
		}
		nx := *x
		var err error
		switch terms := x.Terms.(type) {
		case *ast.Term:
			nx.Terms, err = c.term(terms, st)
		case []*ast.Term:
			nx.Terms, err = c.terms(terms, st)
		case *ast.SomeDecl:
			var symbols []*ast.Term
			symbols, err = c.terms(terms.Symbols, st)
			nx.Terms = &ast.SomeDecl{Symbols: symbols, Location: terms.Location}
		}
		if err != nil {
			return nil, err
		}
		out = append(out, &nx)
	}
	return out, nil
}

// bindIndex binds i before x (nil: at the end of the body), unless bound:
// by the pending indices of a row, by iterating the first value about the
// instance x reads, or else the chunk.
func (c *chunkRewriter) bindIndex(out ast.Body, st *bindState, x *ast.Expr) ast.Body {
	if st.index {
		return out
	}
	st.index = true
	if st.pending != nil {
		out = append(out, someIn(nil, iTerm, st.pending))
		st.pending = nil
		return out
	}
	st.rule.bindAt = len(out)
	if x != nil && !x.Negated {
		if at, key, named := c.firstValue(x); at != nil {
			if c.constant[key] {
				c.subst[at] = refTo(named, ast.StringTerm("value"))
				return append(out, someIn(nil, iTerm, refTo(named, ast.StringTerm("indices"))))
			}
			tmp := c.freshVar()
			c.subst[at] = tmp
			return append(out, someIn(iTerm, tmp, named))
		}
	}
	st.inst = true
	return append(out, someIn(iTerm, instTerm, ast.NewTerm(instancesRef)))
}

// refTo is the reference named.steps (named a variable or a reference).
func refTo(named *ast.Term, steps ...*ast.Term) *ast.Term {
	var ref ast.Ref
	if r, ok := named.Value.(ast.Ref); ok {
		ref = r.Copy()
	} else {
		ref = ast.Ref{named}
	}
	return ast.RefTerm(append(ref, steps...)...).SetLocation(named.Location)
}

// firstValue finds a reference to a value about the instance (without a
// default and without steps after it) among the terms of x outside
// comprehensions.
func (c *chunkRewriter) firstValue(x *ast.Expr) (at *ast.Term, key string, named *ast.Term) {
	var visit func(t *ast.Term)
	visit = func(t *ast.Term) {
		if at != nil {
			return
		}
		if k, kind, n, rest, ok := c.resolve(t); ok {
			if kind == kindValue && len(rest) == 0 && c.defaults[k] == nil {
				at, key, named = t, k, n
			}
			return
		}
		switch v := t.Value.(type) {
		case ast.Call:
			for _, e := range v[1:] {
				visit(e)
			}
		case *ast.Array:
			v.Foreach(visit)
		case ast.Object:
			v.Foreach(func(_, val *ast.Term) { visit(val) })
		}
	}
	switch terms := x.Terms.(type) {
	case *ast.Term:
		visit(terms)
	case []*ast.Term:
		for _, t := range terms[1:] {
			visit(t)
		}
	}
	return at, key, named
}

// iterate rewrites `some k, v in COLL` where COLL is the row family or a
// team extension point; done is false for any other declaration.
func (c *chunkRewriter) iterate(decl *ast.SomeDecl, st *bindState, out *ast.Body) (xs []*ast.Expr, done bool, err error) {
	if len(decl.Symbols) != 1 {
		return nil, false, nil
	}
	call, ok := decl.Symbols[0].Value.(ast.Call)
	if !ok || len(call) < 3 {
		return nil, false, nil
	}
	key, kind, named, rest, found := c.resolve(call[len(call)-1])
	if !found || len(rest) > 0 || (kind != kindFamily && kind != kindPoint) {
		return nil, false, nil
	}
	var k *ast.Term
	v := call[len(call)-2]
	if len(call) == 4 {
		k = call[1]
	}
	if st.pending != nil {
		*out = c.bindIndex(*out, st, nil) // the row reached binds i first
	}
	if kind == kindFamily {
		// some name, row in decision: every row; the row's indices bind i
		// where the instance is first needed.
		r := c.freshVar()
		coll := named
		if st.index {
			coll = c.local(st, key, named)
		} else {
			st.rule.bindAt = len(*out)
		}
		xs = append(xs, someIn(k, r, coll))
		if !wildcard(v) {
			xs = append(xs, assign(v, refTo(r, ast.StringTerm("value"))))
		}
		if !st.index {
			st.pending = refTo(r, ast.StringTerm("indices"))
			return xs, true, nil
		}
		return append(xs, member(iTerm, refTo(r, ast.StringTerm("indices")), false)), true, nil
	}
	// some p in data.tenet.decide.force_replace: team elements {"value":
	// [i, message], "rule": handle}, seen as {"value": message, "rule":
	// handle}. object.get, so that the defaults' type checks do not depend
	// on what team rules add.
	if k != nil {
		return nil, true, fmt.Errorf("iterate %v with `some p in`", named)
	}
	el, val := c.freshVar(), c.freshVar()
	if !st.index {
		st.rule.bindAt = len(*out)
	}
	xs = append(xs,
		someIn(nil, el, named),
		assign(val, ast.CallTerm(ast.NewTerm(ast.ObjectGet.Ref()), el, ast.StringTerm("value"), ast.NullTerm())),
	)
	if st.index {
		xs = append(xs, ast.NewExpr([]*ast.Term{ast.NewTerm(ast.Equal.Ref()), ast.RefTerm(val, ast.IntNumberTerm(0)), iTerm}))
	} else {
		st.index = true
		xs = append(xs, assign(iTerm, ast.RefTerm(val, ast.IntNumberTerm(0))))
	}
	if !wildcard(v) {
		xs = append(xs, assign(v, ast.ObjectTerm(
			ast.Item(ast.StringTerm("value"), ast.RefTerm(val, ast.IntNumberTerm(1))),
			ast.Item(ast.StringTerm("rule"), ast.RefTerm(el, ast.StringTerm("rule"))),
		)))
	}
	return xs, true, nil
}

func wildcard(t *ast.Term) bool {
	v, ok := t.Value.(ast.Var)
	return ok && v.IsWildcard()
}

// headTerm rewrites a value or element about the instance, binding what it
// needs at the end of the body.
func (c *chunkRewriter) headTerm(t *ast.Term, body *ast.Body, st *bindState) (*ast.Term, error) {
	x := ast.NewExpr(t)
	if !c.needsInstance(x) {
		return t, nil
	}
	*body = c.bindIndex(*body, st, x)
	if !st.inst && !st.rule.inline && readsInstance(x) {
		*body = append(*body, assign(instTerm, ast.RefTerm(append(instancesRef.Copy(), iTerm)...)))
		st.inst = true
	}
	return c.term(t, st)
}

// needsInstance reports whether x reads the instance: input.instance, or
// a rule, family or extension point about it.
func (c *chunkRewriter) needsInstance(x *ast.Expr) bool {
	found := false
	ast.WalkTerms(x, func(t *ast.Term) bool {
		if found {
			return true
		}
		if ref, ok := t.Value.(ast.Ref); ok && ref.HasPrefix(instanceRef) {
			found = true
		} else if _, _, _, _, ok := c.resolve(t); ok {
			found = true
		}
		return found
	})
	return found
}

func (c *chunkRewriter) terms(ts []*ast.Term, st *bindState) ([]*ast.Term, error) {
	out := make([]*ast.Term, len(ts))
	for j, t := range ts {
		var err error
		if out[j], err = c.term(t, st); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// term rewrites the references of t to the instance, i being bound.
func (c *chunkRewriter) term(t *ast.Term, st *bindState) (*ast.Term, error) {
	if v, ok := c.subst[t]; ok {
		return v, nil
	}
	if ref, ok := t.Value.(ast.Ref); ok && ref.HasPrefix(instanceRef) {
		if !st.inst {
			// Read once: input.instances[i].FIELD.
			return ast.RefTerm(append(append(instancesRef.Copy(), iTerm), ref[len(instanceRef):]...)...).SetLocation(t.Location), nil
		}
		return ast.RefTerm(append(ast.Ref{instTerm}, ref[len(instanceRef):]...)...).SetLocation(t.Location), nil
	}
	if key, kind, named, rest, ok := c.resolve(t); ok {
		if kind != kindValue || c.constant[key] || (c.defaults[key] != nil && len(rest) > 0) {
			return nil, fmt.Errorf("%v: this use of %s, a rule about one instance, is not supported", t, key)
		}
		v := c.local(st, key, named)
		if d := c.defaults[key]; d != nil {
			return ast.CallTerm(ast.NewTerm(ast.ObjectGet.Ref()), v, iTerm, d).SetLocation(t.Location), nil
		}
		return ast.RefTerm(append(ast.Ref{v, iTerm}, rest...)...).SetLocation(t.Location), nil
	}
	var err error
	rewrite := func(x *ast.Term) *ast.Term {
		if err != nil {
			return x
		}
		nt, terr := c.term(x, st)
		if terr != nil {
			err = terr
			return x
		}
		return nt
	}
	inner := func(b ast.Body) ast.Body {
		if err != nil {
			return b
		}
		var nb ast.Body
		nb, err = c.body(b, &bindState{index: true, inst: st.inst, rule: st.rule})
		return nb
	}
	var nt *ast.Term
	switch v := t.Value.(type) {
	case ast.Ref:
		ref := ast.Ref{v[0]}
		for _, step := range v[1:] {
			ref = append(ref, rewrite(step))
		}
		nt = ast.RefTerm(ref...)
	case ast.Call:
		// object.get(V, k, d) where V defaults to {}: one lookup,
		// object.get(V, [i, k], d), rather than two.
		if len(v) == 4 && v[0].Equal(objectGetRef) {
			if key, kind, named, rest, ok := c.resolve(v[1]); ok && kind == kindValue && len(rest) == 0 && isEmptyObject(c.defaults[key]) {
				if _, isString := v[2].Value.(ast.String); isString {
					return ast.CallTerm(v[0], c.local(st, key, named), ast.ArrayTerm(iTerm, v[2]), rewrite(v[3])).SetLocation(t.Location), err
				}
			}
		}
		call := ast.Call{v[0]}
		for _, arg := range v[1:] {
			call = append(call, rewrite(arg))
		}
		nt = ast.NewTerm(call)
	case *ast.Array:
		var elems []*ast.Term
		v.Foreach(func(e *ast.Term) { elems = append(elems, rewrite(e)) })
		nt = ast.ArrayTerm(elems...)
	case ast.Set:
		var elems []*ast.Term
		v.Foreach(func(e *ast.Term) { elems = append(elems, rewrite(e)) })
		nt = ast.SetTerm(elems...)
	case ast.Object:
		var items [][2]*ast.Term
		v.Foreach(func(k, val *ast.Term) { items = append(items, [2]*ast.Term{rewrite(k), rewrite(val)}) })
		nt = ast.ObjectTerm(items...)
	case *ast.ArrayComprehension:
		body := inner(v.Body)
		nt = ast.ArrayComprehensionTerm(rewrite(v.Term), body)
	case *ast.SetComprehension:
		body := inner(v.Body)
		nt = ast.SetComprehensionTerm(rewrite(v.Term), body)
	case *ast.ObjectComprehension:
		body := inner(v.Body)
		nt = ast.ObjectComprehensionTerm(rewrite(v.Key), rewrite(v.Value), body)
	default:
		return t, nil
	}
	return nt.SetLocation(t.Location), err
}

func isEmptyObject(t *ast.Term) bool {
	if t == nil {
		return false
	}
	obj, ok := t.Value.(ast.Object)
	return ok && obj.Len() == 0
}
