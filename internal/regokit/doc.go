// Package regokit is the Rego toolkit that team planning rules (package
// rules) and compliance policies (package policy) share: parsing and
// loading a directory of .rego files with file:line errors, the sandbox
// (one list of refused built-ins, and which of them each caller refuses),
// OPA's errors as diagnostics, METADATA provenance (the id, title and
// description of a rule), the runner of Rego unit tests behind both
// `tenet rules test` and `tenet policy test`, and the read set of compiled
// rules (reads.go): what a rule refers to, whether it or a rule it depends
// on reads input, whether it uses `with`, for every caller that asks.
//
// It owns the mechanics, not the wording of a caller's messages nor its
// policy: each caller says which kinds of built-in it refuses, how a
// refused call is explained, what its files are called in a diagnostic
// ("rule", "policy") and how it compiles and prepares its queries. What
// the rules decide and how a policy check is judged stay in their packages.
//
// It imports only OPA, HCL's diagnostics and the standard library, so any
// layer that runs Rego may import it.
package regokit
