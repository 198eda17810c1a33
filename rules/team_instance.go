package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tenetplan/tenet/internal/regokit"
)

// Team rules of the decide and prepare stages are written about one
// instance, input.instance, and add an element without an index:
//
//	force_replace contains "image changed" if {
//		input.instance.config.values.image != input.instance.prior.values.image
//	}
//
// The evaluator runs a chunk of instances per query, so at load time such a
// rule becomes the chunk form `force_replace contains [i, "image changed"]
// if { some i, inst in input.instances; ... }`, which costs no more than
// one written that way by hand. Rules written in the chunk form are left as
// they are.

// perInstancePackages are the packages whose extension elements belong to
// one instance.
var perInstancePackages = map[string]bool{"data.tenet.decide": true, "data.tenet.prepare": true}

var instanceRef = regokit.Ref(ast.InputRootDocument, "instance")

// Names the rewrite binds; a rule cannot clash with them by accident.
const (
	instanceIndexVar = ast.Var("tenet_instance_index__")
	instanceVar      = ast.Var("tenet_instance__")
)

// readsInstance reports whether x, a rule or any part of one, reads
// input.instance.
func readsInstance(x any) bool {
	return regokit.RefsUnder(x, instanceRef)
}

// instanceUseDiags refuses input.instance in rules that are not extension
// rules of the per-instance packages (tests excepted, which set it with
// `with`): there it would silently be undefined.
func instanceUseDiags(rules []*ast.Rule, pkg string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range rules {
		if strings.HasPrefix(ruleName(r), "test_") || !readsInstance(r) {
			continue
		}
		diags = append(diags, locatedDiag("input.instance outside an extension rule", r.Location,
			fmt.Sprintf("%s in package %s reads input.instance, which only the extension rules of packages tenet.decide and tenet.prepare see. Pass the instance to a function instead, e.g. f(input.instance).", ruleName(r), strings.TrimPrefix(pkg, "data."))))
	}
	return diags
}

// toChunkForm rewrites a per-instance extension rule (one that reads
// input.instance) into the chunk form. A body expression `v :=
// input.instance` names the instance v; references to input.instance read
// that variable.
func toChunkForm(r *ast.Rule) {
	if !readsInstance(r) {
		return
	}
	inst := instanceVar
	for j, x := range r.Body {
		if v, ok := instanceAlias(x); ok {
			inst = v
			r.Body = slices.Delete(r.Body, j, j+1)
			break
		}
	}
	// In place: the visitor reaches every term, `some ... in` included.
	ast.WalkTerms(r, func(t *ast.Term) bool {
		ref, ok := t.Value.(ast.Ref)
		switch {
		case !ok || !ref.HasPrefix(instanceRef):
		case len(ref) == len(instanceRef):
			t.Value = inst
		default:
			t.Value = append(ast.Ref{ast.NewTerm(inst).SetLocation(ref[0].Location)}, ref[len(instanceRef):]...)
		}
		return false
	})
	decl := ast.NewExpr(&ast.SomeDecl{Symbols: []*ast.Term{
		ast.CallTerm(ast.NewTerm(ast.MemberWithKey.Ref()), ast.NewTerm(instanceIndexVar), ast.NewTerm(inst), ast.NewTerm(instancesRef)),
	}})
	r.Body = append(ast.Body{decl}, r.Body...)
	r.Head.Key = ast.ArrayTerm(ast.NewTerm(instanceIndexVar), r.Head.Key)
	ast.WalkTerms(r, func(t *ast.Term) bool {
		if t.Location == nil {
			t.Location = r.Location
		}
		return false
	})
	for j, x := range r.Body {
		x.Index = j
		if x.Location == nil {
			x.Location = r.Location
		}
	}
}

// instanceAlias matches `v := input.instance`.
func instanceAlias(x *ast.Expr) (ast.Var, bool) {
	if !x.IsAssignment() || len(x.With) > 0 || x.Negated {
		return "", false
	}
	v, ok := x.Operand(0).Value.(ast.Var)
	ref, isRef := x.Operand(1).Value.(ast.Ref)
	return v, ok && isRef && ref.Equal(instanceRef)
}
