package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/cliconfig"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/installer"
	"github.com/tenetplan/tenet/providers/lockfile"
	"github.com/tenetplan/tenet/providers/plugin"
	"github.com/tenetplan/tenet/state"
)

// LanguageVersion is the OpenTofu version whose language, state, plan
// and plugin formats tenet implements. It is what providers are told the
// core version is, and what `version -json` reports as terraform_version.
const LanguageVersion = "1.10.0"

// providerEnv is what provider resolution reads from the process.
type providerEnv struct {
	workDir  string
	env      []string
	cli      *cliconfig.Config
	icfg     getproviders.Config
	dataDir  string
	lockPath string
}

func (g *globals) cliEnv() cliconfig.Env {
	env := g.deps.Env
	return cliconfig.Env{
		Getenv:  func(k string) string { return envValue(env, k) },
		Environ: func() []string { return env },
		Home:    envValue(env, "HOME"),
	}
}

// cliConfig is the CLI configuration of this run, read on first use. Its
// warnings come with the first read only, so a command that needs it for
// modules and providers shows them once; errors come every time, since
// every caller must stop on them.
func (g *globals) cliConfig() (*cliconfig.Config, hcl.Diagnostics) {
	if !g.cliRead {
		g.cliRead = true
		g.cli, g.cliDiags = cliconfig.Load(g.cliEnv())
		return g.cli, g.cliDiags
	}
	if g.cliDiags.HasErrors() {
		return g.cli, g.cliDiags
	}
	return g.cli, nil
}

// reportCLIConfigWarnings reads the CLI configuration before the command
// runs and shows its warnings on w, framed and without colour under a
// heading, as OpenTofu shows them for every command before it starts.
// Errors stay with the commands that use the configuration, which stop on
// them rather than run with settings the user did not mean.
func (g *globals) reportCLIConfigWarnings(w io.Writer) {
	_, diags := g.cliConfig()
	var warnings, errs hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			warnings = append(warnings, d)
		} else {
			errs = append(errs, d)
		}
	}
	g.cliDiags = errs
	if len(warnings) == 0 {
		return
	}
	fmt.Fprintln(w, "There are some problems with the CLI configuration:")
	for _, d := range warnings {
		views.RenderDiagnosticsFramed(w, hcl.Diagnostics{d}, 78)
		fmt.Fprintln(w)
	}
}

// loadProviderEnv reads the CLI configuration and locates the data
// directory and lock file of the working directory.
func (g *globals) loadProviderEnv() (*providerEnv, hcl.Diagnostics) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot find the working directory", Detail: err.Error()}}
	}
	cli, diags := g.cliConfig()
	pe := &providerEnv{
		workDir:  wd,
		env:      g.deps.Env,
		cli:      cli,
		icfg:     cli.InstallerConfig(wd),
		dataDir:  installer.DataDir(wd, func(k string) string { return envValue(g.deps.Env, k) }),
		lockPath: filepath.Join(wd, lockfile.FileName),
	}
	return pe, diags
}

// requirementsOf collects every provider the configuration's modules
// need, with their version constraints merged: required_providers
// entries, the providers of provider blocks and the implied providers of
// resources.
func requirementsOf(cfg *config.Config) (installer.Requirements, map[addrs.Provider]hcl.Range, hcl.Diagnostics) {
	reqs := installer.Requirements{}
	where := map[addrs.Provider]hcl.Range{}
	var diags hcl.Diagnostics
	add := func(p addrs.Provider, constraint string, rng hcl.Range) {
		if _, ok := where[p]; !ok || where[p].Filename == "" {
			where[p] = rng
		}
		if err := reqs.Add(p, constraint); err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider version constraint",
				Detail:   strings.ToUpper(err.Error()[:1]) + err.Error()[1:] + ". Write a constraint such as \"~> 1.2\".",
				Subject:  rangeOrNil(rng),
			})
		}
	}
	for _, m := range cfg.Modules() {
		for _, rp := range m.RequiredProviders {
			add(m.ImpliedProvider(rp.Name), rp.Version, rp.DeclRange)
		}
		for _, pc := range m.ProviderConfigs {
			add(m.ImpliedProvider(pc.Name), pc.Version, pc.DeclRange)
		}
		for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources} {
			for _, r := range rs {
				p, ref := m.ProviderForResource(r)
				add(p, "", ref.NameRange)
			}
		}
	}
	return reqs, where, diags
}

func rangeOrNil(r hcl.Range) *hcl.Range {
	if r.Filename == "" {
		return nil
	}
	return &r
}

// sortedProviders lists the providers of reqs in address order.
func sortedProviders(reqs installer.Requirements) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(reqs))
	for p := range reqs {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b addrs.Provider) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// resolveProviders builds the registry the engine gets for cfg: the
// built-in providers, replaced by a plugin for each provider that is
// reattached (TF_REATTACH_PROVIDERS), overridden (dev_overrides) or
// locked in the dependency lock file. Warnings (dev_overrides) are
// returned with the errors.
func (g *globals) resolveProviders(cfg *config.Config) hcl.Diagnostics {
	if !g.deps.Plugins {
		return nil
	}
	reqs, where, diags := requirementsOf(cfg)
	if diags.HasErrors() {
		return diags
	}
	pe, d := g.loadProviderEnv()
	diags = append(diags, d...)
	if pe == nil || diags.HasErrors() {
		return diags
	}
	locks, d := lockfile.Load(pe.lockPath)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return diags
	}
	reg := providers.Registry{}
	for p, f := range g.deps.Providers {
		reg[p] = f
	}

	reattach := map[addrs.Provider]*plugin.Config{}
	if s := envValue(g.deps.Env, "TF_REATTACH_PROVIDERS"); s != "" {
		rc, err := plugin.ParseReattachProviders(s)
		if err != nil {
			return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid TF_REATTACH_PROVIDERS", Detail: err.Error() + ". Fix or unset the variable."})
		}
		for name, c := range rc {
			p, err := addrs.ParseProviderSource(name)
			if err != nil {
				return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid TF_REATTACH_PROVIDERS", Detail: fmt.Sprintf("%q is not a provider source address: %s. Fix or unset the variable.", name, err)})
			}
			reattach[p] = &plugin.Config{Name: p.String(), Reattach: c, TerraformVersion: LanguageVersion}
		}
	}

	toInstall := installer.Requirements{}
	for _, p := range sortedProviders(reqs) {
		if p.IsBuiltIn() {
			continue
		}
		if c, ok := reattach[p]; ok {
			reg[p] = pluginFactory(*c, "")
			continue
		}
		_, builtIn := g.deps.Providers[p]
		_, overridden := pe.icfg.DevOverrides[p]
		if builtIn && !overridden && locks.Provider(p) == nil {
			// tenet's own implementation stands in (see docs/providers.md).
			continue
		}
		if !overridden && locks.Provider(p) == nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Inconsistent dependency lock file",
				Detail:   fmt.Sprintf("The configuration requires %s, but the dependency lock file selects no version of it. Run init to install it and record the version in %s.", p.ForDisplay(), lockfile.FileName),
				Subject:  rangeOrNil(where[p]),
			})
			continue
		}
		toInstall[p] = reqs[p]
	}
	if diags.HasErrors() {
		return diags
	}
	sels, d := installer.Installed(pe.dataDir, toInstall, locks, pe.icfg)
	diags = append(diags, d...)
	if d.HasErrors() {
		return diags
	}
	// A provider the configuration no longer names may still own objects
	// in the state (init keeps it locked for them): its plugin is what
	// plans and applies their destruction. Such an entry that is not
	// installed is no error unless the state needs it (the engine then
	// reports the provider missing).
	stateOnly := installer.Requirements{}
	for _, l := range locks.AllProviders() {
		if _, ok := reqs[l.Provider]; !ok && !l.Provider.IsBuiltIn() {
			if _, reattached := reattach[l.Provider]; !reattached {
				stateOnly[l.Provider] = getproviders.Constraints{}
			}
		}
	}
	if len(stateOnly) > 0 {
		if more, d := installer.Installed(pe.dataDir, stateOnly, locks, pe.icfg); !d.HasErrors() {
			for p, s := range more {
				sels[p] = s
			}
		}
	}
	for p, s := range sels {
		// TF_DISABLE_PLUGIN_TLS (set by the plugin SDK's test framework)
		// turns mutual TLS on the plugin socket off, as in OpenTofu.
		c := plugin.Config{Name: p.String(), Path: s.Executable, TerraformVersion: LanguageVersion, DisableAutoMTLS: envSet(g.deps.Env, "TF_DISABLE_PLUGIN_TLS")}
		cacheFile := ""
		if !s.DevOverride {
			if l := locks.Provider(p); l != nil {
				cacheFile = schemaCacheFile(pe.dataDir, p, s.Version, l.Hashes)
			}
		}
		reg[p] = pluginFactory(c, cacheFile)
		g.log.logf(logInfo, "provider %s: plugin %s (version %s)", p, s.Executable, s.Version)
	}
	g.registry = reg
	return diags
}

// providerRegistry is the registry commands hand to the engine.
func (g *globals) providerRegistry() providers.Registry {
	if g.registry != nil {
		return g.registry
	}
	return g.deps.Providers
}

// schemaCacheFile is where the schema of one provider package is kept
// between runs: DATADIR/providers/.schemas/<key>.json, keyed by the
// provider, its version and the package hashes the lock file vouches for
// (the installed package matched one of them when the run started), so
// a reinstalled or upgraded package never sees a stale schema.
func schemaCacheFile(dataDir string, p addrs.Provider, v getproviders.Version, hashes []getproviders.Hash) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", p, v)
	for _, x := range hashes {
		fmt.Fprintf(h, "%s\n", x)
	}
	return filepath.Join(installer.ProvidersDir(dataDir), ".schemas", hex.EncodeToString(h.Sum(nil))[:32]+".json")
}

// resolveProvidersIfPossible resolves the providers of the configuration
// in the working directory for commands that only need schemas (show,
// state show) and work without a configuration too: when there is none,
// or it or the installation has problems, the built-in schemas are used.
func (g *globals) resolveProvidersIfPossible() {
	if !g.deps.Plugins || g.registry != nil {
		return
	}
	cfg, diags := config.Load(os.DirFS("."), ".")
	if cfg == nil || diags.HasErrors() {
		return
	}
	_ = g.resolveProviders(cfg)
}

// addStateRequirements adds the providers of the objects in st to reqs,
// with no version constraint: init installs and locks them, as the
// objects of resources removed from the configuration are destroyed
// through the provider that created them.
func addStateRequirements(reqs installer.Requirements, st *state.State) {
	if st == nil {
		return
	}
	for _, m := range st.Modules {
		for _, r := range m.Resources {
			p := r.ProviderConfig.Provider
			if p.IsZero() || p.IsBuiltIn() {
				continue
			}
			if _, ok := reqs[p]; !ok {
				reqs[p] = getproviders.Constraints{}
			}
		}
	}
}
