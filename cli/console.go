package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/state"
)

// consoleInput is the file name diagnostics give a console line.
const consoleInput = "<console-input>"

func newConsoleCommand(g *globals) *cobra.Command {
	var vars []config.VarSource
	var statePath string
	var noColor bool
	cmd := &cobra.Command{
		Use:   "console [options]",
		Short: "Evaluate expressions against the configuration and state",
		Long: "Reads expressions, one a line, and prints their values, evaluated against the configuration\n" +
			"and the current state. It never changes the state. A line \"exit\" or the end of input ends it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			u := newUI(cmd, g, noColor, false)
			u.legacyDiags = true
			return runConsole(ctx, cmd, g, u, vars, statePath)
		},
	}
	fl := cmd.Flags()
	fl.Var(&varFlag{kind: config.ValueFromCLI, list: &vars}, "var", "set a value for a root module input variable (NAME=VALUE); repeatable")
	fl.Var(&varFlag{kind: config.ValueFromFile, list: &vars}, "var-file", "load variable values from a file; repeatable")
	fl.StringVar(&statePath, "state", defaultStatePath, "path to the state file")
	fl.BoolVar(&noColor, "no-color", false, "disable color")
	return cmd
}

func runConsole(ctx context.Context, cmd *cobra.Command, g *globals, u *ui, vars []config.VarSource, statePath string) error {
	cfg, diags := u.loadConfigAndProviders(g)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	vals, d := config.CollectVariableValues(os.DirFS("."), ".", cfg.Root, vars, g.deps.Env)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	file, err := readStateFile(u, statePath)
	if err != nil {
		return err
	}
	st := state.NewState()
	if file != nil && file.State != nil {
		st = file.State
	}
	r, d := rulesEngine(ctx, nil)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	// A refresh-only plan that neither refreshes nor reads data sources
	// the state holds evaluates the whole configuration with the state's
	// objects as they are: the values OpenTofu's console shows.
	scope := &engine.Scope{Impure: true}
	eng := newEngine(g, r, &hookAdapter{})
	_, d = eng.Plan(ctx, cfg, st, engine.PlanOpts{Mode: plan.RefreshOnlyMode, SkipRefresh: true, DataFromState: true, Variables: vals, Scope: scope})
	diags = append(diags, d...)
	if diags.HasErrors() || !scope.Ready() {
		return u.fail(diags)
	}
	u.diagnostics(diags)
	stdin := cmd.InOrStdin()
	interactive := isTerminal(stdin)
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var pending string // the lines of an expression whose brackets are still open
	for {
		if interactive {
			fmt.Fprint(u.out, "> ")
		}
		if !in.Scan() {
			// An expression still open at the end of input is dropped
			// without a word, as OpenTofu does.
			if interactive {
				fmt.Fprintln(u.out)
			}
			return nil
		}
		line := in.Text()
		if pending == "" && strings.TrimSpace(line) == "exit" {
			return nil
		}
		if pending == "" && strings.TrimSpace(line) == "" {
			fmt.Fprintln(u.out)
			continue
		}
		if pending != "" {
			line = pending + "\n" + line
			pending = ""
		}
		if openBrackets(line) > 0 {
			pending = line
			continue
		}
		v, d := consoleEval(scope, line)
		if d.HasErrors() {
			if !interactive {
				// Not at a terminal the first error ends the session, as
				// in OpenTofu; at one, the person corrects and goes on.
				return u.fail(d)
			}
			u.diagnostics(d)
			continue
		}
		u.diagnostics(d)
		fmt.Fprintln(u.out, views.FormatValue(v, views.ConsoleStyle, 0))
	}
}

// openBrackets counts the parentheses, brackets and braces line opens and
// does not close: while some are open the console reads on, so that an
// expression may span lines.
func openBrackets(line string) int {
	tokens, _ := hclsyntax.LexExpression([]byte(line), consoleInput, hcl.Pos{Line: 1, Column: 1})
	depth := 0
	for _, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenOParen, hclsyntax.TokenOBrack, hclsyntax.TokenOBrace, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
		case hclsyntax.TokenCParen, hclsyntax.TokenCBrack, hclsyntax.TokenCBrace, hclsyntax.TokenTemplateSeqEnd:
			depth--
		}
	}
	return depth
}

// consoleEval parses and evaluates one console line.
func consoleEval(scope *engine.Scope, line string) (cty.Value, hcl.Diagnostics) {
	expr, diags := hclsyntax.ParseExpression([]byte(line), consoleInput, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, _, d := scope.Eval(expr, nil)
	return v, append(diags, d...)
}
