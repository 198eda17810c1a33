package engine

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/provisioners/builtin"
)

// missingProvisioners lists the provisioner types of managed resources
// that tenet does not have: types OpenTofu would look for among plugins. As
// OpenTofu, validate and the other commands word it differently, and
// removed blocks' provisioners are not looked at here.
func missingProvisioners(cfg *config.Config) []string {
	var missing []string
	for _, m := range cfg.Modules() {
		for _, r := range m.ManagedResources {
			if r.Managed == nil {
				continue
			}
			for _, p := range r.Managed.Provisioners {
				if _, ok := builtin.Lookup(p.Type); ok {
					continue
				}
				missing = append(missing, p.Type)
			}
		}
	}
	slices.Sort(missing)
	return missing
}

// provisionersForValidate is validate's error for each missing type.
func provisionersForValidate(cfg *config.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, typ := range missingProvisioners(cfg) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required provisioner plugin",
			Detail:   fmt.Sprintf("This configuration requires provisioner plugin %q, which isn't available. If you're intending to use an external provisioner plugin, you must install it manually into one of the plugin search directories before running tenet.", typ),
		})
	}
	return diags
}

// provisionerSchemas is plan's and apply's error for each missing type.
func provisionerSchemas(cfg *config.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, typ := range slices.Compact(missingProvisioners(cfg)) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Failed to load plugin schemas",
			Detail: fmt.Sprintf("Error while loading schemas for plugin components: Failed to obtain provisioner schema: Could not load the schema for provisioner %q: failed to instantiate provisioner %q to obtain schema: unavailable provisioner %q..",
				typ, typ, typ),
		})
	}
	return diags
}
