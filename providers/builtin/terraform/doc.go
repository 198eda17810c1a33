// Package terraform is the built-in provider terraform.io/builtin/terraform:
// the terraform_data resource and the terraform_remote_state data source,
// behaving as OpenTofu's so configurations run unchanged on both.
//
// terraform_remote_state reads the "local" backend straight from the
// state file's JSON: providers never see tenet's state package. Other
// backends are read through a StateReader the CLI supplies
// (NewWithStateReader); without one they are refused.
//
// Its functions, provider::terraform::encode_tfvars, decode_tfvars and
// encode_expr, are OpenTofu's, with OpenTofu's error texts; their errors
// blame the call rather than an argument, as OpenTofu's do. One
// deliberate difference: encode_tfvars of an object holding unknown
// values is unknown, where OpenTofu 1.10.6 panics.
package terraform
