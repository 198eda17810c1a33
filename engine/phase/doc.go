// Package phase is the contract planning and applying share with the
// facade (package engine) that calls them: the Env a run is given, the
// Hooks it reports progress to, the Scope it fills in with its values
// for the caller to evaluate against, and the one way a walk cut short
// is reported (ReportHaltOnce).
//
// It holds no walk: planning a graph is package planning's, applying a
// plan package applying's, and what both do the same way at a graph node
// package nodes'. Nothing here is mutated by a run except a Scope, which
// the run fills in once, as it ends.
package phase
