package local

import (
	"path/filepath"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// Provider is the built-in local provider.
type Provider struct {
	kit.Base
	workingDir string
}

var _ providers.Interface = (*Provider)(nil)

// New starts a local provider.
func New() providers.Interface {
	p := &Provider{}
	p.Base = kit.Base{
		Name:      "local",
		Config:    providers.Schema{Block: &providers.Block{}},
		Functions: functions,
		Resources: map[string]*kit.Resource{
			"local_file":           p.fileResource(false),
			"local_sensitive_file": p.fileResource(true),
		},
		DataSources: map[string]*kit.DataSource{
			"local_file": {
				Schema:   providers.Schema{Block: fileDataSchema(false)},
				Validate: validateDataFile,
				Read:     p.readDataFile,
			},
			"local_sensitive_file": {
				Schema:   providers.Schema{Block: fileDataSchema(true)},
				Validate: validateDataFile,
				Read:     p.readDataFile,
			},
		},
		Configure: func(req providers.ConfigureProviderRequest) providers.Diagnostics {
			p.workingDir = req.WorkingDir
			return nil
		},
	}
	return p
}

// resolve makes a configured filename absolute.
func (p *Provider) resolve(filename string) string {
	if filepath.IsAbs(filename) || p.workingDir == "" {
		return filename
	}
	return filepath.Join(p.workingDir, filename)
}
