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
	// FS is the working directory; WorkingDir is its path on disk.
	FS         fs.FS
	WorkingDir string
	Hooks      Hooks
	// Version is written into plans ("terraform_version").
	Version string
	// Workspace is terraform.workspace in expressions; never empty.
	Workspace string
}
