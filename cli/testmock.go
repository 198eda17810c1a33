package cli

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/providers"
)

// providers is the registry the file's runs use.
func (fr *fileRun) providers() providers.Registry {
	return fr.g.providerRegistry()
}

// unsupportedMocks refuses mock providers and overrides.
func (fr *fileRun) unsupportedMocks() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range fr.file.MockProviders {
		diags = append(diags, refuse("mock_provider \""+m.Key()+"\"", m.DeclRange))
	}
	for _, o := range fr.file.Overrides {
		diags = append(diags, refuse(string(o.Kind), o.DeclRange))
	}
	for _, r := range fr.file.Runs {
		for _, o := range r.Overrides {
			diags = append(diags, refuse(string(o.Kind), o.DeclRange))
		}
	}
	return diags
}
