// Package http stores state behind a REST endpoint the way OpenTofu's
// "http" backend does (GitLab's Terraform state API is the best-known
// server): GET address reads the state, update_method (POST) address
// stores it with a Content-MD5 header and, while locked, ?ID=<lock ID>;
// lock_method (LOCK) lock_address and unlock_method (UNLOCK)
// unlock_address take and release the lock, sending the lock info JSON. A
// server refuses a held lock with 409 or 423 and the holder's lock info as
// the body. Without lock_address there is no locking.
//
// The protocol has one state per address, so there are no workspaces
// other than "default". Failed requests are retried (retry_max times,
// waiting retry_wait_min to retry_wait_max seconds) on connection errors,
// 429 and 5xx answers other than 501.
package http
