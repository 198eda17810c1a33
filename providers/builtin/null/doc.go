// Package null is the built-in provider registry.opentofu.org/hashicorp/null,
// standing for hashicorp/null v3.2.4: the null_resource resource and the
// deprecated null_data_source data source, with the same attributes.
package null
