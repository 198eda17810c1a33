package tenet.prepare

# METADATA
# title: The autoscaler owns its trigger keys
# custom:
#   id: acme.ignore_autoscaler_keys
ignore_paths contains ["triggers", k] if {
	inst := input.instance
	some k, _ in object.union(
		object.get(inst.config.values, "triggers", {}),
		object.get(inst.prior.values, "triggers", {}),
	)
	glob.match("autoscaler/*", ["/"], k)
}
