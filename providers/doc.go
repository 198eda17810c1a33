// Package providers defines how tenet talks to providers: one
// Request/Response pair per operation of the provider protocol, each
// method taking a context first, and the schemas providers describe their
// resource types with.
//
// Providers see only cty values, paths and addresses. They never see
// configuration syntax or state files: the engine evaluates configuration
// into values, and turns the values providers return into state. The
// built-in providers live in providers/builtin/<name>; provider plugins
// (Terraform/OpenTofu provider executables) run through providers/plugin;
// test fakes live in providers/providertest, never in production
// packages.
package providers
