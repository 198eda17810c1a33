# METADATA
# title: Action selection for resource instance objects
# description: |
#   The "decide" stage. Every rule below is about one resource instance
#   object, input.instance, in the plan input.run (mode, timestamp): which
#   row of the decision table decides it, so its action and reason, which
#   other rules fired for it and which errors it raises.
#
#   A row is a rule decision.NAME := {"action": ..., "reason": ...} whose
#   body says when the row decides the instance; the annotation above it
#   gives its id. Rows are mutually exclusive and together cover every
#   instance: precedence is written into their conditions (a row that
#   yields to another requires the other's condition to be false), and an
#   instance decided by no row or by several stops the plan (conflicts).
#   decisions, conflicts, fired and errors are what the plan reads.
#
#   The extension points force_replace and prevent_destroy are defined by
#   team rule files only. Each element a team rule adds for the instance is
#   seen here as {"value": <the rule's message>, "rule": <handle of the
#   team rule>}; undefined, they add nothing.
package tenet.decide

# ---------------------------------------------------------------------------
# The instance's decision.
# ---------------------------------------------------------------------------

# decisions holds [row, action, reason]: the row that decides the instance
# (the evaluator reads its id from the row's annotation), the row's action
# with a replace lowered to the order it happens in, and the row's reason
# unless overrides gives another.
decisions contains [name, action, reason] if {
	some name, row in decision
	action := object.get(lowered, [row.action, input.instance.lifecycle.create_before_destroy], row.action)
	reason := object.get(overrides, "reason", row.reason)
}

# A replace creates the new object first only under create_before_destroy
# (configured, forced by a dependent, or recorded in state).
lowered := {"replace": {
	false: "delete-then-create",
	true: "create-then-delete",
}}

# Each instance is decided by exactly one row: conflicts holds the rows of
# an instance decided by none or by several.
conflicts contains rows if {
	rows := [name | some name, _ in decision]
	count(rows) != 1
}

# What rules other than the rows change in the decision: nothing by default.
default overrides := {}

# ---------------------------------------------------------------------------
# Plan modes.
# ---------------------------------------------------------------------------

normal_mode if input.run.mode == "normal"

destroy_mode if input.run.mode == "destroy"

# METADATA
# title: Refresh-only plans change no resources
# custom:
#   id: tenet.decide.refresh_only
decision.refresh_only := {"action": "", "reason": ""} if input.run.mode == "refresh-only"

# METADATA
# title: Destroy mode removes data instances from state
# description: The delete is hidden from plan output by the engine.
# custom:
#   id: tenet.decide.destroy_data
decision.destroy_data := {"action": "delete", "reason": ""} if {
	destroy_mode
	input.instance.mode == "data"
}

# METADATA
# title: Destroy mode deletes every existing managed object
# custom:
#   id: tenet.decide.destroy_delete
decision.destroy_delete := {"action": "delete", "reason": ""} if {
	destroy_mode
	input.instance.mode == "managed"
	input.instance.has_prior
}

# METADATA
# title: Destroy mode has nothing to do for an object that is already gone
# custom:
#   id: tenet.decide.destroy_gone
decision.destroy_gone := {"action": "no-op", "reason": ""} if {
	destroy_mode
	input.instance.mode == "managed"
	input.instance.has_prior == false
}

# ---------------------------------------------------------------------------
# Normal mode: what kind of object the instance is.
# ---------------------------------------------------------------------------

data_source if {
	normal_mode
	input.instance.mode == "data"
}

# An object left over from a failed create_before_destroy replace.
deposed if {
	normal_mode
	input.instance.mode == "managed"
	input.instance.deposed != ""
}

# The current managed object, with configuration or without (an orphan).
configured if {
	normal_mode
	input.instance.mode == "managed"
	input.instance.deposed == ""
	input.instance.has_config
}

orphan if {
	normal_mode
	input.instance.mode == "managed"
	input.instance.deposed == ""
	input.instance.has_config == false
}

# A removed block with destroy = false takes the object out of state.
kept_by_removed if input.instance.removed.destroy == false

# ---------------------------------------------------------------------------
# Data sources.
# ---------------------------------------------------------------------------

# METADATA
# title: A data instance without configuration is dropped from state silently
# custom:
#   id: tenet.decide.data_orphan
decision.data_orphan := {"action": "", "reason": ""} if {
	data_source
	input.instance.has_config == false
}

# METADATA
# title: A data source whose configuration is not wholly known is read during apply
# description: Takes precedence over a pending dependency.
# custom:
#   id: tenet.decide.read_because_config_unknown
decision.read_because_config_unknown := {"action": "read", "reason": "read_because_config_unknown"} if {
	data_source
	input.instance.has_config
	input.instance.config_known == false
}

# METADATA
# title: A data source that depends on a pending managed change is read during apply
# custom:
#   id: tenet.decide.read_because_dependency_pending
decision.read_because_dependency_pending := {"action": "read", "reason": "read_because_dependency_pending"} if {
	data_source
	input.instance.has_config
	input.instance.config_known
	input.instance.dependency_pending
}

# METADATA
# title: A data source inside a check block is read now and again during apply
# description: >-
#   Its configuration is known and its dependencies settled. The engine reads
#   it during the plan (the check sees the value) and records a read, so that
#   apply reads it again and the check verifies what apply leaves behind.
# custom:
#   id: tenet.decide.read_because_check_nested
decision.read_because_check_nested := {"action": "read", "reason": "read_because_check_nested"} if {
	data_source
	input.instance.has_config
	input.instance.config_known
	input.instance.dependency_pending == false
	input.instance.in_check
}

# METADATA
# title: A data source with known configuration and settled dependencies is read now
# description: No change is recorded; the engine reads it during the plan.
# custom:
#   id: tenet.decide.read_now
decision.read_now := {"action": "", "reason": ""} if {
	data_source
	input.instance.has_config
	input.instance.config_known
	input.instance.dependency_pending == false
	input.instance.in_check == false
}

# ---------------------------------------------------------------------------
# Deposed objects. No action_reason; never protected by prevent_destroy.
# ---------------------------------------------------------------------------

# METADATA
# title: A deposed object that no longer exists needs nothing
# custom:
#   id: tenet.decide.deposed_gone
decision.deposed_gone := {"action": "no-op", "reason": ""} if {
	deposed
	input.instance.has_prior == false
}

# METADATA
# title: A deposed object covered by a removed block with destroy = false is forgotten
# custom:
#   id: tenet.decide.deposed_forget
decision.deposed_forget := {"action": "forget", "reason": ""} if {
	deposed
	input.instance.has_prior
	kept_by_removed
}

# METADATA
# title: A deposed object is deleted
# custom:
#   id: tenet.decide.deposed_delete
decision.deposed_delete := {"action": "delete", "reason": ""} if {
	deposed
	input.instance.has_prior
	not kept_by_removed
}

# ---------------------------------------------------------------------------
# Orphans: current managed objects without configuration.
# ---------------------------------------------------------------------------

# METADATA
# title: An orphan whose object no longer exists needs no change
# custom:
#   id: tenet.decide.orphan_gone
decision.orphan_gone := {"action": "", "reason": ""} if {
	orphan
	input.instance.has_prior == false
}

orphan_present if {
	orphan
	input.instance.has_prior
}

# METADATA
# title: An orphan covered by a removed block with destroy = false is forgotten
# description: The object leaves state; the remote object is kept.
# custom:
#   id: tenet.decide.forget_removed
decision.forget_removed := {"action": "forget", "reason": ""} if {
	orphan_present
	kept_by_removed
}

# METADATA
# title: An orphan is deleted
# custom:
#   id: tenet.decide.delete_orphan
decision.delete_orphan := {"action": "delete", "reason": ""} if {
	orphan_present
	not kept_by_removed
}

# Why an orphan has no configuration, checked in this order: no resource
# block (moved away or not), no module instance, wrong kind of key, key no
# longer in the expansion. The reason is set for forget as well as delete.
overrides := {"reason": orphan_reason}

orphan_reason := "delete_because_no_move_target" if {
	orphan_present
	input.instance.orphan.resource_in_config == false
	input.instance.orphan.moved
}

orphan_reason := "delete_because_no_resource_config" if {
	orphan_present
	input.instance.orphan.resource_in_config == false
	input.instance.orphan.moved == false
}

orphan_reason := "delete_because_no_module" if {
	block_exists
	input.instance.orphan.module_declared == false
}

orphan_reason := "delete_because_wrong_repetition" if wrong_repetition

orphan_reason := "delete_because_count_index" if {
	in_declared_module
	not wrong_repetition
	input.instance.orphan.in_expansion == false
	is_number(input.instance.key)
}

orphan_reason := "delete_because_each_key" if {
	in_declared_module
	not wrong_repetition
	input.instance.orphan.in_expansion == false
	is_string(input.instance.key)
}

# The orphan's resource block still exists (prevent_destroy still applies).
block_exists if {
	orphan_present
	input.instance.orphan.resource_in_config
}

in_declared_module if {
	block_exists
	input.instance.orphan.module_declared
}

# The key is not of the kind the resource's count or for_each gives.
wrong_repetition if {
	in_declared_module
	is_null(input.instance.key)
	input.instance.orphan.repetition != "none"
}

wrong_repetition if {
	in_declared_module
	is_number(input.instance.key)
	input.instance.orphan.repetition != "count"
}

wrong_repetition if {
	in_declared_module
	is_string(input.instance.key)
	input.instance.orphan.repetition != "for_each"
}

# ---------------------------------------------------------------------------
# Managed instances with configuration.
# ---------------------------------------------------------------------------

# METADATA
# title: A tainted object is replaced
# description: The tainted prior counts as absent; this wins over -replace.
# custom:
#   id: tenet.decide.replace_because_tainted
decision.replace_because_tainted := {"action": "replace", "reason": "replace_because_tainted"} if {
	configured
	input.instance.tainted
}

# METADATA
# title: An instance without a prior object is created
# custom:
#   id: tenet.decide.create_no_prior
decision.create_no_prior := {"action": "create", "reason": ""} if {
	configured
	input.instance.tainted == false
	input.instance.has_prior == false
}

# A usable (present, untainted) prior object.
with_prior if {
	configured
	input.instance.tainted == false
	input.instance.has_prior
}

# -replace names the instance, a replace_triggered_by reference fired, or a
# team force_replace rule names it.
replace_requested if {
	with_prior
	input.instance.force_replace
}

replace_requested if {
	with_prior
	input.instance.triggered
}

replace_requested if {
	team_forced
	with_prior
}

team_forced if some _ in data.tenet.decide.force_replace

# METADATA
# title: An instance named by -replace, a replace_triggered_by reference or a team force_replace rule is replaced
# custom:
#   id: tenet.decide.replace_by_request
decision.replace_by_request := {"action": "replace", "reason": "replace_by_request"} if replace_requested

# A prior object, and nobody asks for a replacement.
unforced if {
	with_prior
	not replace_requested
}

# METADATA
# title: Nothing to do when the planned object equals the prior one
# custom:
#   id: tenet.decide.noop_unchanged
decision.noop_unchanged := {"action": "no-op", "reason": ""} if {
	unforced
	input.instance.planned_equals_prior
}

# METADATA
# title: An instance is replaced when the provider cannot update a changed attribute
# custom:
#   id: tenet.decide.replace_because_cannot_update
decision.replace_because_cannot_update := {"action": "replace", "reason": "replace_because_cannot_update"} if {
	unforced
	input.instance.planned_equals_prior == false
	count(input.instance.requires_replace) > 0
}

# METADATA
# title: Any other change is an update in place
# custom:
#   id: tenet.decide.update_in_place
decision.update_in_place := {"action": "update", "reason": ""} if {
	unforced
	input.instance.planned_equals_prior == false
	count(input.instance.requires_replace) == 0
}

# METADATA
# title: A fired replace_triggered_by sets the reason replace_by_triggers
# description: |
#   Overrides the tainted, requested and cannot-update reasons; the action is
#   unchanged (a tainted object is still replaced because it is tainted). A
#   triggered instance is always created or replaced.
# custom:
#   id: tenet.decide.reason_replace_by_triggers
reason_replace_by_triggers if {
	configured
	input.instance.triggered
}

overrides := {"reason": "replace_by_triggers"} if reason_replace_by_triggers

# fired holds the rules that contributed to the decision besides the row
# that chose the action: a rule named as in decisions, or a team element.
fired contains "reason_replace_by_triggers" if reason_replace_by_triggers

fired contains f if {
	some f in data.tenet.decide.force_replace
	decision.replace_by_request
}

# ---------------------------------------------------------------------------
# prevent_destroy. errors holds findings, their rule named as in decisions.
# ---------------------------------------------------------------------------

# The action deletes or replaces the current object of a managed instance.
destroys_current if {
	some row in decision
	row.action in {"delete", "replace"}
	input.instance.mode == "managed"
	input.instance.deposed == ""
}

# METADATA
# title: lifecycle.prevent_destroy forbids deleting or replacing the object
# description: |
#   Applies while the resource block still exists (including count/for_each
#   shrink and vanished module instances) and to every instance in destroy
#   mode. Does not apply to forget, deposed objects or data sources.
# custom:
#   id: tenet.decide.prevent_destroy
lifecycle_prevent_destroy if {
	destroys_current
	input.instance.lifecycle.prevent_destroy
	not block_removed
}

# Outside destroy mode, the instance's resource block is gone: it has no
# configuration, not even for another key or module instance, so its
# lifecycle settings no longer apply.
block_removed if {
	not destroy_mode
	destroys_current
	input.instance.has_config == false
	input.instance.orphan.resource_in_config == false
}

errors contains {
	"rule": "lifecycle_prevent_destroy",
	"summary": "Instance cannot be destroyed",
	"detail": sprintf(
		"Resource %s has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag.",
		[input.instance.address],
	),
} if lifecycle_prevent_destroy

fired contains "lifecycle_prevent_destroy" if lifecycle_prevent_destroy

# Team prevent_destroy elements only matter for destroyed objects.
fired contains p if {
	some p in data.tenet.decide.prevent_destroy
	destroys_current
}

errors contains {
	"rule": p.rule,
	"summary": "Instance cannot be destroyed",
	"detail": sprintf(
		"Resource %s is protected by a team rule: %v. This plan would destroy it. To continue, change the rule or limit the plan with -target so that it leaves this resource alone.",
		[input.instance.address, p.value],
	),
} if {
	some p in data.tenet.decide.prevent_destroy
	destroys_current
}
