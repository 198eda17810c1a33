package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/installer"
	"github.com/tenetplan/tenet/providers/lockfile"
	"github.com/tenetplan/tenet/state"
)

func newProvidersCommand(g *globals) *cobra.Command {
	var noColor bool
	cmd := &cobra.Command{
		Use:   "providers",
		Short: "Show the providers the configuration requires, module by module",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return tooManyForChdir(cmd, !noColor)
			}
			u := newUI(cmd, g, noColor, false)
			u.legacyDiags = true
			cfg, diags := u.loadConfig()
			if diags.HasErrors() {
				return u.fail(diags)
			}
			if len(cfg.Files) == 0 {
				dir, _ := filepath.Abs(".")
				return u.errorf("No configuration files", "The directory %s contains no tenet configuration files.", dir)
			}
			st, err := readState(u, defaultStatePath)
			if err != nil {
				return err
			}
			u.diagnostics(diags)
			fmt.Fprintln(u.out, "\nProviders required by configuration:")
			fmt.Fprintln(u.out, ".")
			writeModuleTree(u.out, cfg.Root, "")
			fmt.Fprintln(u.out)
			if inState := stateProviders(st); len(inState) > 0 {
				fmt.Fprint(u.out, "Providers required by state:\n\n")
				for _, p := range inState {
					fmt.Fprintf(u.out, "    provider[%s]\n\n", p)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	cmd.AddCommand(newProvidersSchemaCommand(g), newProvidersLockCommand(g), newProvidersMirrorCommand(g))
	return cmd
}

// stateProviders are the providers the state's resources name, sorted.
func stateProviders(st *state.State) []string {
	if st == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, m := range st.Modules {
		for _, r := range m.Resources {
			if p := r.ProviderConfig.Provider.String(); !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// writeModuleTree prints the providers one module requires, then its
// child modules, as a tree.
func writeModuleTree(w io.Writer, m *config.Module, indent string) {
	type line struct {
		text  string
		child *config.Module
	}
	var lines []line
	reqs := map[string]string{} // provider address -> constraints
	note := func(addr, c string) {
		if old, ok := reqs[addr]; ok && old != "" {
			if c != "" && !strings.Contains(old, c) {
				reqs[addr] = old + ", " + c
			}
			return
		}
		reqs[addr] = c
	}
	for _, rp := range m.RequiredProviders {
		note(m.ImpliedProvider(rp.Name).String(), rp.Version)
	}
	for _, pc := range m.ProviderConfigs {
		note(m.ImpliedProvider(pc.Name).String(), pc.Version)
	}
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources} {
		for _, r := range rs {
			p, _ := m.ProviderForResource(r)
			note(p.String(), "")
		}
	}
	var addrsSorted []string
	for a := range reqs {
		addrsSorted = append(addrsSorted, a)
	}
	sort.Strings(addrsSorted)
	for _, a := range addrsSorted {
		t := "provider[" + a + "]"
		if reqs[a] != "" {
			t += " " + reqs[a]
		}
		lines = append(lines, line{text: t})
	}
	var names []string
	for n := range m.Children {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		lines = append(lines, line{text: "module." + n, child: m.Children[n]})
	}
	for i, l := range lines {
		branch, next := "├── ", "│   "
		if i == len(lines)-1 {
			branch, next = "└── ", "    "
		}
		fmt.Fprintf(w, "%s%s%s\n", indent, branch, l.text)
		if l.child != nil {
			writeModuleTree(w, l.child, indent+next)
		}
	}
}

func newProvidersSchemaCommand(g *globals) *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "schema -json",
		Short: "Print the schemas of the providers the configuration uses, as JSON",
		// Extra arguments are ignored, as by OpenTofu.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, true, false)
			if !jsonOut {
				return wrongArgCount(cmd, g, !noColorFlag(cmd), "The `tenet providers schema` command requires the `-json` flag.\n", false, helpInRed)
			}
			cfg, diags := u.loadConfigAndProviders(g)
			if diags.HasErrors() {
				return u.fail(diags)
			}
			reqs, _, d := requirementsOf(cfg)
			if d.HasErrors() {
				return u.fail(d)
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			reg := g.providerRegistry()
			out := map[string]any{}
			for _, p := range sortedProviders(reqs) {
				f, ok := reg[p]
				if !ok {
					return u.errorf("Provider not available", "%s is neither installed nor built into tenet. Run init to install it.", p.ForDisplay())
				}
				inst, err := f()
				if err != nil {
					return u.errorf("Failed to start provider", "%s: %s", p.ForDisplay(), err)
				}
				resp := inst.GetProviderSchema(ctx)
				_ = inst.Close(ctx)
				if resp.Diagnostics.HasErrors() {
					return u.errorf("Failed to read provider schema", "%s: %s %s", p.ForDisplay(), resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
				}
				out[p.String()] = providerSchemaJSON(resp)
			}
			b, err := json.Marshal(map[string]any{"format_version": "1.0", "provider_schemas": out})
			if err != nil {
				return u.errorf("Failed to encode the schemas", "%s", err)
			}
			fmt.Fprintln(u.out, string(b))
			return nil
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print JSON (required)")
	return cmd
}

func providerSchemaJSON(r providers.GetProviderSchemaResponse) map[string]any {
	m := map[string]any{"provider": schemaJSON(r.Provider)}
	if len(r.ResourceTypes) > 0 {
		m["resource_schemas"] = eachJSON(r.ResourceTypes, schemaJSON)
	}
	if len(r.DataSources) > 0 {
		m["data_source_schemas"] = eachJSON(r.DataSources, schemaJSON)
	}
	if len(r.Functions) > 0 {
		m["functions"] = eachJSON(r.Functions, functionJSON)
	}
	return m
}

// eachJSON encodes every value of a name-keyed map with enc.
func eachJSON[T any](in map[string]T, enc func(T) map[string]any) map[string]any {
	out := make(map[string]any, len(in))
	for n, v := range in {
		out[n] = enc(v)
	}
	return out
}

func schemaJSON(s providers.Schema) map[string]any {
	return map[string]any{"version": s.Version, "block": blockJSON(s.Block)}
}

func blockJSON(b *providers.Block) map[string]any {
	out := map[string]any{}
	if b == nil {
		return out
	}
	if len(b.Attributes) > 0 {
		out["attributes"] = eachJSON(b.Attributes, attributeJSON)
	}
	if len(b.BlockTypes) > 0 {
		bs := map[string]any{}
		for n, nb := range b.BlockTypes {
			j := map[string]any{"nesting_mode": nestingName(nb.Nesting), "block": blockJSON(&nb.Block)}
			if nb.MinItems > 0 {
				j["min_items"] = nb.MinItems
			}
			if nb.MaxItems > 0 {
				j["max_items"] = nb.MaxItems
			}
			bs[n] = j
		}
		out["block_types"] = bs
	}
	if b.Description != "" {
		out["description"] = b.Description
		out["description_kind"] = "plain"
	}
	if b.Deprecated {
		out["deprecated"] = true
	}
	return out
}

func attributeJSON(a *providers.Attribute) map[string]any {
	j := map[string]any{}
	if a.NestedType != nil {
		j["nested_type"] = objectJSON(a.NestedType)
	} else {
		j["type"] = typeJSON(a.Type)
	}
	if a.Description != "" {
		j["description"] = a.Description
		j["description_kind"] = "plain"
	}
	for k, v := range map[string]bool{"required": a.Required, "optional": a.Optional, "computed": a.Computed, "sensitive": a.Sensitive, "deprecated": a.Deprecated, "write_only": a.WriteOnly} {
		if v {
			j[k] = true
		}
	}
	return j
}

func objectJSON(o *providers.Object) map[string]any {
	as := map[string]any{}
	for n, a := range o.Attributes {
		as[n] = attributeJSON(a)
	}
	return map[string]any{"attributes": as, "nesting_mode": nestingName(o.Nesting)}
}

func typeJSON(t cty.Type) json.RawMessage {
	b, err := t.MarshalJSON()
	if err != nil {
		return json.RawMessage(`"dynamic"`)
	}
	return b
}

func functionJSON(f providers.Function) map[string]any {
	param := func(p providers.FunctionParameter) map[string]any {
		j := map[string]any{"name": p.Name, "type": typeJSON(p.Type)}
		if p.Description != "" {
			j["description"] = p.Description
		}
		if p.AllowNullValue {
			j["is_nullable"] = true
		}
		return j
	}
	ps := []any{}
	for _, p := range f.Parameters {
		ps = append(ps, param(p))
	}
	j := map[string]any{"return_type": typeJSON(f.ReturnType), "parameters": ps}
	if f.VariadicParameter != nil {
		j["variadic_parameter"] = param(*f.VariadicParameter)
	}
	if f.Summary != "" {
		j["summary"] = f.Summary
	}
	if f.Description != "" {
		j["description"] = f.Description
	}
	if f.DeprecationMessage != "" {
		j["deprecation_message"] = f.DeprecationMessage
	}
	return j
}

func nestingName(n providers.NestingMode) string {
	switch n {
	case providers.NestingSingle:
		return "single"
	case providers.NestingGroup:
		return "group"
	case providers.NestingList:
		return "list"
	case providers.NestingSet:
		return "set"
	case providers.NestingMap:
		return "map"
	}
	return "invalid"
}

func newVersionCommand(g *globals) *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Show tenet's version, the language version it implements and the selected providers",
		Args:  cobra.ArbitraryArgs, // ignored, as by OpenTofu
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, true, false)
			platform := runtime.GOOS + "_" + runtime.GOARCH
			selections := map[string]string{}
			var names []string
			if wd, err := os.Getwd(); err == nil {
				if locks, d := lockfile.Load(wd + string(os.PathSeparator) + lockfile.FileName); !d.HasErrors() {
					for _, l := range locks.AllProviders() {
						selections[l.Provider.String()] = l.Version.String()
						names = append(names, l.Provider.String())
					}
				}
			}
			sort.Strings(names)
			if jsonOut {
				// OpenTofu's fields in its order, then tenet's own version.
				b, err := json.MarshalIndent(struct {
					TerraformVersion   string            `json:"terraform_version"`
					Platform           string            `json:"platform"`
					ProviderSelections map[string]string `json:"provider_selections"`
					TenetVersion       string            `json:"tenet_version"`
				}{LanguageVersion, platform, selections, Version}, "", "  ")
				if err != nil {
					return u.errorf("Failed to encode the version", "%s", err)
				}
				fmt.Fprintln(u.out, string(b))
				return nil
			}
			fmt.Fprintf(u.out, "tenet v%s\n(the OpenTofu v%s language, state and plugin formats)\non %s\n", Version, LanguageVersion, platform)
			for _, n := range names {
				fmt.Fprintf(u.out, "+ provider %s v%s\n", n, selections[n])
			}
			return nil
		},
	}
	cmd.Flags().Bool("no-color", false, "disable color")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "machine-readable output")
	return cmd
}

// splitBuiltin separates the providers tenet has built in and that
// neither the lock file nor dev_overrides name (they are installed only
// from sources that name them, see docs/providers.md) from the others.
func (g *globals) splitBuiltin(reqs installer.Requirements, locks *lockfile.Locks, icfg getproviders.Config) (builtin, other installer.Requirements) {
	builtin, other = installer.Requirements{}, installer.Requirements{}
	for _, p := range sortedProviders(reqs) {
		if p.IsBuiltIn() {
			continue
		}
		_, isBuiltin := g.deps.Providers[p]
		_, overridden := icfg.DevOverrides[p]
		if isBuiltin && !overridden && locks.Provider(p) == nil {
			builtin[p] = reqs[p]
		} else {
			other[p] = reqs[p]
		}
	}
	return builtin, other
}

// eachInstallation calls install with an installer for each group of
// reqs that is installed on its own: first every built-in provider
// alone, from the sources that name it (see splitBuiltin), then all the
// others together from every source. What install writes to out is
// shown, unless no source has a package of a built-in provider: then
// notFound, a format given the provider's name, says so instead, as that
// is no error. It returns the diagnostics of all the installations, or
// the error of an installer that could not be made, already reported.
func (g *globals) eachInstallation(u *ui, dataDir string, reqs installer.Requirements, locks *lockfile.Locks, icfg getproviders.Config, notFound string, install func(inst *installer.Installer, reqs installer.Requirements, out io.Writer) hcl.Diagnostics) (hcl.Diagnostics, error) {
	builtin, other := g.splitBuiltin(reqs, locks, icfg)
	var all hcl.Diagnostics
	run := func(cfg getproviders.Config, reqs installer.Requirements, isBuiltin bool) error {
		inst, d := installer.New(cfg, dataDir)
		if d.HasErrors() {
			return u.fail(d)
		}
		var buf strings.Builder
		d = install(inst, reqs, &buf)
		if isBuiltin && notFoundOnly(d) {
			for p := range reqs {
				fmt.Fprintf(u.out, notFound, p.ForDisplay())
			}
			return nil
		}
		io.WriteString(u.out, buf.String())
		all = append(all, d...)
		return nil
	}
	for _, p := range sortedProviders(builtin) {
		if err := run(namingMethods(icfg), installer.Requirements{p: builtin[p]}, true); err != nil {
			return nil, err
		}
	}
	if len(other) > 0 {
		if err := run(icfg, other, false); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// namingMethods drops the registry methods that do not list providers by
// name: the implied one and a bare direct {}. Only the rest can name the
// real plugin of a provider tenet has built in.
func namingMethods(icfg getproviders.Config) getproviders.Config {
	out := icfg
	out.Methods = nil
	for _, m := range icfg.Methods {
		if m.Kind == getproviders.MethodDirect && len(m.Include) == 0 {
			continue
		}
		out.Methods = append(out.Methods, m)
	}
	return out
}

func parsePlatforms(ss []string) ([]getproviders.Platform, error) {
	if len(ss) == 0 {
		return []getproviders.Platform{getproviders.CurrentPlatform}, nil
	}
	var out []getproviders.Platform
	for _, s := range ss {
		p, err := getproviders.ParsePlatform(s)
		if err != nil {
			return nil, fmt.Errorf("-platform=%s: %w; write OS_ARCH, such as linux_amd64", s, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func platformEvents(w io.Writer) installer.PlatformEvents {
	return installer.PlatformEvents{
		Fetching: func(p addrs.Provider, v getproviders.Version, pl getproviders.Platform) {
			fmt.Fprintf(w, "- Fetching %s %s for %s...\n", p.ForDisplay(), v, pl)
		},
		Retrieved: func(p addrs.Provider, v getproviders.Version, pl getproviders.Platform, auth *getproviders.AuthResult) {
			fmt.Fprintf(w, "- Retrieved %s %s for %s (%s)\n", p.ForDisplay(), v, pl, auth.String())
		},
	}
}

// obtainedEvent prints, after each platform's package, whether the lock
// file already had its checksums (OpenTofu's wording).
func obtainedEvent(w io.Writer, locks *lockfile.Locks) func(addrs.Provider, getproviders.Version, getproviders.Platform, []getproviders.Hash) {
	return func(p addrs.Provider, v getproviders.Version, pl getproviders.Platform, hashes []getproviders.Hash) {
		what := "This was a new provider and the checksums for this platform are now tracked in the lock file"
		if old := locks.Provider(p); old != nil {
			what = "All checksums for this platform were already tracked in the lock file"
			for _, h := range hashes {
				if !old.Version.Same(v) || !slices.Contains(old.Hashes, h) {
					what = "Additional checksums for this platform are now tracked in the lock file"
					break
				}
			}
		}
		fmt.Fprintf(w, "- Obtained %s checksums for %s; %s\n", p.ForDisplay(), pl, what)
	}
}

// providersSetup is what providers lock and mirror start from.
type providersSetup struct {
	u         *ui
	platforms []getproviders.Platform
	reqs      installer.Requirements
	pe        *providerEnv
	locks     *lockfile.Locks
}

// providersCommandSetup reads what providers lock and mirror share: the
// -platform values, the configuration's requirements (those named in
// only, when it names any), the provider environment and the lock file.
func providersCommandSetup(cmd *cobra.Command, g *globals, platforms, only []string) (*providersSetup, error) {
	u := newUI(cmd, g, noColorFlag(cmd), false)
	u.legacyDiags = true
	pls, err := parsePlatforms(platforms)
	if err != nil {
		return nil, u.errorf("Invalid platform", "%s", err)
	}
	cfg, diags := u.loadConfig()
	if diags.HasErrors() {
		return nil, u.fail(diags)
	}
	reqs, _, d := requirementsOf(cfg)
	diags = append(diags, d...)
	pe, d := g.loadProviderEnv()
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, u.fail(diags)
	}
	u.diagnostics(diags)
	locks, d := lockfile.Load(pe.lockPath)
	if d.HasErrors() {
		return nil, u.fail(d)
	}
	if len(only) > 0 {
		picked := installer.Requirements{}
		for _, s := range only {
			p, err := addrs.ParseProviderSource(s)
			if err != nil {
				return nil, u.errorf("Invalid provider address", "%q: %s.", s, err)
			}
			c, ok := reqs[p]
			if !ok {
				return nil, u.errorf("Provider not required by the configuration", "%s is not required by this configuration; name only providers it requires.", p.ForDisplay())
			}
			picked[p] = c
		}
		reqs = picked
	}
	return &providersSetup{u: u, platforms: pls, reqs: reqs, pe: pe, locks: locks}, nil
}

func cmdContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

func newProvidersLockCommand(g *globals) *cobra.Command {
	var platforms, fsMirrors, netMirrors []string
	cmd := &cobra.Command{
		Use:   "lock [options] [PROVIDER...]",
		Short: "Record the hashes of the required providers' packages for several platforms in the lock file",
		RunE: func(cmd *cobra.Command, args []string) error {
			ps, err := providersCommandSetup(cmd, g, platforms, args)
			if err != nil {
				return err
			}
			u, pls, reqs, pe, locks := ps.u, ps.platforms, ps.reqs, ps.pe, ps.locks
			// As OpenTofu, the lock records what the providers' origin
			// registries publish, not what the CLI configuration's
			// installation methods happen to hold, unless mirrors are named.
			icfg := pe.icfg
			icfg.Methods = []getproviders.Method{{Kind: getproviders.MethodDirect}}
			if len(fsMirrors) > 0 || len(netMirrors) > 0 {
				icfg.Methods = nil
				for _, d := range fsMirrors {
					icfg.Methods = append(icfg.Methods, getproviders.Method{Kind: getproviders.MethodFilesystemMirror, Location: d})
				}
				for _, d := range netMirrors {
					icfg.Methods = append(icfg.Methods, getproviders.Method{Kind: getproviders.MethodNetworkMirror, Location: d})
				}
			}
			ctx := cmdContext(cmd)
			newLocks := lockfile.New()
			for _, e := range locks.AllProviders() {
				newLocks.SetProvider(e.Provider, e.Version, e.Constraints, e.Hashes)
			}
			notFound := "- Using tenet's built-in %s (no package found in its origin registry or the mirrors named); not locked\n"
			all, err := g.eachInstallation(u, pe.dataDir, reqs, locks, icfg, notFound, func(inst *installer.Installer, reqs installer.Requirements, out io.Writer) hcl.Diagnostics {
				pev := platformEvents(out)
				pev.Obtained = obtainedEvent(out, locks)
				nl, d := inst.LockProviders(ctx, reqs, locks, pls, installer.Events{}, pev)
				if !d.HasErrors() {
					for _, e := range nl.AllProviders() {
						newLocks.SetProvider(e.Provider, e.Version, e.Constraints, e.Hashes)
					}
				}
				return d
			})
			if err != nil {
				return err
			}
			if all.HasErrors() {
				return u.fail(all)
			}
			u.diagnostics(all)
			if newLocks.Equal(locks) {
				fmt.Fprintln(u.out, "\nSuccess! tenet has validated the lock file and found no need for changes.")
				return nil
			}
			if d := lockfile.Save(newLocks, pe.lockPath); d.HasErrors() {
				return u.fail(d)
			}
			fmt.Fprintf(u.out, "\nSuccess! tenet has updated the lock file.\n\nReview the changes in %s and then commit to your\nversion control system to retain the new checksums.\n\n", lockfile.FileName)
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&platforms, "platform", nil, "platform to lock for, as OS_ARCH (repeatable; default this machine's)")
	cmd.Flags().StringArrayVar(&fsMirrors, "fs-mirror", nil, "take packages only from this directory (repeatable)")
	cmd.Flags().StringArrayVar(&netMirrors, "net-mirror", nil, "take packages only from this network mirror URL (repeatable)")
	return cmd
}
