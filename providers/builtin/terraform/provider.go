package terraform

import (
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// Provider is the built-in terraform provider.
type Provider struct {
	kit.Base
	workingDir string
}

var _ providers.Interface = (*Provider)(nil)

// New starts a terraform provider.
func New() providers.Interface {
	p := &Provider{}
	p.Base = kit.Base{
		Name:   "terraform",
		Config: providers.Schema{Block: &providers.Block{}},
		Resources: map[string]*kit.Resource{
			"terraform_data": {
				Schema: providers.Schema{Block: dataResourceSchema},
				Plan:   planDataResource,
				Apply:  applyDataResource,
				Import: importDataResource,
			},
		},
		DataSources: map[string]*kit.DataSource{
			"terraform_remote_state": {
				Schema:   providers.Schema{Block: remoteStateSchema},
				Validate: validateRemoteState,
				Read:     p.readRemoteState,
			},
		},
		Configure: func(req providers.ConfigureProviderRequest) providers.Diagnostics {
			p.workingDir = req.WorkingDir
			return nil
		},
	}
	return p
}
