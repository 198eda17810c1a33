// Package s3 stores state in an S3 bucket (Amazon S3 or any S3-compatible
// server) with OpenTofu's "s3" backend settings and object layout, so
// either tool can use the same bucket.
//
// Layout: the default workspace's state is the object <key>; another
// workspace's is <workspace_key_prefix>/<workspace>/<key> (prefix "env:"
// by default); workspaces are found by listing that prefix. With
// use_lockfile the lock is the object <state object>.tflock holding the
// holder's lock info JSON, created with a conditional write (If-None-Match:
// *), so the server grants it to exactly one writer; unlocking checks the
// ID and deletes it. DynamoDB locking is not supported.
//
// The AWS SDK for Go v2 does the signing, credential chain (settings,
// environment, shared files and profiles, instance metadata), endpoints
// and retries.
package s3
