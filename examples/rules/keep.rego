package tenet.decide

# METADATA
# title: Production databases are never destroyed by a plan
# custom:
#   id: acme.keep_prod_databases
prevent_destroy contains [i, "production databases are kept"] if {
	input.run.variables.env == "prod"
	some i, inst in input.instances
	inst.type == "terraform_data"
	inst.name == "db"
}
