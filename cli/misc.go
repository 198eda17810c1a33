package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

func newValidateCommand(g *globals) *cobra.Command {
	var noColor, jsonOut bool
	cmd := &cobra.Command{
		Use:   "validate [options]",
		Short: "Check whether the configuration is valid",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			cfg, diags := u.loadConfigAndProviders(g)
			if !diags.HasErrors() {
				ctx := cmd.Context()
				if ctx == nil {
					ctx = context.Background()
				}
				diags = append(diags, newEngine(g, nil, nil).Validate(ctx, cfg)...)
			}
			if jsonOut {
				return writeValidateJSON(u, diags)
			}
			if u.diagnostics(diags) {
				return &exitError{1}
			}
			fmt.Fprintln(u.out, u.colorize("[green][bold]Success![reset] The configuration is valid."))
			return nil
		},
	}
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "machine-readable output")
	return cmd
}
