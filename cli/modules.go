package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/config/modinstall"
)

// moduleOptions are the module installer's settings for this process:
// the data directory from TF_DATA_DIR, and host tokens and service
// discovery answers from the CLI configuration.
func moduleOptions(g *globals, upgrade bool) (modinstall.Options, hcl.Diagnostics) {
	opts := modinstall.Options{Upgrade: upgrade, DataDir: envValue(g.deps.Env, "TF_DATA_DIR")}
	cc, diags := g.cliConfig()
	if cc != nil {
		opts.Token = cc.Token
		opts.HostServices = cc.Hosts
	}
	return opts, diags
}

// installModules is init's and get's module step: it installs every
// remote module the configuration in the working directory calls,
// printing OpenTofu's lines: init's header when the root module calls
// any module (get has none), then one line per download and per module
// newly installed, depth first with calls by name. Modules kept as they
// were installed show nothing.
func installModules(ctx context.Context, u *ui, g *globals, upgrade, header bool) hcl.Diagnostics {
	opts, diags := moduleOptions(g, upgrade)
	if diags.HasErrors() {
		return diags
	}
	if header && modinstall.HasModuleCalls(".") {
		if upgrade {
			fmt.Fprintln(u.out, "Upgrading modules...")
		} else {
			fmt.Fprintln(u.out, "Initializing modules...")
		}
	}
	opts.Progress = func(e modinstall.Event) { fmt.Fprintln(u.out, e.String()) }
	_, more := modinstall.Install(ctx, ".", opts)
	return append(diags, more...)
}

// loadInstalled loads the configuration with the modules init installed.
// Without a manifest, local modules load as config.Load does and any
// remote call is reported as not installed (the empty manifest).
func (u *ui) loadInstalled() (*config.Config, hcl.Diagnostics) {
	opts := modinstall.Options{DataDir: envValue(u.env, "TF_DATA_DIR")}
	path := modinstall.ManifestPath(opts)
	b, err := os.ReadFile(path)
	if err != nil {
		return config.LoadWithModules(os.DirFS("."), ".", config.ModuleManifest{})
	}
	if diags := modinstall.ManifestMatches(".", opts); diags.HasErrors() {
		// Load anyway, so the diagnostics can show their source lines.
		cfg, _ := config.Load(os.DirFS("."), ".")
		return cfg, diags
	}
	m, err := config.ParseModuleManifest(b)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid module manifest", Detail: fmt.Sprintf("%s: %v. Run \"tenet init -upgrade\" to install the modules again.", path, err)}}
	}
	return config.LoadWithModules(os.DirFS("."), ".", m)
}

// initModules runs installModules for init and get unless -get=false,
// printing its diagnostics; it returns init's error on failure. header
// is init's "Initializing modules..." line.
func initModules(cmd *cobra.Command, u *ui, g *globals, upgrade, header bool) error {
	if get, err := cmd.Flags().GetBool("get"); err == nil && !get {
		return nil
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	diags := installModules(ctx, u, g, upgrade, header)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	u.diagnostics(diags)
	return nil
}
