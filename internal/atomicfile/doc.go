// Package atomicfile replaces files whole, for the files tenet writes for
// its users (state, backups, plans, the dependency lock file, the
// credentials file): a reader sees the old content or the new one, and a
// crash leaves one of them, never a mix.
//
// It also keeps the path what the user made it. A symbolic link stays a
// link and its target gets the new content, and a path that is not a
// regular file (a device such as /dev/null, a named pipe) is written to,
// not replaced by a file; there the write is not atomic, as nothing can
// be renamed over a device.
//
// What the files contain, and the journal that makes state writes
// durable between these replacements (state/local), are the callers'.
package atomicfile
