# METADATA
# title: Required tags
# description: Taggable resources that are created or updated carry every required tag.
package terraform.tags

import rego.v1

changing(rc) if {
	some action in rc.change.actions
	action in {"create", "update"}
}

deny contains result if {
	some rc in input.resource_changes
	rc.mode == "managed"
	changing(rc)
	is_object(rc.change.after.tags)
	missing := {tag | some tag in data.settings.required_tags; not rc.change.after.tags[tag]}
	count(missing) > 0
	result := {
		"msg": sprintf("%s is missing required tags: %s", [rc.address, concat(", ", sort(missing))]),
		"address": rc.address,
	}
}
