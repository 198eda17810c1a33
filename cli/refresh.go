package cli

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/config"
)

// newRefreshCommand is `tenet refresh`: `apply -refresh-only
// -auto-approve` as OpenTofu has it, showing no plan and ending with the
// outputs. It takes the options OpenTofu's refresh takes, no others.
func newRefreshCommand(g *globals) *cobra.Command {
	f := &planFlags{refresh: true, refreshOnly: true, refreshCommand: true}
	cmd := &cobra.Command{
		Use:   "refresh [options]",
		Short: "Update the state to match remote systems",
		Long:  "Updates the state with what the providers report about the real objects, without changing them. The same as \"tenet apply -refresh-only -auto-approve\", without showing the changes first.",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.command = cmd.Name()
			f.positional = args
			u := newUI(cmd, g, f.noColor, f.json)
			u.compactWarnings = f.compactWarnings
			ctx := cmd.Context()
			r, err := planRun(ctx, g, u, f, "refresh")
			if err != nil {
				return err
			}
			defer r.release()
			if r.diags.HasErrors() {
				return &exitError{1}
			}
			if ctx.Err() != nil {
				return interrupted(u, nil)
			}
			return applyPlan(ctx, g, u, f, r.cfg, r.plan, r.mgr, r.rules)
		},
	}
	fl := cmd.Flags()
	fl.Var(&varFlag{kind: config.ValueFromCLI, list: &f.vars}, "var", "set a value for a root module input variable (NAME=VALUE); repeatable")
	fl.Var(&varFlag{kind: config.ValueFromFile, list: &f.vars}, "var-file", "load variable values from a file; repeatable")
	fl.IntVar(&f.parallelism, "parallelism", 10, "limit the number of concurrent operations")
	fl.StringArrayVar(&f.target, "target", nil, "limit the refresh to this address and its dependencies; repeatable")
	fl.StringArrayVar(&f.exclude, "exclude", nil, "refresh everything except this address and its dependents; repeatable")
	f.registerOperationFlags(cmd)
	registerConsolidation(cmd)
	fl.StringArrayVar(&f.rules, "rules", nil, "directory of team planning rules; repeatable")
	fl.BoolVar(&f.json, "json", false, "machine-readable output (one JSON object per line)")
	fl.BoolVar(&f.noColor, "no-color", false, "disable color in the output")
	fl.BoolVar(&f.input, "input", true, "ask for the values of required variables that are not set (TF_INPUT=false also turns this off)")
	fl.BoolVar(&f.compactWarnings, "compact-warnings", false, "show warnings not accompanied by errors in a compact form, with their summaries only")
	f.state.register(cmd)
	return cmd
}

// emptyStateWarning is what refresh says when the state tracks nothing.
func emptyStateWarning() *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Empty or non-existent state",
		Detail: "There are currently no remote objects tracked in the state, so there is nothing to refresh."}
}

// withoutSummary drops the warnings with the given summary.
func withoutSummary(diags hcl.Diagnostics, summary string) hcl.Diagnostics {
	out := diags[:0:0]
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Summary == summary {
			continue
		}
		out = append(out, d)
	}
	return out
}
