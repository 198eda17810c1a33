# METADATA
# title: moved blocks and implied moves
# description: |
#   The "moves" stage. input.statements lists the explicit moved blocks of
#   every module followed by the implied count moves the engine found in the
#   state. Each endpoint carries its kind as written, its module steps as an
#   absolute pattern (the declaring module's steps have the key "[*]": a
#   statement applies to every instance of its module), its resource and
#   instance key. Before the walk the engine reads `kinds`, `order`,
#   `skipped` and `cross_type` and executes the moves in that order; after
#   the walk it calls again with input.validate, the `declared` facts of each
#   statement and the moves that were blocked, and reports `errors` (which
#   replace every other diagnostic) or else `warnings`.
package tenet.moves

result := {
	"kinds": kinds,
	"order": order,
	"skipped": skipped,
	"cyclic": sort([i | some i in cyclic]),
	"cross_type": sort([i | some i in cross_type]),
	"errors": errors,
	"warnings": warnings,
}

# ---------------------------------------------------------------------------
# Unification: both endpoints of a statement are read as the most specific
# kind either of them has (an instance with a key makes both instances, the
# keyless side meaning the no-key instance; a keyed module instance makes both
# module instances; otherwise whole resources or whole module calls).
# ---------------------------------------------------------------------------

kind_rank := {"module_call": 0, "module_instance": 1, "resource": 2, "instance": 3}

kind_by_rank := ["module_call", "module_instance", "resource", "instance"]

# METADATA
# title: Both endpoints of a moved block are read as the most specific kind of either
# custom:
#   id: tenet.moves.unify
kinds := {i: kind_by_rank[r] |
	some i, s in input.statements
	r := max([kind_rank[s.from.kind], kind_rank[s.to.kind]])
}

module_step(s) := sprintf("module.%s%s", [s.name, s.key])

module_path(mods) := concat(".", [module_step(s) | some s in mods])

resource_prefix(mods) := "" if {
	count(mods) == 0
} else := concat("", [module_path(mods), "."])

# address(ep, kind) is how an endpoint reads under a unified kind; two
# endpoints of the same kind name the same objects exactly when their
# addresses are equal.
address(ep, "instance") := concat("", [resource_prefix(ep.modules), ep.resource, ep.key])

address(ep, "resource") := concat("", [resource_prefix(ep.modules), ep.resource])

address(ep, "module_instance") := module_path(ep.modules)

address(ep, "module_call") := module_path(array.concat(
	array.slice(ep.modules, 0, count(ep.modules) - 1),
	[{"name": ep.modules[count(ep.modules) - 1].name, "key": ""}],
))

from_address := {i: address(s.from, kinds[i]) | some i, s in input.statements}

to_address := {i: address(s.to, kinds[i]) | some i, s in input.statements}

# ---------------------------------------------------------------------------
# Implied moves
# ---------------------------------------------------------------------------

# METADATA
# title: An implied count move is dropped when a moved block names the resource
# custom:
#   id: tenet.moves.implied_overridden
skipped contains i if {
	some i, s in input.statements
	s.implied
	some t in input.statements
	not t.implied
	some ep in [t.from, t.to]
	ep.kind in {"resource", "instance"}
	ep.config_resource == s.from.config_resource
}

active := {i | some i, _ in input.statements; not i in skipped}

# ---------------------------------------------------------------------------
# Execution order: a statement runs after the statements it depends on.
# ---------------------------------------------------------------------------

# A depends on B when A's from continues B's to (a chain), or when one
# statement's endpoints lie inside a module the other moves.
depends_on(a, b) if {
	kinds[a] == kinds[b]
	from_address[a] == to_address[b]
}

depends_on(a, b) if {
	sa := input.statements[a]
	sb := input.statements[b]
	some pair in [[sa.from, a, sb.to, b], [sa.to, a, sb.to, b], [sb.from, b, sa.from, a], [sb.to, b, sa.from, a]]
	nested_within(pair[0], kinds[pair[1]], pair[2], kinds[pair[3]])
	not reindex_carve_out(a, b)
}

# A statement of an outer module that only re-indexes a module instance must
# not make the moves nested inside that module wait for it (they would match
# both of its ends and form a cycle).
reindex_carve_out(a, b) if {
	input.statements[a].depth < input.statements[b].depth
	kinds[a] in {"module_call", "module_instance"}
	names(input.statements[a].from.modules) == names(input.statements[a].to.modules)
}

names(mods) := [s.name | some s in mods]

# nested_within(x, xk, y, yk): the objects endpoint x names lie strictly
# inside the module endpoint y names.
nested_within(x, xk, y, yk) if {
	yk in {"module_call", "module_instance"}
	n := count(y.modules)
	count(x.modules) >= n
	every i, step in array.slice(y.modules, 0, n - 1) {
		step_matches(x.modules[i], step)
	}
	x.modules[n - 1].name == y.modules[n - 1].name
	last_key_matches(x.modules[n - 1], y.modules[n - 1], yk)
	strictly_inside(x, xk, n)
}

step_matches(a, b) if {
	a.name == b.name
	key_matches(a.key, b.key)
}

key_matches(a, b) if a == b

key_matches("[*]", _)

key_matches(_, "[*]")

last_key_matches(_, _, "module_call")

last_key_matches(x, y, "module_instance") if key_matches(x.key, y.key)

strictly_inside(x, _, n) if count(x.modules) > n

strictly_inside(_, xk, _) if xk in {"resource", "instance"}

node(i) := sprintf("%d", [i])

adjacency := {node(a): [node(b) | some b in active; a != b; depends_on(a, b)] | some a in active}

reached := {i: tenet.reachable(adjacency, {node(i)}) | some i in active}

# METADATA
# title: Move statements that depend on themselves form a cycle; no move is applied
# custom:
#   id: tenet.moves.cycle
cyclic := {i | some i in active; node(i) in reached[i]}

# A statement's transitive dependencies are a strict subset of those of any
# statement depending on it, so ordering by their number is topological.
order := [] if {
	count(cyclic) > 0
} else := [p[1] | some p in sort([[count(reached[i]), i] | some i in active])]

# METADATA
# title: A move between resource types needs the provider to convert the object
# custom:
#   id: tenet.moves.cross_type
cross_type := {i |
	some i in active
	kinds[i] in {"resource", "instance"}
	input.statements[i].from.type != input.statements[i].to.type
}

# ---------------------------------------------------------------------------
# Validation (after the walk). Implied statements are never invalid.
# ---------------------------------------------------------------------------

explicit := {i | some i, s in input.statements; not s.implied}

validate if input.validate == true

redundant := {i | validate; some i in explicit; from_address[i] == to_address[i]}

# METADATA
# title: A moved block whose ends are the same address is redundant
# custom:
#   id: tenet.moves.redundant
problems contains finding(i, "tenet.moves.redundant", "Redundant move statement", sprintf(
	"This statement declares a move from %s to the same address. Remove the moved block.",
	[input.statements[i].from.text],
)) if {
	some i in redundant
}

# METADATA
# title: The from address of a moved block must no longer be declared
# custom:
#   id: tenet.moves.still_exists
problems contains finding(i, "tenet.moves.still_exists", "Moved object still exists", sprintf(
	"This statement declares a move from %s, but that %s is still declared in the configuration. Declare it as %s instead, or remove this moved block.",
	[s.from.text, kind_words[kinds[i]], s.to.text],
)) if {
	validate
	some i in explicit
	not i in redundant
	s := input.statements[i]
	s.declared[kinds[i]] == true
}

kind_words := {
	"module_call": "module call",
	"module_instance": "module instance",
	"resource": "resource",
	"instance": "resource instance",
}

# METADATA
# title: Two moved blocks may not move the same object to different addresses
# custom:
#   id: tenet.moves.ambiguous_from
problems contains finding(j, "tenet.moves.ambiguous_from", "Ambiguous move statements", sprintf(
	"A statement at %s declared that %s moved to %s, but this statement instead declares that it moved to %s. Each object can move to only one address: remove one of the statements.",
	[input.statements[i].pos, from_address[i], to_address[i], to_address[j]],
)) if {
	validate
	some i in explicit
	some j in explicit
	i < j
	kinds[i] == kinds[j]
	from_address[i] == from_address[j]
	to_address[i] != to_address[j]
}

# METADATA
# title: Two moved blocks may not move different objects to the same address
# custom:
#   id: tenet.moves.ambiguous_to
problems contains finding(j, "tenet.moves.ambiguous_to", "Ambiguous move statements", sprintf(
	"A statement at %s declared that %s moved to %s, but this statement instead declares that %s moved there. Each address can receive only one object: remove one of the statements.",
	[input.statements[i].pos, from_address[i], to_address[i], from_address[j]],
)) if {
	validate
	some i in explicit
	some j in explicit
	i < j
	kinds[i] == kinds[j]
	to_address[i] == to_address[j]
	from_address[i] != from_address[j]
}

# METADATA
# title: Moved blocks that form a cycle are an error when nothing else is wrong
# custom:
#   id: tenet.moves.cycle_error
cycle_problems contains finding(first, "tenet.moves.cycle_error", "Cyclic dependency in move statements", sprintf(
	"These moved blocks depend on each other in a cycle, so none of them can be applied:\n%s\n\nRemove or change one of them to break the cycle.",
	[concat("\n", lines)],
)) if {
	validate
	count(cyclic) > 0
	count(problems) == 0
	ids := sort([i | some i in cyclic])
	first := ids[0]
	lines := [sprintf("  - %s: %s → %s", [input.statements[i].pos, from_address[i], to_address[i]]) | some i in ids]
}

# METADATA
# title: Moves whose destination was already taken are reported
# custom:
#   id: tenet.moves.blocked
warnings contains finding(-1, "tenet.moves.blocked", "Unresolved resource instance address changes", sprintf(
	"These objects could not move to the addresses their moved blocks name, because objects already exist there:\n%s\n\nThey stay at their old addresses and are planned from there. Remove the objects at the new addresses from the state, or change the moved blocks, to complete the moves.",
	[concat("\n", lines)],
)) if {
	validate
	count(errors) == 0
	count(input.blocked) > 0
	lines := sort([sprintf("  - %s could not move to %s", [b.from, b.to]) | some b in input.blocked])
}

errors := problems | cycle_problems

finding(i, rule, summary, detail) := {"statement": i, "rule": rule, "summary": summary, "detail": detail}
