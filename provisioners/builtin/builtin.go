// Package builtin is the set of provisioner types tenet runs: the types
// OpenTofu builds in that tenet offers (local-exec). file and remote-exec,
// which OpenTofu also builds in, need a connection to another machine and
// are refused when the configuration is loaded (config.UnsupportedProvisioners).
package builtin

import (
	"github.com/tenetplan/tenet/provisioners"
	"github.com/tenetplan/tenet/provisioners/localexec"
)

// Lookup gives the provisioner of a type; ok is false for a type tenet
// does not run.
func Lookup(typ string) (p provisioners.Interface, ok bool) {
	switch typ {
	case localexec.Type:
		return localexec.Provisioner{}, true
	}
	return nil, false
}
