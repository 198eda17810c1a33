package terraform.blast_radius

import rego.v1

changes := [rc |
	some rc in input.resource_changes
	not rc.change.actions == ["no-op"]
	not rc.change.actions == ["read"]
]

deletes := [rc.address | some rc in changes; "delete" in rc.change.actions]

warn contains msg if {
	count(changes) > data.settings.max_changes_warn
	msg := sprintf("this plan changes %d resources (more than %d): review it with care", [count(changes), data.settings.max_changes_warn])
}

violation contains result if {
	count(deletes) > data.settings.max_deletes
	result := {
		"msg": sprintf("this plan deletes %d resources (at most %d allowed in one run)", [count(deletes), data.settings.max_deletes]),
		"addresses": deletes,
	}
}
