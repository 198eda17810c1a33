package terraform.stateful

import rego.v1

# METADATA
# title: No deletes of stateful resources
# description: Deleting or replacing a database or bucket loses its data.
# custom:
#   enforcement: soft-mandatory
deny contains result if {
	some rc in input.resource_changes
	rc.mode == "managed"
	rc.type in data.settings.stateful_types
	"delete" in rc.change.actions
	result := {
		"msg": sprintf("%s (%s) would be deleted: its data would be lost", [rc.address, rc.type]),
		"address": rc.address,
	}
}
