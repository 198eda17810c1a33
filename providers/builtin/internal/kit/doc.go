// Package kit is the shared machinery of tenet's built-in providers: a
// dispatching implementation of providers.Interface over per-type
// handlers, state decoding, and the plan rules most built-in resources
// share (defaults, computed values unknown until apply, replacement when
// an argument changes), and provider-defined functions declared with
// their implementation (Function). It is internal so nothing outside
// providers/builtin depends on how the built-ins are put together.
package kit
