package rules

import (
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/regokit"
)

// Reading guards off the compiled team rules (see guards.go for what they
// are and how instances are checked against them).

// guardFields are the instance fields conditions may compare: strings
// every stage presents.
var guardFields = map[string]bool{"address": true, "resource": true, "module": true, "type": true, "name": true}

// analyzeGuards reads the guards of the team extension rules of pkg from
// the compiled modules of team files, reads being the read set of c; nil
// when instances may not be left out (see above).
func analyzeGuards(c *ast.Compiler, reads *regokit.Reads, pkg string, teamFiles map[string]bool) *stageGuards {
	points := extensionPoints[pkg]
	g := &stageGuards{}
	for file, m := range c.Modules {
		if !teamFiles[file] {
			continue
		}
		inPkg := m.Package.Path.String() == pkg
		for _, r := range m.Rules {
			rr := reads.Rule(r)
			if rr.With {
				return nil
			}
			isPoint := inPkg && slices.Contains(points, ruleName(r)) && r.Head.Key != nil
			var idx ast.Var
			if isPoint {
				var ok bool
				if idx, ok = elementIndexVar(r.Head.Key, r.Body); !ok {
					return nil
				}
			}
			if !instancesOnlyAt(rr, idx) {
				return nil
			}
			if isPoint {
				g.rules = append(g.rules, ruleConditions(r.Body, idx))
				g.readsValues = append(g.readsValues, ruleReadsValues(r, idx))
			}
		}
	}
	for _, conds := range g.rules {
		if len(conds) == 0 {
			return nil // a rule that may always fire: every instance is evaluated
		}
	}
	g.numberPaths()
	return g
}

// numberPaths gives each distinct path of the conditions, and each prefix
// of one, its slot.
func (g *stageGuards) numberPaths() {
	slots := map[string]int{}
	var number func(p *guardPath)
	number = func(p *guardPath) {
		key := fmt.Sprintf("%d\x00%s\x00%q", p.src, p.name, p.path)
		if n, ok := slots[key]; ok {
			p.slot, p.parent = n, g.paths[n].parent
			return
		}
		p.parent = -1
		if len(p.path) > 0 {
			prefix := guardPath{src: p.src, name: p.name, path: p.path[:len(p.path)-1]}
			number(&prefix)
			p.parent = prefix.slot
		}
		p.slot = len(g.paths)
		slots[key] = p.slot
		g.paths = append(g.paths, *p)
	}
	for _, conds := range g.rules {
		for i := range conds {
			number(&conds[i].at)
			number(&conds[i].other)
			for j := range conds[i].any {
				number(&conds[i].any[j])
			}
		}
	}
}

// elementIndexVar is the variable i of an element {"value": [i, ...], ...},
// which the compiler may have moved into the body (key = {...}) when the
// element holds references.
func elementIndexVar(key *ast.Term, body ast.Body) (ast.Var, bool) {
	if v, isVar := key.Value.(ast.Var); isVar {
		for _, x := range body {
			if x.IsEquality() && !x.Negated && len(x.With) == 0 {
				a, b := x.Operand(0), x.Operand(1)
				if b.Equal(key) {
					a, b = b, a
				}
				if a.Value.Compare(v) == 0 {
					if _, isObj := b.Value.(ast.Object); isObj {
						key = b
						break
					}
				}
			}
		}
	}
	obj, ok := key.Value.(ast.Object)
	if !ok {
		return "", false
	}
	arr, ok := valueAt(obj, keyValue).(*ast.Array)
	if !ok || arr.Len() == 0 {
		return "", false
	}
	v, ok := arr.Elem(0).Value.(ast.Var)
	return v, ok
}

var instancesRef = regokit.Ref(ast.InputRootDocument, "instances")

// instancesOnlyAt reports whether every reference of a rule (read rr) to
// the instances is input.instances[idx] (idx "" allows none), so the rule
// never looks at an instance other than the one it adds an element for.
func instancesOnlyAt(rr *regokit.RuleReads, idx ast.Var) bool {
	if rr.BareInput {
		return false
	}
	for _, ref := range rr.Refs {
		if ref[0].Equal(ast.InputRootDocument) && !instancesRefOK(ref, idx) {
			return false
		}
	}
	return true
}

// instancesRefOK reports whether a reference into input reads the
// instances only as input.instances[idx].
func instancesRefOK(ref ast.Ref, idx ast.Var) bool {
	if len(ref) < 2 {
		return false
	}
	if _, isStr := ref[1].Value.(ast.String); !isStr {
		return false
	}
	if !ref.HasPrefix(instancesRef) {
		return true
	}
	return idx != "" && len(ref) >= 3 && ref[2].Value.Compare(idx) == 0
}

// ruleConditions reads the conditions of a body's top-level expressions
// (not negated: a negated expression holds when its references are
// undefined).
func ruleConditions(body ast.Body, idx ast.Var) []guardCond {
	a := &condReader{idx: idx, instances: map[ast.Var]bool{}, aliases: map[ast.Var]guardPath{}, emptyUnless: map[ast.Var][]guardPath{}}
	for _, x := range body {
		if x.Negated || len(x.With) > 0 {
			continue
		}
		a.expr(x)
	}
	return a.conds
}

type condReader struct {
	idx       ast.Var
	instances map[ast.Var]bool      // variables bound to input.instances[idx]
	aliases   map[ast.Var]guardPath // variables bound to a located value
	// emptyUnless holds variables that are empty collections unless one
	// of the located values is a non-empty one: object.get(X, "k", {})
	// and the object.union of such.
	emptyUnless map[ast.Var][]guardPath
	conds       []guardCond
}

func (a *condReader) expr(x *ast.Expr) {
	switch t := x.Terms.(type) {
	case *ast.Term:
		a.defined(t)
	case []*ast.Term:
		if len(t) == 0 {
			return
		}
		op := t[0].String()
		args := t[1:]
		switch {
		case op == "eq" && len(args) == 2:
			a.unify(args[0], args[1])
		case op == "equal" && len(args) == 2:
			if !a.equalsString(args[0], args[1]) && !a.equalsString(args[1], args[0]) {
				a.defined(args[0])
				a.defined(args[1])
			}
		case guardPredicates[op] && len(args) == 1:
			if at, ok := a.locate(args[0]); ok {
				a.conds = append(a.conds, guardCond{kind: condPredicate, at: at, pred: op})
			}
		case op == "neq" && len(args) == 2:
			x, okX := a.locate(args[0])
			y, okY := a.locate(args[1])
			if okX && okY {
				a.conds = append(a.conds, guardCond{kind: condDiffers, at: x, other: y})
				return
			}
			a.defined(args[0])
			a.defined(args[1])
		case stringOps[op] != nil && len(args) == 2:
			if at, ok := a.locate(args[0]); ok {
				if want, ok := args[1].Value.(ast.String); ok {
					a.conds = append(a.conds, guardCond{kind: condString, at: at, pred: op, want: string(want)})
					return
				}
			}
			a.defined(args[0])
			a.defined(args[1])
		default:
			for _, arg := range args {
				a.defined(arg)
			}
			a.collection(op, args)
		}
	}
}

// unify handles x = y: binding an instance or an alias, comparing with a
// string, or else requiring both sides defined.
func (a *condReader) unify(x, y *ast.Term) {
	for _, pair := range [2][2]*ast.Term{{x, y}, {y, x}} {
		v, isVar := pair[0].Value.(ast.Var)
		if !isVar || v.IsWildcard() || a.instances[v] {
			continue
		}
		if _, bound := a.aliases[v]; bound {
			continue
		}
		if ref, ok := pair[1].Value.(ast.Ref); ok && len(ref) == 3 && ref.HasPrefix(instancesRef) && ref[2].Value.Compare(a.idx) == 0 {
			a.instances[v] = true
			return
		}
		if at, whole, ok := a.locateRef(pair[1]); ok {
			a.conds = append(a.conds, guardCond{kind: condDefined, at: at})
			if whole {
				a.aliases[v] = at
			}
			return
		}
	}
	if a.equalsString(x, y) || a.equalsString(y, x) {
		return
	}
	a.defined(x)
	a.defined(y)
}

// equalsString records "x equals the string constant y".
func (a *condReader) equalsString(x, y *ast.Term) bool {
	s, ok := y.Value.(ast.String)
	if !ok {
		return false
	}
	at, ok := a.locate(x)
	if !ok {
		return false
	}
	a.conds = append(a.conds, guardCond{kind: condEquals, at: at, want: string(s)})
	return true
}

// defined records that t, when it is a located reference, is defined,
// and that a collection it iterates over has an element.
func (a *condReader) defined(t *ast.Term) {
	if at, _, ok := a.locateRef(t); ok {
		a.conds = append(a.conds, guardCond{kind: condDefined, at: at})
	}
	if ref, ok := t.Value.(ast.Ref); ok && len(ref) >= 2 {
		if head, ok := ref[0].Value.(ast.Var); ok {
			if paths, ok := a.emptyUnless[head]; ok {
				a.conds = append(a.conds, guardCond{kind: condNonEmpty, any: paths})
			}
		}
	}
}

// collection follows object.get(X, "k", EMPTY, out) with X located and
// object.union(a, b, out) of such into emptyUnless.
func (a *condReader) collection(op string, args []*ast.Term) {
	out, ok := args[len(args)-1].Value.(ast.Var)
	if !ok {
		return
	}
	switch {
	case op == "object.get" && len(args) == 4:
		if !isEmptyCollection(args[2].Value) {
			return
		}
		at, ok := a.locate(args[0])
		if !ok {
			return
		}
		var steps []string
		switch k := args[1].Value.(type) {
		case ast.String:
			steps = []string{cty.NormalizeString(string(k))}
		case *ast.Array:
			for i := range k.Len() {
				s, ok := k.Elem(i).Value.(ast.String)
				if !ok {
					return
				}
				steps = append(steps, cty.NormalizeString(string(s)))
			}
		default:
			return
		}
		at.path = append(slices.Clip(at.path), steps...)
		a.emptyUnless[out] = []guardPath{at}
	case op == "object.union" && len(args) == 3:
		x, okX := args[0].Value.(ast.Var)
		y, okY := args[1].Value.(ast.Var)
		if !okX || !okY || a.emptyUnless[x] == nil || a.emptyUnless[y] == nil {
			return
		}
		a.emptyUnless[out] = append(slices.Clip(a.emptyUnless[x]), a.emptyUnless[y]...)
	}
}

func isEmptyCollection(v ast.Value) bool {
	switch v := v.(type) {
	case ast.Object:
		return v.Len() == 0
	case *ast.Array:
		return v.Len() == 0
	case ast.Set:
		return v.Len() == 0
	}
	return false
}

// locate finds the value of a located reference or alias, wholly.
func (a *condReader) locate(t *ast.Term) (guardPath, bool) {
	if v, ok := t.Value.(ast.Var); ok {
		at, ok := a.aliases[v]
		return at, ok
	}
	at, whole, ok := a.locateRef(t)
	return at, ok && whole
}

// locateRef finds where a reference points: ok when its leading constant
// part names a guard path (at), whole when the reference is no longer
// than that part.
func (a *condReader) locateRef(t *ast.Term) (at guardPath, whole, ok bool) {
	ref, isRef := t.Value.(ast.Ref)
	if !isRef {
		return guardPath{}, false, false
	}
	var rest ast.Ref
	switch head, _ := ref[0].Value.(ast.Var); {
	case a.instances[head]:
		rest = ref[1:]
	case ref[0].Equal(ast.InputRootDocument) && len(ref) >= 3 && ref.HasPrefix(instancesRef) && ref[2].Value.Compare(a.idx) == 0:
		rest = ref[3:]
	case ref[0].Equal(ast.InputRootDocument) && len(ref) >= 4 && ref[1].Value.Compare(ast.String("run")) == 0 && ref[2].Value.Compare(ast.String("variables")) == 0:
		name, isStr := ref[3].Value.(ast.String)
		if !isStr {
			return guardPath{}, false, false
		}
		path, whole := constantSteps(ref[4:])
		return guardPath{src: srcVariable, name: string(name), path: path}, whole, true
	default:
		return guardPath{}, false, false
	}
	if len(rest) == 0 {
		return guardPath{}, false, false
	}
	field, isStr := rest[0].Value.(ast.String)
	if !isStr {
		return guardPath{}, false, false
	}
	if guardFields[string(field)] && len(rest) == 1 {
		return guardPath{src: srcField, name: string(field)}, true, true
	}
	src, isValue := map[ast.String]guardSource{"config": srcConfig, "prior": srcPrior, "planned": srcPlanned}[field]
	if !isValue || len(rest) < 2 || rest[1].Value.Compare(ast.String("values")) != 0 {
		return guardPath{}, false, false
	}
	path, whole := constantSteps(rest[2:])
	return guardPath{src: src, path: path}, whole, true
}

// constantSteps is the leading run of constant member names of a ref
// tail; whole when that is all of it.
func constantSteps(tail ast.Ref) ([]string, bool) {
	var out []string
	for _, t := range tail {
		s, ok := t.Value.(ast.String)
		if !ok {
			return out, false
		}
		// cty normalizes attribute names and map keys (NFC).
		out = append(out, cty.NormalizeString(string(s)))
	}
	return out, true
}

// ruleReadsValues reports whether a team rule adding elements for index
// idx may read the config, prior or planned value of its instance: it
// names one (in a reference or a string), or uses the instance other than
// through constant member names.
func ruleReadsValues(r *ast.Rule, idx ast.Var) bool {
	instances := map[ast.Var]bool{}
	binding := map[*ast.Expr]bool{}
	ast.WalkExprs(r, func(x *ast.Expr) bool {
		if x.IsEquality() {
			for _, pair := range [2][2]*ast.Term{{x.Operand(0), x.Operand(1)}, {x.Operand(1), x.Operand(0)}} {
				v, isVar := pair[0].Value.(ast.Var)
				ref, isRef := pair[1].Value.(ast.Ref)
				if isVar && isRef && len(ref) == 3 && ref.HasPrefix(instancesRef) && ref[2].Value.Compare(idx) == 0 {
					instances[v] = true
					binding[x] = true
				}
			}
		}
		return false
	})
	valueName := func(t *ast.Term) bool {
		s, ok := t.Value.(ast.String)
		return !ok || s == "config" || s == "prior" || s == "planned"
	}
	reads := false
	var vis *ast.GenericVisitor
	vis = ast.NewGenericVisitor(func(x any) bool {
		if reads {
			return true
		}
		if x, ok := x.(*ast.Expr); ok && binding[x] {
			return true
		}
		t, ok := x.(*ast.Term)
		if !ok {
			return false
		}
		switch v := t.Value.(type) {
		case ast.String:
			reads = v == "config" || v == "prior" || v == "planned"
		case ast.Var:
			reads = instances[v] // the instance itself, as a value
		case ast.Ref:
			rest := v[1:]
			if head, ok := v[0].Value.(ast.Var); ok && instances[head] {
				reads = len(rest) == 0 || valueName(rest[0])
			} else if v.HasPrefix(instancesRef) && len(v) >= 3 {
				rest = v[3:]
				reads = len(rest) == 0 || valueName(rest[0])
			}
			for _, step := range rest {
				vis.Walk(step)
			}
			return true
		}
		return reads
	})
	vis.Walk(r)
	return reads
}
