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
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return tooManyForChdir(cmd, !noColor)
			}
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
	fl.Bool("input", true, "ask for the values of required variables that module sources or the backend use (TF_INPUT=false also turns this off)")
	return cmd
}

func runConsole(ctx context.Context, cmd *cobra.Command, g *globals, u *ui, vars []config.VarSource, statePath string) error {
	input, _ := cmd.Flags().GetBool("input")
	u.useVars(vars, input)
	u.early.operation = true
	cfg, diags := u.loadConfigAndProviders(g)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	vals, d := config.CollectVariableValues(os.DirFS("."), ".", cfg.Root, vars, g.deps.Env)
	u.addAnswers(vals)
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
	scope := &engine.Scope{Impure: true, NoOutputs: true, Functions: consoleFunctions()}
	eng := newEngine(g, r, &hookAdapter{})
	_, d = eng.Plan(ctx, cfg, st, engine.PlanOpts{Mode: plan.RefreshOnlyMode, SkipRefresh: true, FromState: true, Variables: vals, Scope: scope})
	diags = append(diags, d...)
	if !scope.Ready() {
		return u.fail(diags)
	}
	if diags.HasErrors() {
		// As OpenTofu: an evaluation that went wrong (a variable failing
		// its validation, say) still leaves a console to explore it with.
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Due to the problems above, some expressions may produce unexpected results."})
	}
	u.diagnostics(diags)
	stdin := cmd.InOrStdin()
	interactive := isTerminal(stdin)
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var expr consoleExpression
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
		text, complete := expr.add(in.Text())
		if !complete {
			continue
		}
		switch strings.TrimSpace(text) {
		case "":
			fmt.Fprintln(u.out)
			continue
		case "exit":
			return nil
		case "help":
			fmt.Fprintln(u.out, consoleHelp)
			continue
		}
		v, d := consoleEval(scope, text)
		if !d.HasErrors() {
			if typed, ok, td := consoleTypeResult(text, v); ok {
				d = append(d, td...)
				if !td.HasErrors() {
					u.diagnostics(d)
					fmt.Fprintln(u.out, typed)
					continue
				}
			}
		}
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

// consoleHelp is what "help" prints, OpenTofu's words with tenet's name.
const consoleHelp = `The tenet console allows you to experiment with tenet interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: "aws_instance.foo.id" would evaluate
to the ID of "aws_instance.foo" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D.`

// consoleExpression gathers the lines of one console expression by
// OpenTofu's rules, so that the same input is cut the same way: lines are
// trimmed, the expression reads on while a line ends in a backslash or
// braces, brackets or parentheses are left open (each kind counted on its
// own, from the start of input), and is taken at once when one kind has
// closed more than it opened.
// Blank lines inside an open expression are dropped.
type consoleExpression struct {
	lines                 []string
	brace, bracket, paren int
}

// add adds a line; it returns the expression and true once complete.
func (e *consoleExpression) add(line string) (string, bool) {
	line = strings.TrimSpace(line)
	continued := strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`)
	line = strings.TrimSuffix(line, `\`)
	if line != "" {
		e.lines = append(e.lines, line)
		tokens, _ := hclsyntax.LexConfig([]byte(line), consoleInput, hcl.Pos{Line: 1, Column: 1})
		for _, t := range tokens {
			switch t.Type {
			case hclsyntax.TokenOBrace:
				e.brace++
			case hclsyntax.TokenCBrace:
				e.brace--
			case hclsyntax.TokenOBrack:
				e.bracket++
			case hclsyntax.TokenCBrack:
				e.bracket--
			case hclsyntax.TokenOParen:
				e.paren++
			case hclsyntax.TokenCParen:
				e.paren--
			}
		}
	}
	overClosed := e.brace < 0 || e.bracket < 0 || e.paren < 0
	if !overClosed && (continued || e.brace+e.bracket+e.paren > 0) {
		return "", false
	}
	text := strings.Join(e.lines, "\n")
	// Only the lines start afresh: OpenTofu keeps its counts, so that
	// after a line closing more than it opened (the "}" ending a template
	// on a line of its own counts as a brace) each line is taken alone.
	e.lines = nil
	return text, true
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
