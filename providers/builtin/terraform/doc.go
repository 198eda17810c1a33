// Package terraform is the built-in provider terraform.io/builtin/terraform:
// the terraform_data resource and the terraform_remote_state data source,
// behaving as OpenTofu's so configurations run unchanged on both.
//
// terraform_remote_state reads only the "local" backend, straight from
// the state file's JSON: providers never see tenet's state package.
package terraform
