package tenet.decide

# METADATA
# title: Production databases are never destroyed by a plan
# custom:
#   id: acme.keep_prod_databases
prevent_destroy contains "production databases are kept" if {
	input.run.variables.env == "prod"
	input.instance.type == "terraform_data"
	input.instance.name == "db"
}
