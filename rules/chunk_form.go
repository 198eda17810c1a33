package rules

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tenetplan/tenet/internal/regokit"
)

// The default decide rules (rules/planning/decide.rego) are written about
// one instance, input.instance. The evaluator presents instances in chunks,
// input.instances: one evaluation has a fixed cost of hundreds of
// microseconds, and a Rego function called per instance costs
// microseconds. At load time chunkForm rewrites each rule about one
// instance into the rule over the chunk that one written by hand would be,
// with the same name:
//
//   - a predicate `P if body` becomes the indices it holds for, P := [i |
//     body'] (a set when an index is tested against it, the union of sets
//     when it has several definitions);
//   - a value that is a constant, such as a row `decision.NAME :=
//     {"action": ..., "reason": ...} if body`, becomes {"value": ...,
//     "indices": [i | body']};
//   - any other value `V := x if body` becomes an object from index to
//     value, V := {i: x | body'}; `default V := d` is the value where V has
//     none;
//   - a set `S contains x if body` gets the elements [i, x].
//
// In body' the index i is bound by the first expression that needs the
// instance. A predicate there is iterated, with the other predicates the
// body tests folded in (some i in P & Q - R for `P; Q; not R`); a value is
// iterated (its indices, or its entries); `some name, row in decision`
// iterates the rows, each row's indices binding i where the instance is
// first needed, so that a condition on the row alone is tested once per
// row; `some p in data.tenet.decide.force_replace` iterates the elements
// team rules added. Any other expression iterates the chunk: some i, inst
// in input.instances. input.instance is input.instances[i], bound where
// first needed. Reading a rule costs microseconds, so the rules an
// instance is tested against are read once, before i is bound.
//
// Rules that never read the instance (normal_mode, lowered) stay as they
// are. A shape the rewrite does not know (a predicate used as a value, a
// function reading the instance) is an error: the default rules are
// tenet's, and such a shape would be slow or wrong.

type chunkKind uint8

const (
	kindPredicate chunkKind = iota + 1
	kindValue
	kindSet
	kindFamily // the common prefix of values decision.NAME
	kindPoint  // a team extension point of the package
)

type chunkRewriter struct {
	pkg      ast.Ref
	kinds    map[string]chunkKind // by path below the package
	defaults map[string]*ast.Term
	// constant: values (and families of them) whose value is a constant,
	// held as {"value": ..., "indices": [...]}.
	constant map[string]bool
	// tested: predicates an index is tested against, held as sets.
	tested map[string]bool
	// subst replaces terms by what stands for them once i is bound.
	subst map[*ast.Term]*ast.Term
	fresh int
}

// chunkForm rewrites the rules about one instance of m, a default module
// of a package whose rules are evaluated in chunks.
func chunkForm(m *ast.Module) error {
	pkg := m.Package.Path
	c := &chunkRewriter{pkg: pkg, kinds: map[string]chunkKind{}, defaults: map[string]*ast.Term{},
		constant: map[string]bool{}, tested: map[string]bool{}, subst: map[*ast.Term]*ast.Term{}}
	for _, p := range extensionPoints[pkg.String()] {
		c.kinds[p] = kindPoint
	}
	perInstance := c.classify(m.Rules)
	byKey := map[string][]*ast.Rule{}
	var order []string
	for _, r := range m.Rules {
		key := headKey(r)
		switch {
		case !perInstance[key]:
			continue
		case len(r.Head.Args) > 0:
			return ruleError(r, "a function cannot read the instance; write a rule about the instance instead")
		case r.Else != nil:
			return ruleError(r, "a rule about one instance cannot have an else branch")
		case r.Default:
			c.defaults[key] = r.Head.Value
			continue
		}
		if _, seen := byKey[key]; !seen {
			order = append(order, key)
		}
		byKey[key] = append(byKey[key], r)
	}
	if err := shadowed(m.Rules); err != nil {
		return err
	}
	families := map[string][]string{}
	for _, key := range order {
		kind, err := ruleKind(byKey[key])
		if err != nil {
			return err
		}
		c.kinds[key] = kind
		if ref := byKey[key][0].Head.Ref(); len(ref) > 1 {
			families[ref[:1].String()] = append(families[ref[:1].String()], key)
		}
	}
	for _, key := range order {
		c.constant[key] = c.kinds[key] == kindValue && c.defaults[key] == nil && c.constantValue(byKey[key])
	}
	for family, keys := range families {
		c.kinds[family], c.constant[family] = kindFamily, true
		for _, key := range keys {
			if !c.constant[key] {
				return fmt.Errorf("%s: the rules of %s must be values that are constants", key, family)
			}
		}
	}
	for key := range c.defaults {
		if c.kinds[key] != kindValue {
			return fmt.Errorf("default %s: only a value about one instance can have a default", key)
		}
	}
	dropped := map[*ast.Rule]bool{}
	var finish []func()
	for _, key := range order {
		rules := byKey[key]
		done, err := c.rewrite(key, rules)
		if err != nil {
			return err
		}
		finish = append(finish, done)
		for _, r := range rules[1:] {
			dropped[r] = !c.partial(key, rules)
		}
	}
	// Whether a predicate is tested is known once every rule is rewritten.
	for _, done := range finish {
		done()
	}
	kept := m.Rules[:0]
	for _, r := range m.Rules {
		if !dropped[r] && !(r.Default && c.defaults[headKey(r)] != nil) {
			kept = append(kept, r)
		}
	}
	m.Rules = kept
	return nil
}

// shadowed refuses a variable named like a rule of the module: the rewrite
// tells rules from variables by name.
func shadowed(rules []*ast.Rule) error {
	names := map[ast.Var]bool{}
	for _, r := range rules {
		if v, ok := r.Head.Ref()[0].Value.(ast.Var); ok {
			names[v] = true
		}
	}
	var err error
	check := func(r *ast.Rule, t *ast.Term) {
		if v, ok := t.Value.(ast.Var); ok && names[v] && err == nil {
			err = ruleError(r, fmt.Sprintf("the variable %s has the name of a rule", v))
		}
	}
	for _, r := range rules {
		ast.WalkExprs(r, func(x *ast.Expr) bool {
			switch terms := x.Terms.(type) {
			case *ast.SomeDecl:
				for _, sym := range terms.Symbols {
					if call, ok := sym.Value.(ast.Call); ok {
						for _, t := range call[1 : len(call)-1] {
							check(r, t)
						}
					} else {
						check(r, sym)
					}
				}
			case []*ast.Term:
				if x.IsAssignment() {
					check(r, terms[1])
				}
			}
			return false
		})
		for _, arg := range r.Head.Args {
			check(r, arg)
		}
	}
	return err
}

func ruleError(r *ast.Rule, msg string) error {
	return fmt.Errorf("%s: %s: %s", r.Location, headKey(r), msg)
}

// headKey names a rule by its path below the package: "data_source",
// "decision.read_now".
func headKey(r *ast.Rule) string { return r.Head.Ref().String() }

// classify finds the rules about one instance: those that read
// input.instance or a team extension point, the rules of a family (same
// first name) one of which is about the instance, and, until nothing
// changes, the rules that refer to one about the instance.
func (c *chunkRewriter) classify(rules []*ast.Rule) map[string]bool {
	per := map[string]bool{}
	for _, r := range rules {
		if readsInstance(r) || c.mentions(r, func(k string) bool { return c.kinds[k] == kindPoint }) {
			per[headKey(r)] = true
		}
	}
	for changed := true; changed; {
		changed = false
		families := map[string]bool{}
		for _, r := range rules {
			if ref := r.Head.Ref(); len(ref) > 1 && per[headKey(r)] {
				families[ref[:1].String()] = true
			}
		}
		for _, r := range rules {
			key := headKey(r)
			if per[key] {
				continue
			}
			ref := r.Head.Ref()
			if (len(ref) > 1 && families[ref[:1].String()]) || c.mentions(r, func(k string) bool { return per[k] || families[k] }) {
				per[key], changed = true, true
			}
		}
	}
	return per
}

// mentions reports whether r refers to a rule of the package for whose
// path is reports true.
func (c *chunkRewriter) mentions(r *ast.Rule, is func(key string) bool) bool {
	found := false
	ast.WalkTerms(r, func(t *ast.Term) bool {
		if found {
			return true
		}
		for _, key := range c.candidateKeys(t) {
			found = found || is(key)
		}
		return found
	})
	return found
}

// candidateKeys are the paths below the package a term may name: every
// prefix of a reference (decision, decision.read_now, ...) or a variable.
func (c *chunkRewriter) candidateKeys(t *ast.Term) []string {
	path := c.localPath(t)
	keys := make([]string, 0, len(path))
	for n := 1; n <= len(path); n++ {
		if _, ok := path[n-1].Value.(ast.String); n > 1 && !ok {
			break
		}
		keys = append(keys, path[:n].String())
	}
	return keys
}

// localPath is the reference a term makes, relative to the package: P for
// a variable P, decision.read_now for data.tenet.decide.decision.read_now.
func (c *chunkRewriter) localPath(t *ast.Term) ast.Ref {
	switch v := t.Value.(type) {
	case ast.Var:
		return ast.Ref{t}
	case ast.Ref:
		if v.HasPrefix(c.pkg) && len(v) > len(c.pkg) {
			s, ok := v[len(c.pkg)].Value.(ast.String)
			if !ok {
				return nil
			}
			return append(ast.Ref{ast.VarTerm(string(s))}, v[len(c.pkg)+1:]...)
		}
		if _, ok := v[0].Value.(ast.Var); ok {
			return v
		}
	}
	return nil
}

// resolve finds the per-instance rule, family or extension point a term
// refers to, the reference that names it (as written) and the steps after
// it.
func (c *chunkRewriter) resolve(t *ast.Term) (key string, kind chunkKind, named *ast.Term, rest ast.Ref, ok bool) {
	path := c.localPath(t)
	if path == nil {
		return "", 0, nil, nil, false
	}
	keys := c.candidateKeys(t)
	for n := len(keys); n >= 1; n-- {
		if k, found := c.kinds[keys[n-1]]; found {
			// As written: a variable, or a reference that may carry the
			// package prefix.
			named = t
			if ref, isRef := t.Value.(ast.Ref); isRef {
				named = ast.RefTerm(ref[:len(ref)-len(path)+n]...).SetLocation(t.Location)
			}
			return keys[n-1], k, named, path[n:], true
		}
	}
	return "", 0, nil, nil, false
}

// ruleKind tells what the definitions of one rule about the instance are.
func ruleKind(rules []*ast.Rule) (chunkKind, error) {
	var kind chunkKind
	for _, r := range rules {
		k := kindValue
		switch {
		case r.Head.RuleKind() == ast.MultiValue:
			k = kindSet
		case len(r.Head.Ref()) == 1 && ast.BooleanTerm(true).Equal(r.Head.Value):
			k = kindPredicate
		}
		if kind != 0 && k != kind {
			return 0, ruleError(r, "definitions of different kinds")
		}
		kind = k
	}
	return kind, nil
}

// constantValue reports whether the definitions of a value give one value
// that does not depend on the instance.
func (c *chunkRewriter) constantValue(rules []*ast.Rule) bool {
	v := rules[0].Head.Value
	for _, r := range rules {
		if !r.Head.Value.IsGround() || !r.Head.Value.Equal(v) || c.needsInstance(ast.NewExpr(r.Head.Value)) {
			return false
		}
	}
	return true
}

// ruleState is what the rewrite of one definition tracks across its body,
// head and comprehensions: the rules read once before i is bound.
type ruleState struct {
	bindAt  int // where i is bound in the definition's body
	hoisted []*ast.Expr
	locals  map[string]*ast.Term
	// inline: the definition reads input.instance once, as
	// input.instances[i] rather than through a variable.
	inline bool
}

// bindState tracks, along one body, whether i and the instance are bound.
type bindState struct {
	index, inst bool
	// pending holds the indices of the row a family iteration reached,
	// which bind i where the instance is first needed.
	pending *ast.Term
	rule    *ruleState
}

var (
	iTerm    = ast.NewTerm(instanceIndexVar)
	instTerm = ast.NewTerm(instanceVar)
)

func (c *chunkRewriter) freshVar() *ast.Term {
	c.fresh++
	return ast.VarTerm(fmt.Sprintf("tenet_chunk%d__", c.fresh))
}

// local is a variable holding the rule named (read once, before i is
// bound).
func (c *chunkRewriter) local(st *bindState, key string, named *ast.Term) *ast.Term {
	if v, ok := st.rule.locals[key]; ok {
		return v
	}
	v := c.freshVar()
	st.rule.locals[key] = v
	st.rule.hoisted = append(st.rule.hoisted, assign(v, named))
	return v
}

// rewrite turns the bodies of the definitions of one rule about the
// instance into the chunk form; done sets the rule's head (once every rule
// is rewritten, when it is known which predicates are tested).
func (c *chunkRewriter) rewrite(key string, rules []*ast.Rule) (done func(), err error) {
	kind := c.kinds[key]
	var heads []*ast.Term
	var bodies []ast.Body
	for _, r := range rules {
		reads := regokit.ScanReads(r).CountUnder(instanceRef)
		st := &bindState{rule: &ruleState{locals: map[string]*ast.Term{}, inline: reads == 1}}
		body, err := c.body(r.Body, st)
		if err != nil {
			return nil, ruleError(r, err.Error())
		}
		var head *ast.Term
		switch {
		case kind == kindSet:
			head = r.Head.Key
		case kind == kindValue && !c.constant[key]:
			head = r.Head.Value
		}
		if head != nil {
			if head, err = c.headTerm(head, &body, st); err != nil {
				return nil, ruleError(r, err.Error())
			}
		}
		body = c.bindIndex(body, st, nil)
		if h := st.rule.hoisted; len(h) > 0 {
			at := st.rule.bindAt
			body = append(body[:at], append(h, body[at:]...)...)
		}
		heads, bodies = append(heads, head), append(bodies, body)
	}
	if c.partial(key, rules) {
		// One rule per definition, partial as a set or object: P contains
		// i, V[i] := x, S contains [i, x]. (Two definitions giving one
		// instance different values are an error, as in Rego.)
		for j, r := range rules {
			h := &ast.Head{Name: r.Head.Name, Reference: r.Head.Reference, Key: iTerm, Location: r.Head.Location}
			switch kind {
			case kindSet:
				h.Key = ast.ArrayTerm(iTerm, heads[j])
			case kindValue:
				h.Reference, h.Value, h.Assign = append(r.Head.Ref().Copy(), iTerm), heads[j], true
			}
			r.Head, r.Body = h, bodies[j]
			fixLocations(r)
		}
		return func() {}, nil
	}
	first := rules[0]
	return func() {
		switch {
		case kind == kindPredicate:
			first.Head.Value = c.indices(bodies, c.tested[key])
		case c.constant[key]:
			first.Head.Value = ast.ObjectTerm(
				ast.Item(ast.StringTerm("value"), first.Head.Value),
				ast.Item(ast.StringTerm("indices"), c.indices(bodies, false)),
			)
		default:
			first.Head.Value = ast.ObjectComprehensionTerm(iTerm, heads[0], bodies[0])
		}
		first.Head.Assign = true
		first.Body = ast.NewBody(ast.NewExpr(ast.BooleanTerm(true)))
		fixLocations(first)
	}, nil
}

// partial reports whether a rule about the instance becomes partial rules,
// one per definition: sets, and predicates and values (other than
// constants) with several definitions. The others become one complete rule
// holding a comprehension.
func (c *chunkRewriter) partial(key string, rules []*ast.Rule) bool {
	return c.kinds[key] == kindSet || (len(rules) > 1 && !c.constant[key])
}

// indices is the comprehension of the indices the bodies bind: an array,
// or a set when an index is tested against it or there are several bodies
// (a constant with several definitions, whose indices may repeat).
func (c *chunkRewriter) indices(bodies []ast.Body, set bool) *ast.Term {
	if len(bodies) == 1 && !set {
		return ast.ArrayComprehensionTerm(iTerm, bodies[0])
	}
	var union *ast.Term
	for _, b := range bodies {
		union = setOp(ast.Or, union, ast.SetComprehensionTerm(iTerm, b))
	}
	return union
}

// setOp is acc OP t (t when acc is nil).
func setOp(op *ast.Builtin, acc, t *ast.Term) *ast.Term {
	if acc == nil {
		return t
	}
	return ast.CallTerm(ast.NewTerm(op.Ref()), acc, t)
}

// someIn is `some k, v in coll` (`some v in coll` when k is nil).
func someIn(k, v, coll *ast.Term) *ast.Expr {
	if k == nil {
		return ast.NewExpr(&ast.SomeDecl{Symbols: []*ast.Term{ast.CallTerm(ast.NewTerm(ast.Member.Ref()), v, coll)}})
	}
	return ast.NewExpr(&ast.SomeDecl{Symbols: []*ast.Term{ast.CallTerm(ast.NewTerm(ast.MemberWithKey.Ref()), k, v, coll)}})
}

func member(x, coll *ast.Term, negated bool) *ast.Expr {
	e := ast.NewExpr([]*ast.Term{ast.NewTerm(ast.Member.Ref()), x, coll})
	e.Negated = negated
	return e
}

func assign(v, x *ast.Term) *ast.Expr {
	return ast.NewExpr([]*ast.Term{ast.NewTerm(ast.Assign.Ref()), v, x})
}

// fixLocations gives the terms and expressions the rewrite made the rule's
// location, and numbers the expressions of every body.
func fixLocations(r *ast.Rule) {
	ast.WalkTerms(r, func(t *ast.Term) bool {
		if t.Location == nil {
			t.Location = r.Location
		}
		return false
	})
	ast.WalkBodies(r, func(b ast.Body) bool {
		for j, x := range b {
			x.Index = j
			if x.Location == nil {
				x.Location = r.Location
			}
		}
		return false
	})
}

// chunkFormPackages are the packages whose default rules are written about
// one instance.
var chunkFormPackages = map[string]bool{"data.tenet.decide": true}
