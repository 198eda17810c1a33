package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// Provider is the built-in terraform provider.
type Provider struct {
	kit.Base
	workingDir string
	reader     StateReader
}

// StateReader reads the stored state of one workspace of a backend other
// than "local", for terraform_remote_state: the state file's bytes, nil
// when the workspace has no state. The CLI supplies it, so this package
// needs no state backends.
type StateReader func(ctx context.Context, backendType string, settings map[string]cty.Value, workspace string) ([]byte, error)

// NewWithStateReader returns a constructor of terraform providers whose
// terraform_remote_state also reads the backends r knows.
func NewWithStateReader(r StateReader) func() providers.Interface {
	return func() providers.Interface {
		p := New().(*Provider)
		p.reader = r
		return p
	}
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
				Validate: p.validateRemoteState,
				Read:     p.readRemoteState,
			},
		},
		Functions: functions,
		Configure: func(req providers.ConfigureProviderRequest) providers.Diagnostics {
			p.workingDir = req.WorkingDir
			return nil
		},
	}
	return p
}

// ReadDataSource reads as kit.Base does; a failed read of
// terraform_remote_state also gets OpenTofu's closing error naming the
// instance, without source.
func (p *Provider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	resp := p.Base.ReadDataSource(ctx, req)
	if req.TypeName == "terraform_remote_state" && resp.Diagnostics.HasErrors() {
		resp.Diagnostics = append(resp.Diagnostics, providers.Diagnostic{
			Severity:   hcl.DiagError,
			Summary:    req.Address + ": Unable to read remote state",
			Sourceless: true,
		})
	}
	return resp
}
