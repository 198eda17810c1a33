package tenet.cbd

# METADATA
# title: Front ends are replaced create-before-destroy
# custom:
#   id: acme.frontends_create_first
force_create_before_destroy contains r.address if {
	some r in input.resources
	startswith(r.address, "terraform_data.frontend")
}
