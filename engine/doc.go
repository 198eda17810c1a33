// Package engine is the facade the CLI calls to plan, apply and validate
// (Engine with Plan, Apply, Validate, Import and WriteGraphDOT). It holds
// no walk of its own: each method hands the engine's settings (as a
// phase.Env) and its arguments to the phase that does the work, and the
// options and hook types the CLI sees are those phases' own, under the
// names the CLI uses.
//
// The phases, each a package importing only the ones below it:
// engine/planning (the plan walk: moves, targeting, imports,
// ignore_changes, the Rego decision, replace_triggered_by) and
// engine/applying (the apply walk), which never import each other, and
// engine/validating (validate's walk with unknown values); below them
// engine/phase (what a run is given and reports: Env, Hooks, Scope),
// engine/ignorechanges (ignore_changes' paths and values, for planning
// and applying alike), engine/nodes (visiting a variable, local, output,
// module call or check node, and configuring providers, the same in
// every phase), engine/graph (building the configuration and apply
// graphs), engine/eval (evaluating expressions: scopes, the value store,
// expansion, conditions, marks) and engine/providercall (the provider
// protocol and its contract checks).
//
// The plan is handed from planning to applying as a value. The plan's
// data and encodings belong to engine/plan, decision logic to the Rego
// rules (package rules), ordering algorithms to graphsolve, syntax to
// config and the state file to state. Compliance checks (package policy)
// run after planning and are called by the CLI, never from here; process
// tuning (the collector) is the CLI's too.
package engine
