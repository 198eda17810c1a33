package tenet.moves_test

import data.tenet.moves

ep(kind, res, key) := {
	"kind": kind,
	"modules": [],
	"resource": res,
	"type": split(res, ".")[0],
	"key": key,
	"config_resource": res,
	"text": concat("", [res, key]),
}

stmt(from, to) := {
	"implied": false,
	"depth": 0,
	"pos": "main.tf:1,1",
	"from": from,
	"to": to,
	"declared": {"module_call": false, "module_instance": false, "resource": false, "instance": false},
}

test_chain_orders_first_link_first if {
	stmts := [
		stmt(ep("resource", "terraform_data.b", ""), ep("resource", "terraform_data.c", "")),
		stmt(ep("resource", "terraform_data.a", ""), ep("resource", "terraform_data.b", "")),
	]
	moves.order == [1, 0] with input as {"statements": stmts, "blocked": []}
}

test_instance_key_on_one_side_unifies_to_instances if {
	stmts := [stmt(ep("resource", "terraform_data.x", ""), ep("instance", "terraform_data.a", "[0]"))]
	moves.kinds == {0: "instance"} with input as {"statements": stmts, "blocked": []}
}

test_cycle_blocks_every_move if {
	stmts := [
		stmt(ep("resource", "terraform_data.a", ""), ep("resource", "terraform_data.b", "")),
		stmt(ep("resource", "terraform_data.b", ""), ep("resource", "terraform_data.a", "")),
	]
	moves.order == [] with input as {"statements": stmts, "blocked": []}
	moves.cyclic == {0, 1} with input as {"statements": stmts, "blocked": []}
}

test_blocked_warning_only_without_errors if {
	s := object.union(stmt(ep("resource", "terraform_data.a", ""), ep("resource", "terraform_data.b", "")), {"declared": {"resource": true}})
	blocked := [{"statement": 0, "from": "terraform_data.a", "to": "terraform_data.b"}]
	count(moves.warnings) == 0 with input as {"validate": true, "statements": [s], "blocked": blocked}
	count(moves.errors) == 1 with input as {"validate": true, "statements": [s], "blocked": blocked}
}
