package terraform.policies_test

import rego.v1

import data.main
import data.terraform.blast_radius
import data.terraform.protected
import data.terraform.stateful
import data.terraform.tags

change(address, type, actions, after) := {
	"address": address, "mode": "managed", "type": type,
	"change": {"actions": actions, "before": null, "after": after},
}

test_forbidden_type_denied if {
	plan := {"resource_changes": [change("null_resource.x", "null_resource", ["create"], {})]}
	main.deny == {"null_resource.x: resource type null_resource is not allowed"} with input as plan
}

test_forbidden_type_delete_allowed if {
	plan := {"resource_changes": [change("null_resource.x", "null_resource", ["delete"], null)]}
	count(main.deny) == 0 with input as plan
}

test_missing_tags if {
	plan := {"resource_changes": [change("aws_s3_bucket.b", "aws_s3_bucket", ["create"], {"tags": {"owner": "me"}})]}
	some r in tags.deny with input as plan
	r.address == "aws_s3_bucket.b"
	contains(r.msg, "cost_center")
}

test_all_tags_present if {
	plan := {"resource_changes": [change("aws_s3_bucket.b", "aws_s3_bucket", ["update"], {"tags": {"owner": "me", "cost_center": "42"}})]}
	count(tags.deny) == 0 with input as plan
}

test_stateful_replace_denied if {
	plan := {"resource_changes": [change("aws_db_instance.db", "aws_db_instance", ["delete", "create"], {})]}
	count(stateful.deny) == 1 with input as plan
}

test_protected_replace_denied if {
	plan := {"resource_changes": [change("module.network.aws_vpc.main", "aws_vpc", ["create", "delete"], {})]}
	count(protected.deny) == 1 with input as plan
}

test_protected_update_allowed if {
	plan := {"resource_changes": [change("module.network.aws_vpc.main", "aws_vpc", ["update"], {})]}
	count(protected.deny) == 0 with input as plan
}

test_blast_radius if {
	deletes := [change(sprintf("terraform_data.d[%d]", [i]), "terraform_data", ["delete"], null) | some i in numbers.range(0, 30)]
	count(blast_radius.warn) == 1 with input as {"resource_changes": deletes}
	count(blast_radius.violation) == 1 with input as {"resource_changes": deletes}
}
