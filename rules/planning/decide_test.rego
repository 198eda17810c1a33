package tenet.decide_test

import data.tenet.decide

managed(overrides) := object.union({
	"address": "terraform_data.a",
	"mode": "managed",
	"key": null,
	"deposed": "",
	"has_config": true,
	"config_known": true,
	"has_prior": true,
	"tainted": false,
	"planned_equals_prior": false,
	"requires_replace": [],
	"lifecycle": {"create_before_destroy": false, "prevent_destroy": false},
	"force_replace": false,
	"triggered": false,
	"dependency_pending": false,
	"orphan": {"resource_in_config": true, "moved": false, "module_declared": true, "repetition": "none", "in_expansion": true},
	"removed": null,
}, overrides)

normal := {"mode": "normal", "timestamp": "2025-01-02T03:04:05Z"}

# The rules are about one instance; a test gives them instances as the
# evaluator does, and each element the rules produce names the instance by
# its index: [0, [row, action, reason]].
decision_of(inst) := d if {
	decisions := decide.decisions with input as {"run": normal, "instances": [inst]}
	some [0, d] in decisions
}

test_no_prior_object_is_created if {
	decision_of(managed({"has_prior": false})) == ["create_no_prior", "create", ""]
}

test_planned_equals_prior_is_a_noop if {
	decision_of(managed({"planned_equals_prior": true})) == ["noop_unchanged", "no-op", ""]
}

test_tainted_is_replaced_before_anything_else if {
	decision_of(managed({"tainted": true, "has_prior": false, "force_replace": true})) == ["replace_because_tainted", "delete-then-create", "replace_because_tainted"]
}

test_create_before_destroy_lowers_only_replaces if {
	cbd := {"create_before_destroy": true, "prevent_destroy": false}
	decision_of(managed({"tainted": true, "lifecycle": cbd}))[1] == "create-then-delete"
	decision_of(managed({"lifecycle": cbd}))[1] == "update"
	decision_of(managed({"tainted": true}))[1] == "delete-then-create"
}

test_orphan_reason_order_prefers_missing_block if {
	inst := managed({
		"has_config": false,
		"key": 3,
		"orphan": {"resource_in_config": false, "moved": false, "module_declared": false, "repetition": "for_each", "in_expansion": false},
	})
	decision_of(inst) == ["delete_orphan", "delete", "delete_because_no_resource_config"]
}

test_trigger_overrides_the_reason_not_the_action if {
	decision_of(managed({"triggered": true, "tainted": true})) == ["replace_because_tainted", "delete-then-create", "replace_by_triggers"]
}

test_refresh_only_decides_nothing if {
	decisions := decide.decisions with input as {"run": {"mode": "refresh-only"}, "instances": [managed({"tainted": true})]}
	decisions == {[0, ["refresh_only", "", ""]]}
}

test_rows_partition_a_mixed_chunk if {
	instances := [
		managed({"has_prior": false}),
		managed({"planned_equals_prior": true}),
		managed({}),
		managed({"tainted": true}),
		managed({"has_config": false}),
	]
	decisions := decide.decisions with input as {"run": normal, "instances": instances}
	decisions == {
		[0, ["create_no_prior", "create", ""]],
		[1, ["noop_unchanged", "no-op", ""]],
		[2, ["update_in_place", "update", ""]],
		[3, ["replace_because_tainted", "delete-then-create", "replace_because_tainted"]],
		[4, ["delete_orphan", "delete", ""]],
	}
	conflicts := decide.conflicts with input as {"run": normal, "instances": instances}
	conflicts == set()
}

test_instance_no_row_decides_is_a_conflict if {
	conflicts := decide.conflicts with input as {"run": {"mode": "plan"}, "instances": [managed({})]}
	conflicts == {[0, []]}
}

test_instance_two_rows_decide_is_a_conflict if {
	instances := [managed({}), managed({"has_prior": false})]
	conflicts := decide.conflicts with input as {"run": normal, "instances": instances}
		with decide.decision.update_in_place as {"value": {"action": "update", "reason": ""}, "indices": [0, 1]}
	count(conflicts) == 1
	some [1, rows] in conflicts
	sort(rows) == ["create_no_prior", "update_in_place"]
}

test_prevent_destroy_only_for_destroying_actions if {
	protected := {"create_before_destroy": false, "prevent_destroy": true}
	instances := [
		managed({"lifecycle": protected}),
		managed({"lifecycle": protected, "requires_replace": [["input"]]}),
	]
	errs := decide.errors with input as {"run": normal, "instances": instances}
	{i | some [i, _] in errs} == {1}
}
