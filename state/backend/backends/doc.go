// Package backends configures a state backend by its type name: the one
// place that knows every remote backend, so the CLI need not import each.
// The local backend stays with state/local.
package backends
