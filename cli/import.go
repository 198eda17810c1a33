package cli

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/cli/views/human"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
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
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			u.legacyDiags = true
			u.configDir = configDir
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			addr, diags := addrs.ParseAbsResourceInstanceStr(args[0])
			if diags.HasErrors() {
				return u.fail(diags)
			}
			cfg, d := u.loadConfigAndProviders(g)
			diags = append(diags, d...)
			if diags.HasErrors() {
				return u.fail(diags)
			}
			vals, d := config.CollectVariableValues(os.DirFS("."), ".", cfg.Root, vars, g.deps.Env)
			diags = append(diags, d...)
			if !d.HasErrors() && inputEnabled(input, g.deps.Env) {
				diags = append(diags, promptForVariables(ctx, g, u, cfg.Root, vals)...)
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
