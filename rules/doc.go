// Package rules holds tenet's planning decisions, written in Rego, and the
// machinery that loads, compiles and evaluates them.
//
// # What rules owns
//
//   - The default rules, embedded from planning/*.rego (Rego v1). They are
//     the readable specification of action selection: planning/decide.rego
//     is the decision table for resource instance objects (create, no-op,
//     update, the replace variants with their reasons and precedence,
//     orphan reasons, forget via removed blocks, deposed objects, destroy
//     and refresh-only modes, deferred data reads, prevent_destroy), and
//     planning/cbd.rego is create_before_destroy infection. Every rule
//     that can decide something carries `# METADATA` with
//     `custom: {id: ...}`, its id's only spelling: the decision rules name
//     the row or rule that decided (decision.NAME, NAME), and provenance
//     (id, file, line, title) is resolved by name from the compiled
//     annotations at load, never from a table in Go. The whole decision
//     (one row per instance, replace lowered, reasons overridden) is made
//     in Rego; Go only reads it. decide.rego is written about one
//     instance; at load it is rewritten into rules over a chunk of
//     instances that cost what hand-written ones would (chunk_form.go),
//     and evaluator/decide.rego, not part of the rules, reads them.
//   - Team rule files (Options.Team): parsed, sandboxed and compiled with the
//     defaults once, in [New]. A file that fails to parse or compile, calls a
//     built-in that reaches the network, the environment, the clock or
//     randomness (internal/regokit's sandbox list), or redefines a default
//     rule is refused with an hcl.Diagnostic naming file and line.
//   - Failing closed (failclosed.go, limits.go, bounded.go, redact.go): with
//     team rules loaded, every evaluation is bounded in time and heap
//     growth, and a built-in error raised in a team file, an element of the
//     wrong shape, or a crossed bound stops the stage with a [RuleError]
//     naming the rule's file and line.
//   - Evaluation, behind [Engine.Decide], [Engine.Prepare] and the other
//     stage methods: batches are evaluated in chunks on all cores
//     (chunks.go), decisions are remembered by the instance's facts
//     (decide_memo.go; off in the differential tests through
//     Engine.memo.enabled), instances no team rule can select are left
//     out (guards.go), and a chunk is checked for conflicting rows only
//     when some instance lacks exactly one decision (Engine.checkAll
//     checks every chunk). None of this is part of the rules' contract: a
//     stage's result is the same with any chunking, memo or guards.
//   - [RunTests] runs Rego unit tests (*_test.rego) for `tenet rules test`.
//
// # What rules leaves to the engine
//
// Gathering facts (configuration, prior and planned values, requires-replace
// paths already filtered, -replace and replace_triggered_by results, orphan
// facts, effective lifecycle settings), calling providers, placing findings
// in the source (rules report an address; the engine attaches the resource
// block's range) and everything about ordering and applying. rules imports
// nothing from the project but the Rego toolkit, internal/regokit.
//
// # Input seen by rules
//
// Decide presents `input.run` ({"mode", "timestamp"}) and `input.instances`,
// an array of objects with the snake_case names of [Instance]'s fields:
// address, resource, module, mode, type, name, key, deposed, has_config,
// config_known, has_prior, tainted, has_planned, planned_equals_prior,
// requires_replace, lifecycle {create_before_destroy, prevent_destroy},
// force_replace, triggered, dependency_pending, orphan {resource_in_config,
// moved, module_declared, repetition, in_expansion}, removed (null or
// {destroy}). When team rules are loaded, config, prior and planned are
// added JSON-plan style: {"values": known parts, "unknown": tree of true at
// unknown leaves, "sensitive": tree of true at sensitive leaves}, and
// input.run.variables holds the root module's variables.
// ForcedCreateBeforeDestroy presents `input.resources`, each {address,
// create_before_destroy, depends_on}.
//
// # Extension points
//
// Team files extend the default packages by adding to partial sets; any other
// rule in those packages must not reuse a default rule's name. Rules of
// tenet.decide and tenet.prepare are written about one instance,
// input.instance (team_instance.go turns them into the chunk form at load):
//
//	package tenet.decide
//
//	# METADATA
//	# custom:
//	#   id: acme.replace_on_image
//	force_replace contains "image changed" if {
//		inst := input.instance
//		inst.config.values.image != inst.prior.values.image
//	}
//
//	prevent_destroy contains "production databases are kept" if {
//		input.instance.type == "aws_db_instance"
//	}
//
//	package tenet.cbd
//
//	force_create_before_destroy contains "aws_lb.front"
//
// Files written in the chunk form (`some i, inst in input.instances` and
// [i, message] elements) keep working.
//
//   - force_replace: a managed instance with configuration and a usable prior
//     object is replaced as with -replace (reason replace_by_request); a
//     tainted object stays replace_because_tainted, an instance without prior
//     is still created.
//   - prevent_destroy: if the instance's action deletes or replaces the
//     current object, the decision gets an "Instance cannot be destroyed"
//     error carrying the message (never for forget or deposed objects).
//   - force_create_before_destroy: the resource and, transitively, its
//     dependencies are create_before_destroy.
//   - ignore_paths and equivalent (package tenet.prepare, elements are paths
//     in ignore_changes step form): the configuration takes the prior value
//     at path before the provider plans; each carries its own provenance.
//   - moves (package tenet.moves, elements [from, to] addresses): computed
//     moves, evaluated by [Engine.ComputedMoves] (team_moves.go); the engine
//     adds them as root moved blocks after the configuration's (a moved
//     block with the same from wins).
//
// At load time each extension rule's head is wrapped as {"value": <element>,
// "rule": <handle>} so that the decision's provenance names the team rule
// (its METADATA id, or "team:FILE:LINE") and carries its message.
//
// docs/rules.md is the user guide, with the precedence between behaviours;
// docs/performance.md says why evaluation is shaped as it is, with the
// measurements behind it.
package rules
