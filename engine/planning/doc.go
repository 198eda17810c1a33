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
// Each step hands the next its results as values: the moves stage
// changes only the previous run's state, from which the refreshed state
// starts; resource nodes hand their changes, drift, provenance, facts and
// refreshed objects to one collector (walkResults, results.go), the only
// thing the walk's nodes write and the only lock guarding results; root
// output changes are computed after the walk and passed, with the
// collector's contents, to the step that assembles the plan. Values flow
// between nodes through the eval value store, never through planWalker.
//
// Applying a plan is package applying's, and the two never import each
// other: what both need lives below them (ignorechanges, nodes, graph,
// eval, providercall) or in phase, the contract both share with the
// facade. Decisions themselves are the Rego rules' (package rules); the
// plan's data and encodings belong to engine/plan.
package planning
