// Package state is tenet's in-memory record of what exists: root output
// values and, per module instance, the resources and the remote objects of
// their instances (one current object and any deposed ones).
//
// Attribute values stay encoded as the JSON the state file stores; only the
// engine, which holds the provider schemas, decodes them. This package owns
// the model and its invariants (empty instances, resources and modules are
// pruned; deposed keys are unique), Change (one recorded edit, which the
// apply journal replays with State.Apply), and ordering instances the way
// state files list them.
//
// It leaves the file format to state/statefile, the JSON view used by
// `show -json` and plans to state/statejson, and storage (locking, backups,
// the apply journal) to state/local. It imports only addrs, hcl, cty and the
// standard library.
package state
