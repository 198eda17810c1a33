// Package graph builds the configuration graph a walk visits: one Node
// per block per module path (variables, locals, outputs, module calls,
// resources, check blocks, and resources only the state knows about),
// with edges from the references between them, depends_on and import
// blocks, each resource resolved to its provider configuration and
// schema. It reports undeclared references as diagnostics. BuildApply
// derives the apply graph from a plan: one node per resource's creates
// and updates, one per resource's deletes, with the ordering edges of
// create_before_destroy and dependencies. UI derives from the
// configuration graph the graphs `tenet graph` prints, node for node and
// edge for edge as OpenTofu draws them (plan, plan-destroy, apply).
//
// It evaluates nothing and decides nothing: walking the graph and what
// each node does belongs to the planning and applying code, expression
// evaluation to eval, and the order algorithms themselves to graphsolve.
package graph
