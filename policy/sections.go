package policy

import (
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
)

// inputUse is what the compiled policies can read of the input: the
// top-level members named by refs like input.resource_changes, or all of
// it when some rule reads input whole (a bare input, input[x] with a
// non-constant x, input given to a function or replaced by `with`).
// Members no rule can reach cannot change any result, so they need not
// be encoded nor converted.
type inputUse struct {
	all  bool
	keys map[string]bool
}

func analyzeInputUse(modules map[string]*ast.Module) inputUse {
	u := inputUse{keys: map[string]bool{}}
	var vis *ast.GenericVisitor
	vis = ast.NewGenericVisitor(func(x any) bool {
		if u.all {
			return true
		}
		var v ast.Value
		switch x := x.(type) {
		case *ast.Term:
			v = x.Value
		case ast.Ref, ast.Var:
			v = x.(ast.Value)
		default:
			return false
		}
		switch v := v.(type) {
		case ast.Var:
			if v == ast.InputRootDocument.Value {
				u.all = true
			}
			return false
		case ast.Ref:
			if !v.HasPrefix(ast.InputRootRef) {
				return false
			}
			if len(v) < 2 {
				u.all = true
				return true
			}
			key, ok := v[1].Value.(ast.String)
			if !ok {
				u.all = true
				return true
			}
			u.keys[string(key)] = true
			for _, t := range v[2:] {
				vis.Walk(t)
			}
			return true
		}
		return false
	})
	for _, m := range modules {
		vis.Walk(m)
		if u.all {
			break
		}
	}
	return u
}

// reads reports whether a top-level member of the input can be read.
func (u inputUse) reads(key string) bool { return u.all || u.keys[key] }

// ReadsInput reports whether some policy of the set can read the
// top-level member key of the plan JSON. [Set.Check] leaves out the
// members it refuses, so callers may leave them out of the JSON too: the
// report is the same.
func (s *Set) ReadsInput(key string) bool { return s.input.reads(key) }

// InputSections lists the top-level members of the plan JSON the
// policies can read, sorted; all is true when they can read any.
func (s *Set) InputSections() (keys []string, all bool) {
	if s.input.all {
		return nil, true
	}
	for k := range s.input.keys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, false
}
