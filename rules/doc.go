// Package rules holds tenet's planning decisions, written in Rego, and the
// machinery that loads, compiles and evaluates them.
//
// # What rules owns
//
//   - The default rules, embedded from planning/*.rego (Rego v1). They are the
//     readable specification of action selection: planning/decide.rego is the
//     decision table for resource instance objects (create, no-op, update,
//     the replace variants with their reasons and precedence, orphan
//     reasons, forget via removed blocks, deposed objects, destroy and
//     refresh-only modes, deferred data reads, prevent_destroy), and
//     planning/cbd.rego is create_before_destroy infection. Every rule that
//     can decide something carries `# METADATA` with `custom: {id: ...}`;
//     provenance (file, line, title) is resolved from the compiled
//     annotations, never from a table in Go.
//   - Team rule files (Options.Team): parsed, sandboxed and compiled with the
//     defaults once, in [New]. A file that fails to parse or compile, calls a
//     built-in that reaches the network, the environment, the clock or
//     randomness (forbiddenBuiltins in engine.go: every built-in OPA marks
//     non-deterministic, those that check times against the clock, and the
//     time built-ins given the zone "Local"), or redefines a default rule is
//     refused with an hcl.Diagnostic naming file and line.
//   - Failing closed (failclosed.go, limits.go): with team rules loaded,
//     every evaluation is bounded in time and heap growth, and a built-in
//     error raised in a team file (other than an operand of the wrong
//     type), an element of the wrong shape, or a crossed bound stops the
//     stage with a [RuleError] naming the rule's file and line. Team files
//     call bounded copies of the built-ins that can build huge values in
//     one call (bounded.go). Decide
//     messages are read with the instance's sensitive values cut out
//     (redact.go).
//   - Evaluation: [Engine.Decide] builds the input directly as ast.Value,
//     splits the batch into chunks of 100–500 instances (one Eval has a fixed
//     cost of tens of microseconds) and evaluates chunks on
//     runtime.GOMAXPROCS goroutines sharing one prepared query; order is
//     preserved. Without team rules, single-instance decisions (the
//     dependency-ordered walk of a chain) are remembered by the instance's
//     facts, names excluded, so equal facts are evaluated once
//     (decide_memo.go). [Engine.ForcedCreateBeforeDestroy] evaluates the graph stage
//     once per plan; its closure calls the Go built-in tenet.reachable, a
//     linear breadth-first search (Rego's graph.reachable explodes on
//     diamond-shaped graphs).
//   - [RunTests] runs Rego unit tests (*_test.rego) for `tenet rules test`.
//
// # What rules leaves to the engine
//
// Gathering facts (configuration, prior and planned values, requires-replace
// paths already filtered, -replace and replace_triggered_by results, orphan
// facts, effective lifecycle settings), calling providers, placing findings
// in the source (rules report an address and an attribute path, the engine
// attaches the resource block's range) and everything about ordering and
// applying. rules imports nothing from the project.
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
// unknown leaves, "sensitive": tree of true at sensitive leaves}.
// ForcedCreateBeforeDestroy presents `input.resources`, each {address,
// create_before_destroy, depends_on}.
//
// # Extension points
//
// Team files extend the default packages by adding to partial sets; any other
// rule in those packages must not reuse a default rule's name. Elements name
// the instance by its index i in input.instances:
//
//		package tenet.decide
//
//		# METADATA
//		# custom:
//		#   id: acme.replace_on_image
//		force_replace contains [i, "image changed"] if {
//			some i, inst in input.instances
//			inst.config.values.image != inst.prior.values.image
//		}
//
//		prevent_destroy contains [i, "production databases are kept"] if {
//			some i, inst in input.instances
//			inst.type == "aws_db_instance"
//		}
//
//		package tenet.cbd
//
//		force_create_before_destroy contains "aws_lb.front"
//
//	  - force_replace: a managed instance with configuration and a usable prior
//	    object is replaced as with -replace (reason replace_by_request); a
//	    tainted object stays replace_because_tainted, an instance without prior
//	    is still created.
//	  - prevent_destroy: if the instance's action deletes or replaces the
//	    current object, the decision gets an "Instance cannot be destroyed"
//	    error carrying the message (never for forget or deposed objects).
//	  - force_create_before_destroy: the resource and, transitively, its
//	    dependencies are create_before_destroy.
//	  - ignore_paths and equivalent (package tenet.prepare, elements [i, path]
//	    with path in ignore_changes step form): the configuration takes the
//	    prior value at path before the provider plans; both feed `ignore` and
//	    carry their own provenance (planning/prepare_extensions.rego). The
//	    engine's query reads the elements themselves and merges them in Go
//	    (prepare.go, decodePreparations) rather than building the unions.
//	    A team prevent_destroy rule is only evaluated when the chunk destroys
//	    something (planning/decide.rego).
//	  - moves (package tenet.moves, elements [from, to] addresses): computed
//	    moves, evaluated by [Engine.ComputedMoves] over input.state.resources
//	    and input.config.resources (team_moves.go); the engine adds them as
//	    root moved blocks after the configuration's (a moved block with the
//	    same from wins).
//
// Team rules also see input.run.variables (root module variables, set by the
// engine when [Engine.TeamRulesLoaded]). Values (config, prior, planned) are
// only built for a stage whose package a team rule extends, only those a
// team file names, and only the top-level attributes it names when every
// mention is X.config.values.NAME (team.go, valueOmissions). Converting them
// is most of what team rules cost, so values.go also shares terms: the
// decide stage reuses the terms the prepare stage built for the same
// instance ([Instance.Prepared]), a prior (planned) object's attributes that
// equal the configuration's (prior's) share their terms, and a chunk shares
// one term per attribute name and short string. Instances no team rule of
// a stage can add an element for are left out of its evaluation entirely:
// guards.go reads each team rule's conditions that an instance's facts
// settle (values that must be defined, fields and variables equal to a
// string, type tests, iteration over object.get with an empty default).
// docs/rules.md is the user guide, with the precedence between behaviours.
//
// At load time each extension rule's head is wrapped as {"value": <element>,
// "rule": <handle>} so that the decision's provenance names the team rule
// (its METADATA id, or "team:FILE:LINE") and carries its message.
//
// Rules are written as comprehensions over the chunk rather than functions
// called per instance: in OPA a user function call costs microseconds, and
// `not` costs a nested evaluation, while one more condition in a
// comprehension costs a fraction of that. Helper sets tested for membership
// are complete rules, because membership in a partial set re-evaluates its
// bodies for every probe.
package rules
