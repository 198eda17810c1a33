package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
)

func newValidateCommand(g *globals) *cobra.Command {
	var noColor, jsonOut bool
	var vars []config.VarSource
	cmd := &cobra.Command{
		Use:   "validate [options]",
		Short: "Check whether the configuration is valid",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			if len(args) > 1 {
				u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Too many command line arguments", Detail: "Expected at most one positional argument."}})
				fmt.Fprint(u.errw, "\nFor more help on using this command, run:\n  tenet validate -help\n")
				return &exitError{1}
			}
			// OpenTofu's legacy form: the configuration in DIR.
			dir := "."
			if len(args) == 1 {
				dir, u.configDir = args[0], args[0]
			}
			// As in OpenTofu, the values are read but not used: validate
			// checks the configuration for any values.
			diags := config.CheckVariableSources(os.DirFS("."), dir, vars)
			// They are used early, for module sources and the backend.
			u.useVars(vars, false) // OpenTofu does not ask here
			if !diags.HasErrors() {
				cfg, d := u.loadConfigAndProviders(g)
				diags = append(diags, d...)
				if !diags.HasErrors() {
					ctx := cmd.Context()
					if ctx == nil {
						ctx = context.Background()
					}
					diags = append(diags, newEngine(g, nil, nil).Validate(ctx, cfg)...)
				}
			}
			if jsonOut {
				return writeValidateJSON(u, diags)
			}
			if u.diagnostics(diags) {
				return &exitError{1}
			}
			msg := "[green][bold]Success![reset] The configuration is valid."
			if len(diags) > 0 {
				msg = "[green][bold]Success![reset] The configuration is valid, but there were some validation warnings as shown above."
			}
			// Wrapped after colouring, escape codes counted, as OpenTofu does.
			fmt.Fprintln(u.out, views.WordWrap(u.colorize(msg), 78))
			return nil
		},
	}
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "machine-readable output")
	registerConsolidation(cmd)
	cmd.Flags().Var(&varFlag{kind: config.ValueFromCLI, list: &vars}, "var", "accepted as OpenTofu does: the value is read, not used")
	cmd.Flags().Var(&varFlag{kind: config.ValueFromFile, list: &vars}, "var-file", "accepted as OpenTofu does: the file is read, its values not used")
	return cmd
}
