package tenet.cbd_test

import data.tenet.cbd

test_forced_follows_dependencies_not_dependents if {
	resources := [
		{"address": "a", "create_before_destroy": false, "depends_on": []},
		{"address": "b", "create_before_destroy": true, "depends_on": ["a"]},
		{"address": "c", "create_before_destroy": false, "depends_on": ["b"]},
	]
	forced := cbd.forced with input as {"resources": resources}
	object.keys(forced) == {"a"}
}

test_reachable_is_linear_on_a_diamond_ladder if {
	# 60 stacked diamonds: graph.reachable would re-expand shared nodes
	# exponentially; tenet.reachable visits each node once.
	resources := array.concat(
		[{"address": sprintf("n%d", [i]), "create_before_destroy": false, "depends_on": [sprintf("l%d", [i]), sprintf("r%d", [i])]} | some i in numbers.range(0, 59)],
		array.concat(
			[{"address": sprintf("l%d", [i]), "create_before_destroy": false, "depends_on": [sprintf("n%d", [i + 1])]} | some i in numbers.range(0, 59)],
			[{"address": sprintf("r%d", [i]), "create_before_destroy": false, "depends_on": [sprintf("n%d", [i + 1])]} | some i in numbers.range(0, 59)],
		),
	)
	top := {"address": "top", "create_before_destroy": true, "depends_on": ["n0"]}
	forced := cbd.forced with input as {"resources": array.concat(resources, [top])}
	count(forced) == 181
}
