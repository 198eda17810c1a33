// Package provisioners defines how tenet runs provisioners, the
// `provisioner "TYPE"` blocks of managed resources and removed blocks:
// one Request/Response pair per operation, each method taking a context
// first, the schema of each type's configuration, the superset schema
// of `connection` blocks, and the set of types tenet offers (New).
//
// A provisioner sees only cty values (its configuration and connection,
// evaluated and unmarked by the engine) and reports its output line by
// line and its failures as diagnostics. When and for which object it runs,
// what `self` is, whether its failure taints the object, and how its
// output is shown are the engine's (engine/applying) and the CLI's.
// Cancelling the context stops a provisioner in flight, as an interrupt
// does. Each type lives in its own subpackage: local-exec in
// provisioners/localexec, remote-exec and file in provisioners/remoteexec
// and provisioners/file, both over the ssh connection of
// provisioners/sshconn.
package provisioners
