package builtin

import (
	"github.com/tenetplan/tenet/provisioners"
	"github.com/tenetplan/tenet/provisioners/file"
	"github.com/tenetplan/tenet/provisioners/localexec"
	"github.com/tenetplan/tenet/provisioners/remoteexec"
)

// Lookup gives the provisioner of a type; ok is false for a type tenet
// does not run.
func Lookup(typ string) (p provisioners.Interface, ok bool) {
	switch typ {
	case localexec.Type:
		return localexec.Provisioner{}, true
	case remoteexec.Type:
		return remoteexec.Provisioner{}, true
	case file.Type:
		return file.Provisioner{}, true
	}
	return nil, false
}
