package policy

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Collection rules: complete rules whose value is an array collecting
// resource change elements (`changes := [rc | some rc in input.resource_changes; ...]`).
// Element pruning follows reads through them; these find them and check
// that each pass of the analysis confirms what it assumed.

// findCandidates lists the rules shaped `R := H if { H = [T | …] }`
// (every definition so), which no policy query reads directly and no
// other rule nests under or above.
func (a *elemAnalyzer) findCandidates() {
	prefixes := map[string]bool{}
	for key := range a.rules {
		parts := strings.Split(key, "\x00")
		for i := 1; i < len(parts); i++ {
			prefixes[strings.Join(parts[:i], "\x00")] = true
		}
	}
	for key, rs := range a.rules {
		if prefixes[key] {
			continue
		}
		parts := strings.Split(key, "\x00")
		nested := false
		for i := 1; i < len(parts); i++ {
			if _, ok := a.rules[strings.Join(parts[:i], "\x00")]; ok {
				nested = true
			}
		}
		ok := !nested
		for _, r := range rs {
			ok = ok && collShaped(r)
		}
		if ok {
			a.candidates[key] = true
			for _, r := range rs {
				a.collOf[r] = key
			}
		}
	}
}

func collShaped(r *ast.Rule) bool {
	if r.Default || r.Else != nil || len(r.Head.Args) > 0 || r.Head.Key != nil || r.Head.Value == nil || len(r.Body) != 1 {
		return false
	}
	if ref := r.Head.Ref(); len(ref) == 1 {
		name := string(ref[0].Value.(ast.Var))
		if ruleKind(name) != "" || strings.HasPrefix(name, "__tenet_policy_") {
			return false // a policy query reads its value
		}
	}
	h, ok := r.Head.Value.Value.(ast.Var)
	if !ok {
		return false
	}
	e := r.Body[0]
	terms, ok := e.Terms.([]*ast.Term)
	if !ok || e.Negated || len(e.With) > 0 || len(terms) != 3 || !isEq(terms[0]) {
		return false
	}
	for _, pair := range [][2]*ast.Term{{terms[1], terms[2]}, {terms[2], terms[1]}} {
		if v, ok := pair[0].Value.(ast.Var); ok && v == h {
			if _, ok := pair[1].Value.(*ast.ArrayComprehension); ok {
				return true
			}
		}
	}
	return false
}

func isEq(op *ast.Term) bool {
	ref, ok := op.Value.(ast.Ref)
	return ok && (ref.Equal(ast.Equality.Ref()) || ref.Equal(ast.Assign.Ref()))
}

// confirmedColls are the candidates every definition of which produced
// the same collection in the last pass.
func (a *elemAnalyzer) confirmedColls() map[string]collRule {
	out := map[string]collRule{}
	for key, vals := range a.observed {
		if len(vals) != len(a.rules[key]) {
			continue
		}
		ok := true
		for _, v := range vals {
			ok = ok && v.kind == absColl && sameAbs(v, vals[0])
		}
		if ok {
			out[key] = collRule{path: strings.Split(key, "\x00"), elem: absVal{kind: absElem, root: vals[0].root, path: vals[0].path}}
		}
	}
	return out
}

func sameAbs(x, y absVal) bool {
	if x.kind != y.kind || x.root != y.root || len(x.path) != len(y.path) {
		return false
	}
	for i := range x.path {
		if x.path[i] != y.path[i] {
			return false
		}
	}
	return true
}

func sameColls(x, y map[string]collRule) bool {
	if len(x) != len(y) {
		return false
	}
	for k, c := range x {
		d, ok := y[k]
		if !ok || !sameAbs(c.elem, d.elem) {
			return false
		}
	}
	return true
}
