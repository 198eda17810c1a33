package cli

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
	opts.Static = u.staticInputs()
	if diags.HasErrors() {
		return diags
	}
	if header && modinstall.HasModuleCalls(".") {
		if upgrade {
			u.output("[reset][bold]Upgrading modules...")
		} else {
			u.output("[reset][bold]Initializing modules...")
		}
	}
	opts.Progress = func(e modinstall.Event) { u.info(e.String()) }
	_, more := modinstall.Install(ctx, ".", opts)
	// The installer read the modules' files itself: the source lines of
	// its diagnostics (early evaluation's) come from disk.
	u.addDiagSources(more, func(string) bool { return true })
	return append(diags, more...)
}

// loadInstalled loads the configuration with the modules init installed.
// Without a manifest, local modules load as config.Load does and any
// remote call is reported as not installed (the empty manifest).
func (u *ui) loadInstalled() (*config.Config, hcl.Diagnostics) {
	fsys, dir, rootDir := os.DirFS("."), ".", "."
	if u.configDir != "" {
		fsys, dir = configFS(u.configDir)
		rootDir = u.configDir
	}
	opts := modinstall.Options{DataDir: envValue(u.env, "TF_DATA_DIR"), Static: u.staticInputs(), RootCallsInstalled: u.early.operation}
	path := modinstall.ManifestPath(opts)
	b, err := os.ReadFile(path)
	if err != nil {
		return config.LoadWith(fsys, dir, config.LoadOptions{Modules: config.ModuleManifest{}, Static: opts.Static, RootCallsInstalled: opts.RootCallsInstalled})
	}
	if diags := modinstall.ManifestMatches(rootDir, opts); diags.HasErrors() {
		// Load anyway, so the diagnostics can show their source lines.
		cfg, _ := config.Load(fsys, dir)
		return cfg, diags
	}
	m, err := config.ParseModuleManifest(b)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid module manifest", Detail: fmt.Sprintf("%s: %v. Run \"tenet init -upgrade\" to install the modules again.", path, err)}}
	}
	return config.LoadWith(fsys, dir, config.LoadOptions{Modules: m, Static: opts.Static, RootCallsInstalled: opts.RootCallsInstalled})
}

// configFS is where a configuration directory named on the command line
// is read from: through the working directory when it lies inside it
// (so file names in diagnostics stay relative), else from the directory
// itself.
func configFS(dir string) (fs.FS, string) {
	wd, err := os.Getwd()
	abs, aerr := filepath.Abs(dir)
	if err == nil && aerr == nil {
		if rel, rerr := filepath.Rel(wd, abs); rerr == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return os.DirFS("."), filepath.ToSlash(rel)
		}
	}
	return os.DirFS(dir), "."
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

// initFromModule is init -from-module: the module at src is copied into
// the working directory, which must have no configuration files, and the
// remote modules it calls are installed, before init goes on as usual.
func initFromModule(cmd *cobra.Command, u *ui, g *globals, src string) error {
	if !emptyWorkingDir() {
		u.uiError(errInitCopyNotEmpty)
		return &exitError{1}
	}
	u.output(fmt.Sprintf("[reset][bold]Copying configuration[reset] from %q...", src))
	opts, diags := moduleOptions(g, false)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	opts.Progress = func(e modinstall.Event) { u.info(e.String()) }
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	diags = append(diags, modinstall.FromModule(ctx, ".", src, opts)...)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	u.diagnostics(diags)
	u.output("")
	return nil
}

// errInitCopyNotEmpty is OpenTofu's refusal of -from-module in a
// directory that already has configuration files.
const errInitCopyNotEmpty = `The working directory already contains files. The -from-module option requires
an empty directory into which a copy of the referenced module will be placed.

To initialize the configuration already in this working directory, omit the
-from-module option.`
