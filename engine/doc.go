// Package engine plans and applies: it evaluates configuration into
// values, expands count and for_each, gathers the facts each planning rule
// needs, asks the providers for planned and applied objects, hands the
// decisions to the rules (package rules) and orders the work with package
// graphsolve.
//
// It owns orchestration only. Syntax and static decoding belong to
// config, the state file to state, the plan's data and encodings to
// engine/plan, decision logic to the Rego rules, and ordering algorithms
// to graphsolve. Compliance checks (package policy) run after planning
// and are called by the CLI, never from here.
//
// Values flow as data: a walk writes each node's result into a values
// store once the node completes, and dependents read it after. No god
// object is passed around and mutated by everyone.
package engine
