// Package graphsolve is the generic dependency graph behind tenet's plan and
// apply walks.
//
// A [Graph] holds vertices of any comparable type K; an edge from -> to means
// "from depends on to", so to runs first. The package owns:
//
//   - building graphs in O(1) amortised per vertex and edge, with duplicate
//     edges ignored and deterministic iteration (insertion order);
//   - cycle reports that name their members ([Graph.Validate]: "Cycle: a, b"
//     per strongly-connected component, "Self reference: a" per self edge);
//   - a stable topological order ([Graph.TopoOrder]) and transitive closures
//     ([Graph.TransitiveDependencies], [Graph.TransitiveDependents]);
//   - a bounded parallel walk ([Graph.Walk]) that skips the dependents of a
//     failed vertex, keeps independent work going, and returns diagnostics in
//     topological order whatever the completion order;
//   - DOT output for `tenet graph` ([Graph.DOT]).
//
// Everything is linear (or V log V where a stable order needs a heap) and
// iterative, so graphs of 100,000+ vertices and chains as deep build, sort
// and walk in milliseconds.
//
// It knows nothing of tenet: which vertices exist, what their names are and
// which edges join them (references, destroy ordering, create_before_destroy
// inversion) is the engine's job, as is what a vertex does when walked and how
// an interrupted walk is worded. Storage is our own compact index-based
// adjacency rather than dominikbraun/graph: its v0.23.0 topological sort is
// quadratic, and its strongly-connected-component search reports cycles
// through vertex 0 that do not exist (oracle_test.go checks ours against
// brute force instead).
package graphsolve
