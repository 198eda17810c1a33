// Package nodes says what visiting one graph node means where planning,
// applying and validation agree: evaluating a variable, local, output or
// module call into the value store (values.go), a check block's
// assertions and the check results of resources (checks.go), and
// configuring a node's provider once per provider configuration
// (providers.go).
//
// Resource nodes are not here: planning one (refresh, plan, decide) and
// applying one are different work and belong to those phases. Building
// the graph belongs to package graph, evaluating expressions to eval,
// talking to providers to providercall.
package nodes
