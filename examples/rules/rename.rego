package tenet.moves

# METADATA
# title: The legacy_ prefix was dropped from resource names
# custom:
#   id: acme.drop_legacy_prefix
moves contains [r.address, to] if {
	some r in input.state.resources
	startswith(r.name, "legacy_")
	to := sprintf("%s.%s", [r.type, trim_prefix(r.name, "legacy_")])
	some c in input.config.resources
	c.address == to
}
