// Package local stores state in a local file the way OpenTofu's local
// backend does: one state file (terraform.tfstate by default), a .backup of
// the snapshot that existed before the first change, and an exclusive lock
// described by `.<state file name>.lock.info` beside the file.
//
// Writes are atomic: a temporary file in the same directory is written,
// synced and renamed over the state file, so a crash leaves either the old
// or the new snapshot, never a mix. A state file that cannot be parsed is
// never overwritten.
//
// For long applies, a Journal appends one line per completed resource
// operation to `<state path>.journal` instead of rewriting the whole file
// each time; the next Read folds a journal left behind by a crash into the
// state. Serial and lineage follow semantics.md §13.
//
// The file format itself belongs to state/statefile.
package local
