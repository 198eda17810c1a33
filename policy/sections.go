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
	// elems holds, per element root (resource_changes, resource_drift),
	// the member paths of each element the policies can read; nil when
	// the analysis could not tell (elements are kept whole).
	elems map[string]*fieldNode
	// shape is what [Set.Check] converts of the input: nil for all.
	shape *inputShape
}

func analyzeInputUse(modules map[string]*ast.Module) inputUse {
	u := analyzeTopLevel(modules)
	if !u.all {
		u.elems = analyzeElements(modules)
	}
	u.keepSensitiveMarks() // redact.go
	u.shape = u.inputShape(true)
	return u
}

// inputShape is the shape of the input the policies can read; elements
// of the element roots are pruned only when pruneElems is set.
func (u inputUse) inputShape(pruneElems bool) *inputShape {
	if u.all {
		return nil
	}
	sh := &inputShape{members: make(map[string]*inputShape, len(u.keys))}
	for k := range u.keys {
		var sub *inputShape
		if n := u.elems[k]; pruneElems && n != nil {
			sub = &inputShape{array: true, elems: n.shape()}
		}
		sh.members[k] = sub
	}
	return sh
}

// shape converts a tree of needed paths: whole nodes keep their value.
func (n *fieldNode) shape() *inputShape {
	if n.whole {
		return nil
	}
	sh := &inputShape{members: make(map[string]*inputShape, len(n.children))}
	for name, c := range n.children {
		sh.members[name] = c.shape()
	}
	return sh
}

func analyzeTopLevel(modules map[string]*ast.Module) inputUse {
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

// ReadsChangeMember reports whether some policy can read the member at
// path of a resource change (names from the element down, such as
// "change", "after", "tags"): path is needed, lies under a member needed
// whole, or has needed members below it. With no path it reports whether
// any policy reads resource changes at all.
func (s *Set) ReadsChangeMember(path ...string) bool {
	whole, found := s.input.changeMember(path)
	return whole || found
}

// ReadsChangeWhole reports whether some policy can read the whole value
// at path of a resource change, so that nothing below it may be left
// out. ReadsChangeWhole() is false when resource changes are pruned.
func (s *Set) ReadsChangeWhole(path ...string) bool {
	whole, _ := s.input.changeMember(path)
	return whole
}

func (u inputUse) changeMember(path []string) (whole, found bool) {
	const root = "resource_changes"
	switch {
	case u.all:
		return true, true
	case !u.keys[root]:
		return false, false
	case u.elems == nil:
		return true, true
	}
	return u.elems[root].lookup(path)
}

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
