package tenet.prepare_test

import data.tenet.prepare

inst(has_prior, paths, all) := {
	"address": "terraform_data.a",
	"has_prior": has_prior,
	"lifecycle": {"ignore_changes": paths, "ignore_all": all},
}

test_configured_paths_are_ignored_with_a_prior if {
	res := prepare.result with input as {"instances": [inst(true, [["input"], ["tags", {"key": "Name"}]], false)]}
	res.ignore == {[0, ["input"]], [0, ["tags", {"key": "Name"}]]}
	res.ignore_all == set()
	res.fired == {[0, "tenet.prepare.ignore_changes"]}
}

test_nothing_is_ignored_without_a_prior if {
	res := prepare.result with input as {"instances": [inst(false, [["input"]], true)]}
	res.ignore == set()
	res.ignore_all == set()
}

test_ignore_all_is_per_instance if {
	res := prepare.result with input as {"instances": [inst(true, [], false), inst(true, [], true)]}
	res.ignore_all == {1}
	res.fired == {[1, "tenet.prepare.ignore_all"]}
}
