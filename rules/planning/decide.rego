# METADATA
# title: Action selection for resource instance objects
# description: |
#   The "decide" stage. The engine sends a chunk of resource instance objects
#   (input.instances) plus the run (input.run: mode, timestamp) and reads
#   `result`: one decision per instance in input order, plus errors and extra
#   provenance keyed by the instance's index in input.instances.
#
#   Every row of the decision table below is a rule table.NAME holding the
#   action, the reason and the indices of the instances it decides; the
#   annotation above it gives its id. Rows are mutually exclusive and
#   together cover every instance (decisions checks both). Rows are written as
#   comprehensions over the chunk instead of functions called per instance
#   because a Rego function call costs microseconds while one more condition
#   in a comprehension costs a fraction of one.
package tenet.decide

# ---------------------------------------------------------------------------
# Entry point queried by the engine.
# ---------------------------------------------------------------------------

# decisions holds [i, row, action, reason] for every instance, where row
# names the table row (the evaluator reads its id from the annotation of
# the row); fired and errors name rules the same way, or carry a team
# rule's element. When some instance is decided by no row or by several,
# decisions is empty and conflicts lists [i, rows] for each such instance.
result := {
	"decisions": decisions,
	"conflicts": conflicts,
	"fired": fired,
	"errors": errors,
}

# The row's action, with a replace lowered to the order it happens in, and
# the row's reason unless reason_override has one for the instance.
decided := [[i, name, action, reason] |
	some name, row in table
	some i in row.indices
	cbd := input.instances[i].lifecycle.create_before_destroy
	action := object.get(lowered, [row.action, cbd], row.action)
	reason := object.get(reason_override, i, row.reason)
]

# A replace creates the new object first only under create_before_destroy
# (configured, forced by a dependent, or recorded in state).
lowered := {"replace": {
	false: "delete-then-create",
	true: "create-then-delete",
}}

# Each instance is decided by exactly one row: the rows hold as many
# indices as there are instances, and every instance is among them.
exactly_one if {
	count(decided) == count(input.instances)
	count({d[0] | some d in decided}) == count(input.instances)
}

decisions := decided if exactly_one

else := []

conflicts := [[i, names] |
	not exactly_one
	some i, _ in input.instances
	names := [name | some name, row in table; i in row.indices]
	count(names) != 1
]

# ---------------------------------------------------------------------------
# Extension points, defined by team rule files only (so the defaults read
# them by their full name: undefined, they add nothing). A team rule adds
# elements [i, message], where i is the index of the instance in
# input.instances; its head is rewritten at load time so that each element
# the defaults see is {"value": [i, message], "rule": <handle of the team
# rule>}. The defaults read "value" with object.get, so that their type
# checks do not depend on what team rules add (the evaluator checks each
# element's shape and reports a malformed one naming its rule).
#
# data.tenet.decide.force_replace: instance i must be replaced. A managed
# instance with configuration and a usable prior object is then replaced
# exactly as with -replace (reason replace_by_request). Tainted objects stay
# replace_because_tainted; instances without a prior object are still
# created.
#
# data.tenet.decide.prevent_destroy: instance i must not be destroyed. If its
# action deletes or replaces the current object, the plan gets "Instance
# cannot be destroyed" with the message. Never applies to forget or to
# deposed objects.
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# Plan modes.
# ---------------------------------------------------------------------------

normal_mode if input.run.mode == "normal"

destroy_mode if input.run.mode == "destroy"

# METADATA
# title: Refresh-only plans change no resources
# custom:
#   id: tenet.decide.refresh_only
table.refresh_only := {
	"action": "",
	"reason": "",
	"indices": [i |
		input.run.mode == "refresh-only"
		some i, _ in input.instances
	],
}

# METADATA
# title: Destroy mode removes data instances from state
# description: The delete is hidden from plan output by the engine.
# custom:
#   id: tenet.decide.destroy_data
table.destroy_data := {
	"action": "delete",
	"reason": "",
	"indices": [i |
		destroy_mode
		some i, inst in input.instances
		inst.mode == "data"
	],
}

# METADATA
# title: Destroy mode deletes every existing managed object
# custom:
#   id: tenet.decide.destroy_delete
table.destroy_delete := {
	"action": "delete",
	"reason": "",
	"indices": [i |
		destroy_mode
		some i, inst in input.instances
		inst.mode == "managed"
		inst.has_prior
	],
}

# METADATA
# title: Destroy mode has nothing to do for an object that is already gone
# custom:
#   id: tenet.decide.destroy_gone
table.destroy_gone := {
	"action": "no-op",
	"reason": "",
	"indices": [i |
		destroy_mode
		some i, inst in input.instances
		inst.mode == "managed"
		inst.has_prior == false
	],
}

# ---------------------------------------------------------------------------
# Normal mode: what kind of object each instance is.
# ---------------------------------------------------------------------------

data_sources := [i |
	normal_mode
	some i, inst in input.instances
	inst.mode == "data"
]

deposed := [i |
	normal_mode
	some i, inst in input.instances
	inst.mode == "managed"
	inst.deposed != ""
]

# Current managed objects with and without configuration.
configured := [i |
	normal_mode
	some i, inst in input.instances
	inst.has_config
	inst.mode == "managed"
	inst.deposed == ""
]

orphans := [i |
	normal_mode
	some i, inst in input.instances
	inst.has_config == false
	inst.mode == "managed"
	inst.deposed == ""
]

# Objects a removed block with destroy = false takes out of state.
kept_by_removed := {i |
	some i, inst in input.instances
	inst.removed.destroy == false
}

# ---------------------------------------------------------------------------
# Data sources.
# ---------------------------------------------------------------------------

# METADATA
# title: A data instance without configuration is dropped from state silently
# custom:
#   id: tenet.decide.data_orphan
table.data_orphan := {
	"action": "",
	"reason": "",
	"indices": [i |
		some i in data_sources
		input.instances[i].has_config == false
	],
}

# METADATA
# title: A data source whose configuration is not wholly known is read during apply
# description: Takes precedence over a pending dependency.
# custom:
#   id: tenet.decide.read_because_config_unknown
table.read_because_config_unknown := {
	"action": "read",
	"reason": "read_because_config_unknown",
	"indices": [i |
		some i in data_sources
		inst := input.instances[i]
		inst.has_config
		inst.config_known == false
	],
}

# METADATA
# title: A data source that depends on a pending managed change is read during apply
# custom:
#   id: tenet.decide.read_because_dependency_pending
table.read_because_dependency_pending := {
	"action": "read",
	"reason": "read_because_dependency_pending",
	"indices": [i |
		some i in data_sources
		inst := input.instances[i]
		inst.has_config
		inst.config_known
		inst.dependency_pending
	],
}

# METADATA
# title: A data source inside a check block is read now and again during apply
# description: >-
#   Its configuration is known and its dependencies settled. The engine reads
#   it during the plan (the check sees the value) and records a read, so that
#   apply reads it again and the check verifies what apply leaves behind.
# custom:
#   id: tenet.decide.read_because_check_nested
table.read_because_check_nested := {
	"action": "read",
	"reason": "read_because_check_nested",
	"indices": [i |
		some i in data_sources
		inst := input.instances[i]
		inst.has_config
		inst.config_known
		inst.dependency_pending == false
		inst.in_check
	],
}

# METADATA
# title: A data source with known configuration and settled dependencies is read now
# description: No change is recorded; the engine reads it during the plan.
# custom:
#   id: tenet.decide.read_now
table.read_now := {
	"action": "",
	"reason": "",
	"indices": [i |
		some i in data_sources
		inst := input.instances[i]
		inst.has_config
		inst.config_known
		inst.dependency_pending == false
		inst.in_check == false
	],
}

# ---------------------------------------------------------------------------
# Deposed objects (left over from a failed create_before_destroy replace).
# No action_reason; never protected by prevent_destroy.
# ---------------------------------------------------------------------------

# METADATA
# title: A deposed object that no longer exists needs nothing
# custom:
#   id: tenet.decide.deposed_gone
table.deposed_gone := {
	"action": "no-op",
	"reason": "",
	"indices": [i |
		some i in deposed
		input.instances[i].has_prior == false
	],
}

# METADATA
# title: A deposed object covered by a removed block with destroy = false is forgotten
# custom:
#   id: tenet.decide.deposed_forget
table.deposed_forget := {
	"action": "forget",
	"reason": "",
	"indices": [i |
		some i in deposed
		input.instances[i].has_prior
		i in kept_by_removed
	],
}

# METADATA
# title: A deposed object is deleted
# custom:
#   id: tenet.decide.deposed_delete
table.deposed_delete := {
	"action": "delete",
	"reason": "",
	"indices": [i |
		some i in deposed
		input.instances[i].has_prior
		not i in kept_by_removed
	],
}

# ---------------------------------------------------------------------------
# Orphans: current managed objects without configuration.
# ---------------------------------------------------------------------------

orphans_present := [i |
	some i in orphans
	input.instances[i].has_prior
]

# METADATA
# title: An orphan whose object no longer exists needs no change
# custom:
#   id: tenet.decide.orphan_gone
table.orphan_gone := {
	"action": "",
	"reason": "",
	"indices": [i |
		some i in orphans
		input.instances[i].has_prior == false
	],
}

# METADATA
# title: An orphan covered by a removed block with destroy = false is forgotten
# description: The object leaves state; the remote object is kept.
# custom:
#   id: tenet.decide.forget_removed
table.forget_removed := {
	"action": "forget",
	"reason": "",
	"indices": [i |
		some i in orphans_present
		i in kept_by_removed
	],
}

# METADATA
# title: An orphan is deleted
# custom:
#   id: tenet.decide.delete_orphan
table.delete_orphan := {
	"action": "delete",
	"reason": "",
	"indices": [i |
		some i in orphans_present
		not i in kept_by_removed
	],
}

# Why an orphan has no configuration, checked in this order: no resource
# block (moved away or not), no module instance, wrong kind of key, key no
# longer in the expansion. The reason is set for forget as well as delete.
orphan_reasons := {i: r |
	some r, indices in {
		"delete_because_no_move_target": no_move_target,
		"delete_because_no_resource_config": no_resource_config,
		"delete_because_no_module": no_module,
		"delete_because_wrong_repetition": wrong_repetition,
		"delete_because_count_index": count_index,
		"delete_because_each_key": each_key,
	}
	some i in indices
}

no_move_target := [i |
	some i in orphans_present
	o := input.instances[i].orphan
	o.resource_in_config == false
	o.moved
]

no_resource_config := [i |
	some i in orphans_present
	o := input.instances[i].orphan
	o.resource_in_config == false
	o.moved == false
]

# Orphans whose resource block still exists (prevent_destroy still applies).
block_exists := [i |
	some i in orphans_present
	input.instances[i].orphan.resource_in_config
]

no_module := [i |
	some i in block_exists
	input.instances[i].orphan.module_declared == false
]

in_declared_module := [i |
	some i in block_exists
	input.instances[i].orphan.module_declared
]

wrong_repetition := {i |
	some i in in_declared_module
	inst := input.instances[i]
	is_null(inst.key)
	inst.orphan.repetition != "none"
} | {i |
	some i in in_declared_module
	inst := input.instances[i]
	is_number(inst.key)
	inst.orphan.repetition != "count"
} | {i |
	some i in in_declared_module
	inst := input.instances[i]
	is_string(inst.key)
	inst.orphan.repetition != "for_each"
}

count_index := [i |
	some i in in_declared_module
	not i in wrong_repetition
	inst := input.instances[i]
	inst.orphan.in_expansion == false
	is_number(inst.key)
]

each_key := [i |
	some i in in_declared_module
	not i in wrong_repetition
	inst := input.instances[i]
	inst.orphan.in_expansion == false
	is_string(inst.key)
]

# ---------------------------------------------------------------------------
# Managed instances with configuration.
# ---------------------------------------------------------------------------

# METADATA
# title: A tainted object is replaced
# description: The tainted prior counts as absent; this wins over -replace.
# custom:
#   id: tenet.decide.replace_because_tainted
table.replace_because_tainted := {
	"action": "replace",
	"reason": "replace_because_tainted",
	"indices": [i |
		some i in configured
		input.instances[i].tainted
	],
}

# METADATA
# title: An instance without a prior object is created
# custom:
#   id: tenet.decide.create_no_prior
table.create_no_prior := {
	"action": "create",
	"reason": "",
	"indices": [i |
		some i in configured
		inst := input.instances[i]
		inst.tainted == false
		inst.has_prior == false
	],
}

# Configured instances with a usable (present, untainted) prior object.
with_prior := [i |
	some i in configured
	inst := input.instances[i]
	inst.tainted == false
	inst.has_prior
]

# Instances team force_replace rules name.
team_forced := {i |
	some f in data.tenet.decide.force_replace
	v := object.get(f, "value", null)
	i := v[0]
}

# With a prior object and not forced to be replaced by anyone.
unforced := not_flagged if {
	count(team_forced) == 0
} else := [i |
	some i in not_flagged
	not i in team_forced
]

not_flagged := [i |
	some i in with_prior
	inst := input.instances[i]
	inst.force_replace == false
	inst.triggered == false
]

# METADATA
# title: Nothing to do when the planned object equals the prior one
# custom:
#   id: tenet.decide.noop_unchanged
table.noop_unchanged := {
	"action": "no-op",
	"reason": "",
	"indices": [i |
		some i in unforced
		input.instances[i].planned_equals_prior
	],
}

# METADATA
# title: An instance named by -replace, a replace_triggered_by reference or a team force_replace rule is replaced
# custom:
#   id: tenet.decide.replace_by_request
table.replace_by_request := {
	"action": "replace",
	"reason": "replace_by_request",
	"indices": {i |
		some i in with_prior
		input.instances[i].force_replace
	} | {i |
		some i in with_prior
		input.instances[i].triggered
	} | {i |
		some i in team_forced
		i in with_prior
	},
}

# METADATA
# title: An instance is replaced when the provider cannot update a changed attribute
# custom:
#   id: tenet.decide.replace_because_cannot_update
table.replace_because_cannot_update := {
	"action": "replace",
	"reason": "replace_because_cannot_update",
	"indices": [i |
		some i in unforced
		inst := input.instances[i]
		inst.planned_equals_prior == false
		count(inst.requires_replace) > 0
	],
}

# METADATA
# title: Any other change is an update in place
# custom:
#   id: tenet.decide.update_in_place
table.update_in_place := {
	"action": "update",
	"reason": "",
	"indices": [i |
		some i in unforced
		inst := input.instances[i]
		inst.planned_equals_prior == false
		count(inst.requires_replace) == 0
	],
}

# ---------------------------------------------------------------------------
# Reasons that do not come from the row.
# ---------------------------------------------------------------------------

reason_override := object.union(orphan_reasons, {i: "replace_by_triggers" | some i in reason_replace_by_triggers})

# METADATA
# title: A fired replace_triggered_by sets the reason replace_by_triggers
# description: |
#   Overrides the tainted, requested and cannot-update reasons; the action is
#   unchanged (a tainted object is still replaced because it is tainted). A
#   triggered instance is always created or replaced.
# custom:
#   id: tenet.decide.reason_replace_by_triggers
reason_replace_by_triggers := [i |
	some i in configured
	input.instances[i].triggered
]

# fired holds [i, rule] for rules that contributed to i's decision besides
# the row that chose its action, a rule named as in decisions.
fired contains [i, "reason_replace_by_triggers"] if {
	some i in reason_replace_by_triggers
}

fired contains [i, f] if {
	some f in data.tenet.decide.force_replace
	v := object.get(f, "value", null)
	i := v[0]
	i in table.replace_by_request.indices
}

# ---------------------------------------------------------------------------
# prevent_destroy. errors holds [i, finding], the finding's rule named as in
# decisions.
# ---------------------------------------------------------------------------

destroying := {i |
	some row in table
	row.action in {"delete", "replace"}
	some i in row.indices
}

# The resource block (so its lifecycle settings) still applies: the instance
# is configured, it only lost its key or module instance, or this is a
# destroy plan. Called only for protected instances, so a function is cheap.
block_applies(inst) if inst.has_config

block_applies(inst) if inst.orphan.resource_in_config

block_applies(_) if destroy_mode

# METADATA
# title: lifecycle.prevent_destroy forbids deleting or replacing the object
# description: |
#   Applies while the resource block still exists (including count/for_each
#   shrink and vanished module instances) and to every instance in destroy
#   mode. Does not apply to forget, deposed objects or data sources.
# custom:
#   id: tenet.decide.prevent_destroy
lifecycle_prevent_destroy contains i if {
	some i in destroying
	inst := input.instances[i]
	inst.lifecycle.prevent_destroy
	inst.mode == "managed"
	inst.deposed == ""
	block_applies(inst)
}

errors contains [i, {
	"rule": "lifecycle_prevent_destroy",
	"summary": "Instance cannot be destroyed",
	"detail": sprintf(
		"Resource %s has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag.",
		[input.instances[i].address],
	),
}] if {
	some i in lifecycle_prevent_destroy
}

fired contains [i, "lifecycle_prevent_destroy"] if {
	some i in lifecycle_prevent_destroy
}

# Team prevent_destroy elements only matter for destroyed instances: when
# none is destroyed (most plans), the extension point is never evaluated.
fired contains [i, p] if {
	count(destroying) > 0
	some p in data.tenet.decide.prevent_destroy
	v := object.get(p, "value", null)
	i := v[0]
	i in destroying
	input.instances[i].mode == "managed"
	input.instances[i].deposed == ""
}

errors contains [i, {
	"rule": p.rule,
	"summary": "Instance cannot be destroyed",
	"detail": sprintf(
		"Resource %s is protected by a team rule: %v. This plan would destroy it. To continue, change the rule or limit the plan with -target so that it leaves this resource alone.",
		[inst.address, v[1]],
	),
}] if {
	count(destroying) > 0
	some p in data.tenet.decide.prevent_destroy
	v := object.get(p, "value", null)
	i := v[0]
	i in destroying
	inst := input.instances[i]
	inst.mode == "managed"
	inst.deposed == ""
}
