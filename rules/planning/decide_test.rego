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

test_rows_partition_a_mixed_chunk if {
	instances := [
		managed({"has_prior": false}),
		managed({"planned_equals_prior": true}),
		managed({}),
		managed({"tainted": true}),
		managed({"has_config": false}),
	]
	decisions := decide.decisions with input as {"run": normal, "instances": instances}
	{[i, row, action, reason] | some [i, row, action, reason] in decisions} == {
		[0, "create_no_prior", "create", ""],
		[1, "noop_unchanged", "no-op", ""],
		[2, "update_in_place", "update", ""],
		[3, "replace_because_tainted", "delete-then-create", "replace_because_tainted"],
		[4, "delete_orphan", "delete", ""],
	}
}

test_create_before_destroy_lowers_only_replaces if {
	cbd := {"create_before_destroy": true, "prevent_destroy": false}
	instances := [
		managed({"tainted": true, "lifecycle": cbd}),
		managed({"lifecycle": cbd}),
		managed({"tainted": true}),
	]
	decisions := decide.decisions with input as {"run": normal, "instances": instances}
	{i: action | some [i, _, action, _] in decisions} == {0: "create-then-delete", 1: "update", 2: "delete-then-create"}
}

test_instance_no_row_decides_is_a_conflict if {
	instances := [managed({}), managed({"has_prior": false})]
	result := decide.result with input as {"run": normal, "instances": instances}
		with decide.table.update_in_place as {"action": "update", "reason": "", "indices": []}
	result.decisions == []
	result.conflicts == [[0, []]]
}

test_instance_two_rows_decide_is_a_conflict if {
	instances := [managed({}), managed({"has_prior": false})]
	result := decide.result with input as {"run": normal, "instances": instances}
		with decide.table.update_in_place as {"action": "update", "reason": "", "indices": [0, 1]}
	result.decisions == []
	count(result.conflicts) == 1
	[1, rows] = result.conflicts[0]
	sort(rows) == ["create_no_prior", "update_in_place"]
}

test_orphan_reason_order_prefers_missing_block if {
	inst := managed({
		"has_config": false,
		"key": 3,
		"orphan": {"resource_in_config": false, "moved": false, "module_declared": false, "repetition": "for_each", "in_expansion": false},
	})
	reasons := decide.reason_override with input as {"run": normal, "instances": [inst]}
	reasons == {0: "delete_because_no_resource_config"}
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

test_refresh_only_decides_nothing if {
	decisions := decide.decisions with input as {"run": {"mode": "refresh-only"}, "instances": [managed({"tainted": true})]}
	decisions == [[0, "refresh_only", "", ""]]
}
