// Package pg stores state in PostgreSQL exactly as OpenTofu's "pg" backend
// does, so tenet and OpenTofu can share it.
//
// Layout: one table (default terraform_remote_state.states) with columns
// id (bigint from the sequence public.global_states_id_seq), name (text,
// unique: the workspace, "default" for the default one) and data (text:
// the state snapshot), plus a unique index (default states_by_name) on
// name. The schema, table and index are created unless the skip_*
// settings say otherwise.
//
// Locking uses session advisory locks with OpenTofu's keys: a workspace
// whose row exists is locked on the row's id; a workspace without a row
// on the "creation" key, the negated 32-bit FNV-1 hash of
// "<schema>\x00<table>", which is also taken briefly alongside a row lock
// so a workspace being created and locked at once cannot be locked twice.
// PostgreSQL grants an advisory lock to one session in the whole
// database, so two processes on two machines (tenet or OpenTofu) exclude
// each other; the lock is held on a connection kept for the purpose and
// vanishes with it if the process dies. PostgreSQL stores no lock info, so
// a conflict names the holding session from pg_stat_activity. Under a
// lock, reads and writes run on the locking session, and a write checks
// in the same statement that the session still holds the lock.
//
// Sessions prefer lz4 for compressing stored values and plan statements
// without their parameters' values (tuneSession): the table stays as
// OpenTofu defines it.
package pg
