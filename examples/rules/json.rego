package tenet.prepare

# METADATA
# title: JSON documents equal once decoded are the same document
# custom:
#   id: acme.json_equivalent
equivalent contains ["input"] if {
	inst := input.instance
	new := inst.config.values.input
	old := inst.prior.values.input
	is_string(new)
	is_string(old)
	json.is_valid(new)
	json.is_valid(old)
	json.unmarshal(new) == json.unmarshal(old)
}
