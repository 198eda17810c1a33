# Conftest-style, Rego v0 syntax: runs unchanged under conftest.
package main

deny[msg] {
	rc := input.resource_changes[_]
	rc.mode == "managed"
	rc.type == data.settings.forbidden_resource_types[_]
	actions := {a | a := rc.change.actions[_]}
	actions & {"create", "update"} != set()
	msg := sprintf("%s: resource type %s is not allowed", [rc.address, rc.type])
}
