package regokit

import "github.com/open-policy-agent/opa/v1/ast"

// The read set of Rego: what a rule, or any part of one, reads. Several
// analyses (which policies may be checked change by change, which
// instances team rules may skip, whether the decide memo is safe, which
// stage a team file belongs to) all start from the same question, so it
// is answered once here; what each does with the answer stays with it.

// RuleReads is what a rule (or any part of one) refers to directly.
type RuleReads struct {
	// Refs are its references, nested ones included, in the order
	// ast.WalkRefs meets them: those into input and data, those through
	// local variables and the operators of calls.
	Refs []ast.Ref
	// Input: it names input anywhere, as a reference or as a value.
	Input bool
	// BareInput: it uses input itself as a value (the reference input,
	// as OPA parses it, or the variable outside a reference), so it may
	// read all of it.
	BareInput bool
	// With: an expression of it replaces a document or function (`with`).
	With bool
}

// CountUnder is the number of references that start with prefix.
func (rr *RuleReads) CountUnder(prefix ast.Ref) int {
	n := 0
	for _, ref := range rr.Refs {
		if ref.HasPrefix(prefix) {
			n++
		}
	}
	return n
}

// ScanReads finds what x, a module, rule, expression or term, compiled
// or not, refers to directly.
func ScanReads(x any) *RuleReads {
	rr := &RuleReads{}
	var vis *ast.GenericVisitor
	vis = ast.NewGenericVisitor(func(x any) bool {
		switch v := x.(type) {
		case *ast.Expr:
			rr.With = rr.With || len(v.With) > 0
		case *ast.Term:
			if name, ok := v.Value.(ast.Var); ok && name.Equal(ast.InputRootDocument.Value) {
				rr.Input, rr.BareInput = true, true
			}
		case ast.Var: // in a term, or a rule's name or an import's alias
			rr.Input = rr.Input || v.Equal(ast.InputRootDocument.Value)
		case ast.Ref:
			if len(v) == 0 {
				return true
			}
			rr.Refs = append(rr.Refs, v)
			if v[0].Equal(ast.InputRootDocument) {
				rr.Input = true
				rr.BareInput = rr.BareInput || len(v) == 1
			} else {
				vis.Walk(v[0])
			}
			// The head is not input as a value: only the steps are walked.
			for _, step := range v[1:] {
				vis.Walk(step)
			}
			return true
		}
		return false
	})
	vis.Walk(x)
	return rr
}

// RefsUnder reports whether x, a module, rule or any part of one, holds
// a reference starting with prefix. It stops at the first, for callers
// that ask of many small parts.
func RefsUnder(x any, prefix ast.Ref) bool {
	found := false
	ast.WalkRefs(x, func(ref ast.Ref) bool {
		found = found || ref.HasPrefix(prefix)
		return found
	})
	return found
}

// Reads answers what the rules of one compiler read, directly and through
// the rules they depend on, each rule scanned once. Not safe for
// concurrent use: build one per goroutine.
type Reads struct {
	c      *ast.Compiler
	direct map[*ast.Rule]*RuleReads
	input  map[*ast.Rule]bool // memo of ReadsInput
}

// NewReads is the read set of the rules of c, scanned as asked.
func NewReads(c *ast.Compiler) *Reads {
	return &Reads{c: c, direct: map[*ast.Rule]*RuleReads{}, input: map[*ast.Rule]bool{}}
}

// Rule is what r refers to directly.
func (a *Reads) Rule(r *ast.Rule) *RuleReads {
	rr, ok := a.direct[r]
	if !ok {
		rr = ScanReads(r)
		a.direct[r] = rr
	}
	return rr
}

// ReadsInput reports whether r, or any rule it depends on, names input.
func (a *Reads) ReadsInput(r *ast.Rule) bool {
	if in, seen := a.input[r]; seen {
		return in
	}
	// OPA refuses recursion, but a compiler that failed may still hold a
	// cycle: while r is checked, a path back to it reads nothing more.
	a.input[r] = false
	in := a.Rule(r).Input
	if !in {
		for dep := range a.c.Graph.Dependencies(r) {
			if d, ok := dep.(*ast.Rule); ok && a.ReadsInput(d) {
				in = true
				break
			}
		}
	}
	a.input[r] = in
	return in
}

// RefReadsInput reports whether any rule ref may refer to reads input,
// directly or through the rules it depends on.
func (a *Reads) RefReadsInput(ref ast.Ref) bool {
	for _, r := range a.c.GetRules(ref) {
		if a.ReadsInput(r) {
			return true
		}
	}
	return false
}
