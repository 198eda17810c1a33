# METADATA
# title: Configuration changes to ignore before the provider plans
# description: |
#   The "prepare" stage. The engine sends a chunk of managed resource
#   instances (input.instances) that have a usable prior object, before it
#   asks the provider for a plan, and reads `result`:
#
#   - ignore: a set of [i, path]: at path, instance i's configuration takes
#     the prior value, so the provider sees no change there. A path is an
#     array of steps: a string is an attribute name (or, on a map, a key), a
#     number is a list index, and {"key": s} is an explicit map key written
#     as ["s"] in HCL. A trailing map key ignores only that key.
#   - ignore_all: a set of indices whose whole configuration is ignored
#     (ignore_changes = all).
#   - fired: a set of [i, rule id] for provenance.
#   - ignore_paths, equivalent: the elements of the team extension points
#     of the same names (below). The engine adds each path to ignore and
#     each element to fired; reading the elements once is cheaper than
#     building those unions for every chunk.
#
#   Instances without a prior object (creates, tainted replacements) are
#   never sent: their real configuration always applies.
package tenet.prepare

result := {
	"ignore": lifecycle_ignore,
	"ignore_all": ignore_all,
	"fired": lifecycle_fired,
	"ignore_paths": {p | some p in data.tenet.prepare.ignore_paths},
	"equivalent": {p | some p in data.tenet.prepare.equivalent},
}

# The extension points ignore_paths and equivalent are defined by team rule
# files only; undefined, they add nothing. A team rule adds a path for the
# instance it is about (or [i, path] for instance i of input.instances, in
# the chunk form), a path being a step array as in lifecycle.ignore_changes.
# Each element is seen here as {"value": [i, path], "rule": <handle of the
# team rule>}.
#
# Both make the configuration take the prior value at the path before the
# provider plans, so the provider sees no difference there; paths that do
# not exist in the configuration are ignored silently. They differ in what
# they say, which explain shows: ignore_paths means "changes here are not
# ours to make" (extra lifecycle.ignore_changes paths), equivalent means
# "these values differ in text but not in meaning" (e.g. two JSON documents
# that are equal once decoded).

# METADATA
# title: lifecycle.ignore_changes paths keep their prior value
# custom:
#   id: tenet.prepare.ignore_changes
lifecycle_ignore contains [i, path] if {
	some i, inst in input.instances
	inst.has_prior
	some path in inst.lifecycle.ignore_changes
}

# METADATA
# title: lifecycle.ignore_changes = all keeps the whole prior object
# custom:
#   id: tenet.prepare.ignore_all
ignore_all contains i if {
	some i, inst in input.instances
	inst.has_prior
	inst.lifecycle.ignore_all
}

lifecycle_fired contains [i, "tenet.prepare.ignore_changes"] if {
	some [i, _] in lifecycle_ignore
}

lifecycle_fired contains [i, "tenet.prepare.ignore_all"] if {
	some i in ignore_all
}
