// Package eval evaluates configuration expressions: the per-module value
// store a walk fills in as nodes complete (Values, Expansion), the scope
// an expression is evaluated in (Scope, with count/for_each repetition
// and the functions a module may call), count and for_each expansion,
// input variables with their conversion and validation, conditions
// (preconditions, postconditions, check assertions) and the check
// results they report, sensitive marks, the limits on instance counts
// and value depth, and the conversion between state objects and values
// (objects.go).
//
// It does not decide which node to evaluate when, nor what a value means
// for a plan: the graph and the walk order belong to the engine's graph
// code, planning decisions to the planning rules, and provider calls
// other than provider-defined functions and state upgrades to
// providercall.
package eval
