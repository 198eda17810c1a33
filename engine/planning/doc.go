// Package planning makes a plan: Plan walks the configuration graph
// against the previous run state and returns the plan as a value, which
// applying later reads and never changes. Import is Plan with one
// synthetic import block, as the import command needs.
//
// It owns, in the order a plan meets them: moved blocks and the team
// rules' computed moves (moves.go, team_moves.go), removed blocks
// (removed.go), -target, -exclude and -replace (targets.go,
// moves_targets.go), then per resource node (resource.go): expansion,
// refresh, import blocks (importing.go), the prepare stage's
// ignore_changes (ignore.go), the provider's plan, the Rego decision
// (decide.go, explain.go for the facts kept in the plan) and
// replace_triggered_by (triggers.go); after the walk, root output
// changes (values.go) and the attributes the plan's conditions read
// (relevant.go).
//
// What the walk records for the plan (changes, drift, outputs,
// provenance) is gathered by planWalker under its one lock (walk.go)
// and assembled into the plan once the walk ends; values flow between
// nodes through the eval value store, never through planWalker.
//
// Applying a plan is package applying's, and the two never import each
// other: what both need lives below them (ignorechanges, nodes, graph,
// eval, providercall) or in phase, the contract both share with the
// facade. Decisions themselves are the Rego rules' (package rules); the
// plan's data and encodings belong to engine/plan.
package planning
