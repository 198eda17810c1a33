package regokit

import "github.com/open-policy-agent/opa/v1/ast"

// Annotation is one METADATA block of a compiled set: the provenance
// it gives the node it annotates.
type Annotation struct {
	// Scope is rule, document, package or subpackages.
	Scope string
	// ID is custom.id when it is a string: a rule's id is written there
	// and nowhere else.
	ID                 string
	Title, Description string
	// Location is the annotated node's (nil when unknown).
	Location *ast.Location
}

// Annotations lists the METADATA blocks of a compiled set in the set's
// order.
func Annotations(as *ast.AnnotationSet) []Annotation {
	flat := as.Flatten()
	out := make([]Annotation, 0, len(flat))
	for _, ref := range flat {
		a := ref.Annotations
		id, _ := a.Custom["id"].(string)
		out = append(out, Annotation{Scope: a.Scope, ID: id, Title: a.Title, Description: a.Description, Location: ref.Location})
	}
	return out
}

// Chain lists the METADATA that applies to r, nearest first (rule,
// document, package, subpackages).
func Chain(as *ast.AnnotationSet, r *ast.Rule) []*ast.Annotations {
	if as == nil {
		return nil
	}
	var out []*ast.Annotations
	for _, ref := range as.Chain(r) {
		if ref != nil && ref.Annotations != nil {
			out = append(out, ref.Annotations)
		}
	}
	return out
}

// Describe is r's title and description: each from the nearest METADATA
// of rule, document or package scope that has one ("" when none does).
func Describe(as *ast.AnnotationSet, r *ast.Rule) (title, description string) {
	for _, a := range Chain(as, r) {
		switch a.Scope {
		case "rule", "document", "package":
			if title == "" {
				title = a.Title
			}
			if description == "" {
				description = a.Description
			}
		}
	}
	return title, description
}
