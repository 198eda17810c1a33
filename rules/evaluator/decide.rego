# How the evaluator reads the decide rules; not part of them. The rules of
# package tenet.decide are written about one instance. The evaluator
# presents instances in chunks, input.instances, the rules about one
# instance having been rewritten to that form when they were loaded
# (rules/chunk_form.go), and reads result for the whole chunk.
package tenet.evaluator.decide

import data.tenet.decide

result := {
	"decisions": decide.decisions,
	"conflicts": conflicts,
	"fired": decide.fired,
	"errors": decide.errors,
}

# Conflicts are looked for only when some instance does not have exactly
# one decision, or when the evaluator asks for every check
# (input.check_all, for the differential tests).
conflicts := decide.conflicts if {
	not one_each
} else := decide.conflicts if {
	input.check_all
} else := set()

one_each if {
	n := count(input.instances)
	count(decide.decisions) == n
	count({d[0] | some d in decide.decisions}) == n
}
