package phase

import (
	"io/fs"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/rules"
)

// Env is what one plan or apply run is given and only reads: where the
// configuration lives, the providers and rules it may call, and the hooks
// it reports progress to.
type Env struct {
	Providers providers.Registry
	Rules     *rules.Engine
	// FS is the working directory; WorkingDir is its path on disk, given
	// to providers that touch the filesystem and used for path.cwd.
	FS         fs.FS
	WorkingDir string
	Hooks      Hooks
	// Version is written into plans and state ("terraform_version").
	Version string
	// Workspace is terraform.workspace in expressions; the facade gives
	// the phases "default" for an empty one.
	Workspace string
}
