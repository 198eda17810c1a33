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
// state, every line it can read. What it cannot read or apply it reports
// through Manager.Notices, and such a journal is never removed: the next
// write renames it to `<journal>.<UTC time>` (recover.go;
// docs/durability.md states the rules for users).
//
// A state path that is a symbolic link is written through: the snapshot,
// the journal and the lock info live beside the file the link names, the
// backup at the path as given (link.go). A path that is a directory is an
// IsDirError, not a lock or parse failure.
//
// Serial and lineage follow OpenTofu's local backend: a changed state
// bumps the serial; WriteFile stores a snapshot with its own lineage and
// serial (state push), after CheckReplace allowed it; ForceUnlock removes
// a lock by ID.
//
// The file format itself belongs to state/statefile.
package local
