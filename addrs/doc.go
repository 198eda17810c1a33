// Package addrs is tenet's vocabulary of addresses: modules and module
// instances, resources and resource instances, providers, the references
// that expressions make, and the targets that -target / -replace name.
//
// It is a leaf: it imports only hcl, cty and, for provider source
// addresses, the ecosystem's own hostname and provider-part normalisation
// (terraform-svchost, terraform-registry-address), so every other package
// can use it. Addresses are immutable values with a String form that Parse accepts
// back unchanged; the round trip is tested and fuzzed. Addresses never know
// about configuration, state or plans — those packages hold addresses, not
// the other way round.
package addrs
