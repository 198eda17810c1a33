// Package backend is the vocabulary shared by tenet's state backends:
// where a configuration's state lives when it is not a local file.
//
// A Backend is configured from the settings of a `backend "TYPE" { ... }`
// block (Settings, decoded from the block body plus the backend's
// environment variables). It lists, creates and deletes workspaces and
// hands out one Manager per workspace. A Manager reads and writes the
// workspace's state snapshot and takes and releases its lock; the serial
// and lineage rules (a changed snapshot gets the next serial, a new one a
// fresh lineage) live here once, over a small Client that each backend
// implements for its storage.
//
// Every failure a user can act on is returned as hcl.Diagnostics whose
// detail says what to do; a lock held by someone else is a diagnostic that
// carries the holder's LockInfo. A stored state that cannot be parsed is
// never overwritten, and a failed write leaves the stored state as it was.
//
// The backends themselves live in subpackages (pg, s3, http), each owning
// its settings, storage layout and locking, kept identical to OpenTofu's so
// that either tool can work on the same stored state. The local file
// belongs to state/local and the v4 file format to state/statefile.
package backend
