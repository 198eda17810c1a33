package terraform.protected

import rego.v1

replaced(rc) if {
	"create" in rc.change.actions
	"delete" in rc.change.actions
}

# METADATA
# title: No replacement of protected addresses
# custom:
#   enforcement: hard-mandatory
deny contains result if {
	some rc in input.resource_changes
	replaced(rc)
	some pattern in data.settings.protected_addresses
	glob.match(pattern, ["."], rc.address)
	result := {
		"msg": sprintf("%s is protected (%s) and must not be replaced", [rc.address, pattern]),
		"address": rc.address,
	}
}
