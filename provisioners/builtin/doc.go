// Package builtin is the set of provisioner types tenet runs, the ones
// OpenTofu builds in: local-exec, and file and remote-exec over an ssh
// connection.
package builtin
