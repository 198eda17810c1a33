// Package plan holds plans as data: the changes planning decided on, the
// states they were decided against, the rule provenance and decision facts
// of each change, and the outputs' changes.
//
// It also answers the questions callers ask of a finished plan: how the
// reasons are spelled in JSON and in the UIs (the actions' spellings are
// plan/action's), what the summary line counts, and whether the plan is
// worth applying.
//
// Encodings live in subpackages, the way state's do: plan/planjson writes
// and reads the JSON plan of `show -json`, plan/planfile saved plan files.
// plan/plantest builds plans and plan documents for tests. It never plans
// anything itself (that is package engine) and knows nothing of
// configuration syntax: the engine hands it the configuration's JSON view
// ready-made.
package plan
