package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/plan"

	"github.com/tenetplan/tenet/engine/plan/planfile"
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

func newFmtCommand(g *globals) *cobra.Command {
	var check, diff, recursive, list, write bool
	cmd := &cobra.Command{
		Use:   "fmt [options] [TARGET...]",
		Short: "Rewrite configuration files to the canonical format",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			if len(args) == 0 {
				args = []string{"."}
			}
			changed, failed := false, false
			for _, target := range args {
				files, err := fmtTargets(target, recursive)
				if err != nil {
					return u.errorf("Failed to read the target", "%s", err)
				}
				for _, f := range files {
					src, err := os.ReadFile(f)
					if err != nil {
						return u.errorf("Failed to read file", "%s", err)
					}
					if diags := config.CheckNesting(src, f, false); diags.HasErrors() {
						u.diagnostics(diags)
						failed = true
						continue
					}
					if _, diags := hclsyntax.ParseConfig(src, f, hcl.InitialPos); diags.HasErrors() {
						// Never rewrite a file that does not parse.
						u.diagnostics(diags)
						failed = true
						continue
					}
					out := config.Format(src)
					if bytes.Equal(src, out) {
						continue
					}
					changed = true
					if list {
						fmt.Fprintln(u.out, f)
					}
					if diff {
						writeUnifiedDiff(u.out, f, src, out)
					}
					if write && !check {
						if err := os.WriteFile(f, out, 0o644); err != nil {
							return u.errorf("Failed to write file", "%s", err)
						}
					}
				}
			}
			if failed {
				return &exitError{1}
			}
			if check && changed {
				return &exitError{3}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "check formatting; exit 3 if any file would change")
	cmd.Flags().Bool("no-color", false, "disable color")
	cmd.Flags().BoolVar(&diff, "diff", false, "show the changes")
	cmd.Flags().BoolVar(&recursive, "recursive", false, "also process subdirectories")
	cmd.Flags().BoolVar(&list, "list", true, "list files whose formatting changed")
	cmd.Flags().BoolVar(&write, "write", true, "write the result to the source file")
	return cmd
}

func fmtTargets(target string, recursive bool) ([]string, error) {
	fi, err := os.Stat(target)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{target}, nil
	}
	var out []string
	err = filepath.WalkDir(target, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != target && (!recursive || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".tf") || strings.HasSuffix(path, ".tfvars") {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

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
