package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/planfile"
)

func newGraphCommand(g *globals) *cobra.Command {
	var planFile, typ string
	var verbose bool
	cmd := &cobra.Command{
		Use:   "graph [options]",
		Short: "Write the dependency graph in DOT format",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return tooManyForChdir(cmd, !noColorFlag(cmd))
			}
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.early.operation = true
			u.legacyDiags = true
			// As OpenTofu, the plan file is read before the backend and
			// the configuration.
			p, err := readGraphPlan(planFile)
			if err != nil {
				fmt.Fprint(u.errw, u.ansi(views.ANSIRed)+err.Error()+u.ansi(views.ANSIReset, views.ANSIReset)+"\n")
				return &exitError{1}
			}
			// As OpenTofu, the backend must be initialized as configured.
			if _, err := resolveBackend(u, g.deps.Env); err != nil {
				return err
			}
			cfg, diags := u.loadConfigAndProviders(g)
			if diags.HasErrors() {
				return u.fail(diags)
			}
			if typ == "" {
				typ = "plan"
				if p != nil {
					typ = "apply"
				}
			}
			if d := graphTypeDiag(typ); d != nil {
				return u.fail(hcl.Diagnostics{d})
			}
			opts := engine.GraphOptions{Plan: p, Verbose: verbose}
			switch typ {
			case "plan", "plan-refresh-only":
				opts.Mode = engine.GraphPlan
			case "plan-destroy":
				opts.Mode = engine.GraphPlanDestroy
			case "apply":
				opts.Mode = engine.GraphApply
				if p != nil && p.Mode == plan.DestroyMode {
					opts.Mode = engine.GraphDestroy
				}
			}
			if p != nil {
				opts.State = p.PriorState
			} else {
				st, err := readState(u, defaultStatePath)
				if err != nil {
					return err
				}
				opts.State = st
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			var buf bytes.Buffer
			if d := newEngine(g, nil, nil).WriteGraphDOT(ctx, cfg, opts, &buf); d.HasErrors() {
				return u.fail(d)
			}
			// OpenTofu prints the DOT text, which ends in a newline, as one
			// more line of output.
			buf.WriteByte('\n')
			_, err = u.out.Write(buf.Bytes())
			return err
		},
	}
	cmd.Flags().StringVar(&planFile, "plan", "", "draw the apply graph of this saved plan")
	cmd.Flags().Bool("no-color", false, "disable color")
	cmd.Flags().StringVar(&typ, "type", "", "graph type: plan, plan-refresh-only, plan-destroy or apply")
	// Accepted as OpenTofu accepts them; its graphs have no subgraphs to
	// limit and no cycles to draw (a cycle is an error).
	cmd.Flags().Bool("draw-cycles", false, "highlight cycles")
	cmd.Flags().Int("module-depth", -1, "deprecated; no effect")
	cmd.Flags().BoolVar(&verbose, "verbose", false, "also draw provider close nodes")
	return cmd
}

// graphTypeDiag rejects the -type values OpenTofu rejects, with its words.
func graphTypeDiag(typ string) *hcl.Diagnostic {
	switch typ {
	case "plan", "plan-refresh-only", "plan-destroy", "apply":
		return nil
	case "eval", "validate":
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Graph type no longer available",
			Detail:   fmt.Sprintf("The graph type %q is no longer available. Use -type=plan instead to get a similar result.", typ),
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported graph type",
		Detail:   `The -type=... argument must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".`,
	}
}

// readGraphPlan reads graph's -plan file. OpenTofu reports a path that
// does not exist or is not a plan in a bare line, and draws a directory
// as if no plan had been given.
func readGraphPlan(path string) (*plan.Plan, error) {
	if path == "" {
		return nil, nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, nil
	}
	p, err := planfile.ReadFile(path)
	if err == nil {
		return p, nil
	}
	if zr, zerr := zip.OpenReader(path); zerr != nil {
		// Neither a plan nor, as OpenTofu also tries, a saved cloud plan
		// (a JSON document).
		var jerr error = errors.New("unexpected end of JSON input")
		if data, rerr := os.ReadFile(path); rerr != nil {
			jerr = rerr
		} else {
			var v map[string]any
			if uerr := json.Unmarshal(data, &v); uerr != nil {
				jerr = uerr
			}
		}
		return nil, fmt.Errorf("couldn't load the provided path as either a local plan file (%s) or a saved cloud plan (%s)", zerr, jerr)
	} else {
		zr.Close()
	}
	return nil, err
}
