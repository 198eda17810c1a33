# METADATA
# title: replace_triggered_by
# description: |
#   The "triggers" stage. The engine sends, for a chunk of managed resource
#   instances that have replace_triggered_by references, the facts of each
#   reference (input.instances[i].references[j]) after the referenced
#   resources were planned:
#
#   - actions: the actions of the referenced current objects' changes (one
#     for an instance reference, every instance's for a whole resource, the
#     first change only when a path follows);
#   - has_path: the reference continues with an attribute path;
#   - path_changed: the values before and after differ at that path (an
#     unknown after value differs; a path found on one side only differs).
#
#   It reads `result.triggered`, a set of [i, j, rule id]: reference j fired
#   for instance i. A fired reference makes the engine force the
#   replacement of instance i with reason replace_by_triggers.
package tenet.triggers

result := {"triggered": triggered}

# Creates, deletes, reads, forgets and no-ops never fire a trigger.
firing_actions := {"update", "delete-then-create", "create-then-delete"}

# METADATA
# title: A reference to a resource or instance fires when it is updated or replaced
# custom:
#   id: tenet.triggers.object_changed
triggered contains [i, j, "tenet.triggers.object_changed"] if {
	some i, inst in input.instances
	some j, ref in inst.references
	not ref.has_path
	some action in ref.actions
	action in firing_actions
}

# METADATA
# title: A reference with an attribute path fires when the object changes and the value at the path differs
# custom:
#   id: tenet.triggers.attribute_changed
triggered contains [i, j, "tenet.triggers.attribute_changed"] if {
	some i, inst in input.instances
	some j, ref in inst.references
	ref.has_path
	ref.path_changed
	some action in ref.actions
	action in firing_actions
}
