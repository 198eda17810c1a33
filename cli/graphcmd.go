package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/planfile"
)

func newGraphCommand(g *globals) *cobra.Command {
	var planFile, typ string
	cmd := &cobra.Command{
		Use:   "graph [options]",
		Short: "Write the dependency graph in DOT format",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			cfg, diags := u.loadConfigAndProviders(g)
			if diags.HasErrors() {
				return u.fail(diags)
			}
			var p *plan.Plan
			if planFile != "" {
				var err error
				if p, err = planfile.ReadFile(planFile); err != nil {
					return u.errorf("Failed to read the plan file", "%s", err)
				}
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if d := newEngine(g, nil, nil).WriteGraphDOT(ctx, cfg, p, u.out); d.HasErrors() {
				return u.fail(d)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&planFile, "plan", "", "draw the apply graph of this saved plan")
	cmd.Flags().Bool("no-color", false, "disable color")
	cmd.Flags().StringVar(&typ, "type", "plan", "graph type (plan or apply)")
	return cmd
}
