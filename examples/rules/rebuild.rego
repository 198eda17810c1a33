package tenet.decide

# METADATA
# title: Hosts are rebuilt, never patched, when their image changes
# custom:
#   id: acme.rebuild_on_image_change
force_replace contains sprintf("image %s -> %s", [old, new]) if {
	inst := input.instance
	inst.type == "terraform_data"
	old := inst.prior.values.input.image
	new := inst.config.values.input.image
	old != new
}
