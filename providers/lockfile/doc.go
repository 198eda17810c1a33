// Package lockfile reads and writes the dependency lock file,
// .terraform.lock.hcl, in exactly the format OpenTofu writes: one provider
// block per provider with its selected version, the constraints it was
// selected under and the package hashes that any later install must match.
//
// It owns the file format and the in-memory [Locks]; deciding versions,
// computing hashes and refusing mismatched packages is
// providers/getproviders' job.
package lockfile
