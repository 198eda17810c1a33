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
	rows := decide.rows with input as {"run": normal, "instances": instances}
	chosen := {i: row.rule | some row in rows; some i in row.indices}
	chosen == {
		0: "tenet.decide.create_no_prior",
		1: "tenet.decide.noop_unchanged",
		2: "tenet.decide.update_in_place",
		3: "tenet.decide.replace_because_tainted",
		4: "tenet.decide.delete_orphan",
	}
}

test_create_before_destroy_lowers_only_replaces if {
	instances := [
		managed({"tainted": true, "lifecycle": {"create_before_destroy": true, "prevent_destroy": false}}),
		managed({"lifecycle": {"create_before_destroy": true, "prevent_destroy": false}}),
		managed({"tainted": true}),
	]
	decide.create_then_delete == {0} with input as {"run": normal, "instances": instances}
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
	rows := decide.rows with input as {"run": {"mode": "refresh-only"}, "instances": [managed({"tainted": true})]}
	some row in rows
	row.rule == "tenet.decide.refresh_only"
	row.indices == [0]
	row.action == ""
}
