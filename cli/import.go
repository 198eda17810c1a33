package cli

import (
	"context"
	"fmt"
	"maps"
	"os"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/cli/views/human"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/state"
)

// newImportCommand builds `import ADDR ID`: bring an existing remote object
// under management at a configured resource address, without planning
// any other change.
func newImportCommand(g *globals) *cobra.Command {
	var (
		sf          stateFlags
		vars        []config.VarSource
		noColor     bool
		parallelism int
		rulesDirs   []string
		configDir   string
		input       bool
	)
	cmd := &cobra.Command{
		Use:   "import [options] ADDR ID",
		Short: "Associate existing infrastructure with a tenet resource",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return wrongArgCount(cmd, g, !noColor, "The import command expects two arguments.", false, helpInRed)
			}
			u := newUI(cmd, g, noColor, false)
			u.useVars(vars, input)
			u.legacyDiags = true
			u.configDir = configDir
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			addr, diags := parseImportAddress(u, args[0])
			if diags.HasErrors() {
				u.diagnostics(diags)
				fmt.Fprintln(u.out, "For information on valid syntax, see:\nhttps://opentofu.org/docs/cli/state/resource-addressing/")
				return &exitError{1}
			}
			if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
				return u.fail(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "A managed resource address is required. Importing into a data resource is not allowed."}})
			}
			if dir := importConfigDir(configDir); !hasConfigFiles(dir) {
				return u.errorf("No tenet configuration files",
					"The directory %s does not contain any tenet configuration files (.tf or .tf.json). To specify a different configuration directory, use the -config=\"...\" command line option.", dir)
			}
			cfg, d := u.loadConfigAndProviders(g)
			diags = append(diags, d...)
			if diags.HasErrors() {
				return u.fail(diags)
			}
			// As OpenTofu, before the state is touched: the module and the
			// resource block must be there; a missing resource is told in
			// OpenTofu's older style, as plain text with an example block.
			mod := cfg.Descendant(addr.Module.Module())
			if mod == nil {
				return u.fail(append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Import to non-existent module",
					Detail: fmt.Sprintf("%s is not defined in the configuration. Please add configuration for this module before importing into it.", addr.Module)}))
			}
			if _, ok := mod.ManagedResources[addr.Resource.Resource.String()]; !ok {
				u.diagnostics(diags)
				// The whole in red, as OpenTofu's error output.
				fmt.Fprint(u.errw, u.ansi(views.ANSIRed)+u.colorize(missingImportResource(addr))+u.ansi(views.ANSIReset)+"\n")
				return &exitError{1}
			}
			vals, d := config.CollectVariableValues(os.DirFS("."), ".", cfg.Root, vars, g.deps.Env)
			u.addAnswers(vals)
			diags = append(diags, d...)
			if !d.HasErrors() && inputEnabled(input, g.deps.Env) {
				d = promptForVariables(ctx, g, u, cfg.Root, vals)
				diags = append(diags, d...)
			}
			if !d.HasErrors() {
				// As plan: before anything is imported, and alone.
				if missing := config.MissingRootVariables(cfg.Root, vals); missing.HasErrors() {
					return u.fail(append(diags, missing...))
				}
			}
			r, d := rulesEngine(ctx, rulesDirs)
			diags = append(diags, d...)
			if diags.HasErrors() {
				return u.fail(diags)
			}
			mgr, prev, release, err := sf.openState(ctx, u, "import")
			if err != nil {
				return err
			}
			defer release()
			// As OpenTofu: the import's start, "Import prepared!" once the
			// provider answered, then the imported object's refresh.
			// With colour, OpenTofu's bytes: bold lines, the prepared ones
			// green, each between resets.
			fmt.Fprintf(u.out, "%s%s: Importing from ID %q...%s\n", u.ansi(views.ANSIReset, views.ANSIBold), addr, args[1], u.ansi(views.ANSIReset))
			progress := &importCommandProgress{HumanHooks: human.NewHumanHooks(u.out, u.color)}
			progress.prepared = func() {
				fmt.Fprintf(u.out, "%s%s: Import prepared!%s\n", u.ansi(views.ANSIReset, views.ANSIBold, views.ANSIGreen), addr, u.ansi(views.ANSIReset))
				fmt.Fprintf(u.out, "%s  Prepared %s for import%s\n", u.ansi(views.ANSIReset, views.ANSIGreen), addr.Resource.Resource.Type, u.ansi(views.ANSIReset))
			}
			eng := newEngine(g, r, &hookAdapter{p: progress, refresh: true})
			st, d := eng.Import(ctx, cfg, prev, addr, args[1], engine.PlanOpts{Variables: vals, Parallelism: parallelism})
			diags = append(diags, d...)
			if st == nil || diags.HasErrors() {
				if prev != nil && prev.ResourceInstanceObject(addr, state.NotDeposed) != nil {
					// OpenTofu finds the address taken only once the
					// provider has prepared the import.
					progress.once.Do(progress.prepared)
				}
				return u.fail(diags)
			}
			if err := mgr.Write(st); err != nil {
				return u.errorf("Failed to save state", "%s", err)
			}
			progress.once.Do(progress.prepared)
			u.diagnostics(diags)
			fmt.Fprintln(u.out, u.colorize("[reset][green]\nImport successful!\n\nThe resources that were imported are shown above. These resources are now in\nyour tenet state and will henceforth be managed by tenet.\n"))
			return nil
		},
	}
	sf.register(cmd)
	acceptIgnoreRemoteVersion(cmd)
	fl := cmd.Flags()
	fl.Var(&varFlag{kind: config.ValueFromCLI, list: &vars}, "var", "set a value for a root module input variable (NAME=VALUE); repeatable")
	fl.Var(&varFlag{kind: config.ValueFromFile, list: &vars}, "var-file", "load variable values from a file; repeatable")
	fl.BoolVar(&noColor, "no-color", false, "disable color")
	fl.BoolVar(&input, "input", true, "ask for the values of required variables that are not set (TF_INPUT=false also turns this off)")
	fl.IntVar(&parallelism, "parallelism", 10, "limit the number of concurrent operations")
	fl.StringVar(&configDir, "config", "", "directory of the configuration to import into (default: the working directory)")
	fl.StringArrayVar(&rulesDirs, "rules", nil, "directory of team planning rules; repeatable")
	return cmd
}

// importCommandProgress shows the import command's refresh of the
// imported object, after the "Import prepared!" lines.
type importCommandProgress struct {
	*human.HumanHooks
	once     sync.Once
	prepared func()
}

func (p *importCommandProgress) RefreshStart(addr, idKey, idValue string) {
	p.once.Do(p.prepared)
	p.HumanHooks.RefreshStart(addr, idKey, idValue)
}

// PrepareImport shows nothing: the command printed its own start line.
func (p *importCommandProgress) PrepareImport(addr, id string) {}

// parseImportAddress reads import's ADDR; its diagnostics quote it as the
// source "<import-address>", as OpenTofu's do.
func parseImportAddress(u *ui, src string) (addrs.AbsResourceInstance, hcl.Diagnostics) {
	const name = "<import-address>"
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(src), name, hcl.InitialPos)
	if !diags.HasErrors() {
		var addr addrs.AbsResourceInstance
		if addr, diags = addrs.ParseAbsResourceInstance(traversal); !diags.HasErrors() {
			return addr, nil
		}
	}
	files := maps.Clone(u.files)
	if files == nil {
		files = map[string]*hcl.File{}
	}
	files[name] = &hcl.File{Bytes: []byte(src)}
	u.files = files
	return addrs.AbsResourceInstance{}, diags
}

// importConfigDir is the directory import reads the configuration from:
// -config's, else the working directory, named in full as OpenTofu does.
func importConfigDir(configDir string) string {
	if configDir != "" {
		return configDir
	}
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}

// hasConfigFiles reports whether dir holds any configuration file.
func hasConfigFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() && !config.IsIgnoredFile(name) && (strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json")) {
			return true
		}
	}
	return false
}

// missingImportResource is OpenTofu's text for an import into a resource
// the configuration does not declare, with colour codes for colorize.
func missingImportResource(addr addrs.AbsResourceInstance) string {
	res := addr.Resource.Resource
	moduleName := "the root module"
	if !addr.Module.IsRoot() {
		moduleName = addr.Module.Module().String()
	}
	return fmt.Sprintf("[reset][bold][red]Error:[reset][bold] resource address %q does not exist in the configuration.[reset]\n\n"+
		"Before importing this resource, please create its configuration in %s. For example:\n\n"+
		"resource %q %q {\n  # (resource arguments)\n}\n", addr, moduleName, res.Type, res.Name)
}
