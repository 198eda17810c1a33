// Package local stores state in a local file the way OpenTofu's local
// backend does: one state file (terraform.tfstate by default), a .backup of
// the snapshot that existed before the first change, and an exclusive lock
// described by `.<state file name>.lock.info` beside the file.
//
// Writes are atomic: a temporary file in the same directory is written,
// synced and renamed over the state file, so a crash leaves either the old
// or the new snapshot, never a mix. A state file that cannot be parsed is
// never overwritten. The backup is a hard link to the file read when that
// file is still in place and unchanged (tenet never rewrites a state file
// in place, so once the new one is renamed over it, that inode holds
// exactly the old snapshot), else an atomic copy.
//
// The manager keeps the last snapshot as its encoding, not as a copy of
// the state: Read hands out the state it parsed, and a write compares
// encodings (or, against the file read, states) to decide on the serial.
//
// For long applies, a Journal appends one line per completed resource
// operation to `<state path>.journal` instead of rewriting the whole file
// each time; the next Read folds a journal left behind by a crash into the
// state. Serial and lineage follow semantics.md §13.
//
// The file format itself belongs to state/statefile.
package local
