// Package engine plans and applies: it is the entry point the CLI calls
// (Engine with Plan, Apply, Validate, Import and WriteGraphDOT) and holds
// the two walks over the configuration graph — planning (plan_*.go with
// moves, targeting, ignore_changes, replace_triggered_by, imports and
// relevant attributes) and applying (apply.go).
//
// The work below the walks lives in packages of its own, each importing
// only the ones under it: engine/nodes (visiting a variable, local,
// output, module call or check node, and configuring providers, the same
// in every phase), engine/graph (building the configuration and apply
// graphs), engine/eval (evaluating expressions: scopes, the value store,
// expansion, conditions, marks) and engine/providercall (the provider
// protocol and its contract checks). The plan's data and encodings belong
// to engine/plan, decision logic to the Rego rules (package rules),
// ordering algorithms to graphsolve, syntax to config and the state file
// to state. Compliance checks (package policy) run after planning and are
// called by the CLI, never from here; process tuning (the collector) is
// the CLI's too.
//
// Values flow as data through the walks: a node writes its values into
// the eval value store once it completes, and dependents read them after.
// The planning walk itself is not yet that clean: planWalker gathers the
// plan's changes, drift, outputs and provenance under one lock as the
// walk goes, and apply reuses a few of the planning files' helpers
// (targeting, ignore_changes). Splitting planning and applying into
// packages of their own, with the plan handed from one to the other as a
// value, is the next step.
package engine
