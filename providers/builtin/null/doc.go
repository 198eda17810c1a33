// Package null is the built-in provider registry.opentofu.org/hashicorp/null:
// the null_resource resource, which does nothing but can be replaced when
// its triggers change.
package null
