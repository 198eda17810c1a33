// Package providercall is the engine's side of the provider protocol:
// it starts providers on demand (Set), keeps one schema and one decoding
// spec per resource type, configures one instance per provider
// configuration, serves provider-defined functions to expressions
// (Functions), remembers validation answers (ValidationCache), spreads
// per-instance provider calls over workers (EachProviderCall), and turns
// a provider's broken promises — an invalid plan, an inconsistent final
// plan or result, unknown values after apply — into diagnostics that
// name the provider, the instance and the attribute (contract.go).
//
// It knows nothing of the graph, of planning decisions or of the state
// file: deciding what to ask a provider and what to do with the answer
// belongs to the planning and applying phases above it.
package providercall
