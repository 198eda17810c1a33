// Package applying carries out a saved plan: Apply walks the apply graph
// (package graph builds it from the plan), re-plans each instance with
// its now-known configuration and holds the provider's final plan and
// result to the saved plan and to the protocol's rules, performs creates,
// updates, deferred reads and the create halves of replacements at a
// resource's node and its deletes and forgets at the node's destroy twin
// (resource.go), runs the creation-time provisioners of new objects and
// the destroy-time ones before deletes, tainting a new object whose
// provisioner fails (provision.go), and records every completed
// operation into the working state and the caller's StateRecorder as it
// happens.
//
// The plan arrives as a value and is only read. What the walk shares
// between nodes is the working state and the deposed keys of
// create_before_destroy replacements, behind one lock in applyWalker;
// values flow to dependents through the eval value store. A -target or
// -exclude plan limits the walk to what its changes need (targets.go).
//
// Making the plan is package planning's, and the two never import each
// other; evaluating expressions is eval's, what a variable, local,
// output, module call or check node does is nodes', the provider protocol
// and its contract diagnostics are providercall's, and ignore_changes'
// value handling is ignorechanges'. The facade, package engine, is what
// the CLI calls.
package applying
