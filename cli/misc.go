package cli

import (
	"context"
	"fmt"
	"os"

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
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			// As in OpenTofu, the values are read but not used: validate
			// checks the configuration for any values.
			diags := config.CheckVariableSources(os.DirFS("."), ".", vars)
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
