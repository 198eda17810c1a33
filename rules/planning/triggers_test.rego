package tenet.triggers_test

import data.tenet.triggers

ref(actions, has_path, changed) := {"ref": "terraform_data.a", "actions": actions, "has_path": has_path, "path_changed": changed}

fired(refs) := t if {
	t := triggers.result.triggered with input as {"instances": [{"address": "terraform_data.b", "references": refs}]}
}

test_update_and_replace_fire if {
	fired([ref(["update"], false, false)]) == {[0, 0, "tenet.triggers.object_changed"]}
	fired([ref(["delete-then-create"], false, false)]) == {[0, 0, "tenet.triggers.object_changed"]}
	fired([ref(["create-then-delete"], false, false)]) == {[0, 0, "tenet.triggers.object_changed"]}
}

test_create_delete_noop_never_fire if {
	fired([ref(["create", "delete", "no-op", "read", "forget"], false, false)]) == set()
}

test_any_instance_of_a_whole_resource_fires if {
	fired([ref(["no-op", "update"], false, false)]) == {[0, 0, "tenet.triggers.object_changed"]}
}

test_path_fires_only_when_the_value_differs if {
	fired([ref(["update"], true, false)]) == set()
	fired([ref(["update"], true, true)]) == {[0, 0, "tenet.triggers.attribute_changed"]}
	fired([ref(["create"], true, true)]) == set()
}

test_every_firing_reference_is_reported if {
	fired([ref(["no-op"], false, false), ref(["update"], false, false)]) == {[0, 1, "tenet.triggers.object_changed"]}
}
