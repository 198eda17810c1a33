// Package validating checks a configuration without variable values or
// state, as the validate command does (Validate): references name what
// is declared, resource types exist, the graph has no cycle, resource
// arguments fit their provider's schema, and no root output exposes a
// sensitive value undeclared. It walks the configuration graph with every
// variable and resource unknown (walk.go) and reports only what holds for
// every possible value; what depends on real values is planning's.
//
// It is a phase of its own, beside planning and applying and importing
// neither: building the graph is package graph's, evaluating expressions
// eval's, and visiting variable, local and output nodes nodes'.
package validating
