# Team extension points of the prepare stage (package metadata lives in
# prepare.rego).
#
#   Team rule files add [i, path] elements, where i is the index of the
#   instance in input.instances and path is a step array as in
#   lifecycle.ignore_changes (a string is an attribute name, or a key when it
#   meets a map; a number is a list index; {"key": s} is an explicit map key).
#   Both extension points make the configuration take the prior value at the
#   path before the provider plans, so the provider sees no difference there.
#   They differ in what they say, which explain shows: ignore_paths means
#   "changes here are not ours to make", equivalent means "these values differ
#   in text but not in meaning".
package tenet.prepare

# ignore_paths: extra lifecycle.ignore_changes paths for instance i. Paths
# that do not exist in the configuration are ignored silently.
ignore_paths contains {"value": [0, x], "rule": ""} if {
	false
	x := []
}

# equivalent: at path, instance i's configured value means the same as its
# prior value (e.g. two JSON documents that are equal once decoded).
equivalent contains {"value": [0, x], "rule": ""} if {
	false
	x := []
}
