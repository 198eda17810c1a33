// Package providertest holds a configurable fake provider for engine
// tests. Its schema comes from the test; every operation records its
// request and then either calls the test's XxxFn hook or a sensible
// default (plan = proposed state with computed values unknown on create,
// apply = planned state with unknowns filled in). Hooks can make the
// provider misbehave on purpose, to exercise the engine's checks.
package providertest
