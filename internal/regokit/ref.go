package regokit

import "github.com/open-policy-agent/opa/v1/ast"

// Ref builds the reference root.key1.key2… (root is ast.InputRootDocument
// or ast.DefaultRootDocument) without OPA's parser, so the package-level
// refs of rules and policy cost nothing at start-up: the first parse of a
// process pays for the parser's cold code, which would run before main on
// every command.
func Ref(root *ast.Term, keys ...string) ast.Ref {
	ref := make(ast.Ref, 0, 1+len(keys))
	ref = append(ref, root)
	for _, k := range keys {
		ref = append(ref, ast.StringTerm(k))
	}
	return ref
}
