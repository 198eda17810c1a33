package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"

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
	interactive := false
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			interactive = true
		}
	}
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for {
		if interactive {
			fmt.Fprint(u.out, "> ")
		}
		if !in.Scan() {
			if interactive {
				fmt.Fprintln(u.out)
			}
			return nil
		}
		line := in.Text()
		if strings.TrimSpace(line) == "exit" {
			return nil
		}
		if strings.TrimSpace(line) == "" {
			fmt.Fprintln(u.out)
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
		fmt.Fprintln(u.out, formatConsoleValue(v, 0))
	}
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

// formatConsoleValue renders a value as OpenTofu's console does: HCL
// syntax with every object key quoted, collections' types shown
// (tolist, tomap, toset), multi-line strings as heredocs.
func formatConsoleValue(v cty.Value, indent int) string {
	var b strings.Builder
	writeConsoleValue(&b, v, indent)
	return b.String()
}

func writeConsoleValue(b *strings.Builder, v cty.Value, indent int) {
	if v.IsMarked() {
		b.WriteString("(sensitive value)")
		return
	}
	if !v.IsKnown() {
		b.WriteString("(known after apply)")
		return
	}
	if v.IsNull() {
		b.WriteString("null")
		return
	}
	ty := v.Type()
	pad := strings.Repeat("  ", indent+1)
	closePad := strings.Repeat("  ", indent)
	switch {
	case ty == cty.String:
		s := v.AsString()
		if strings.Contains(s, "\n") {
			b.WriteString("<<EOT\n")
			b.WriteString(s)
			if !strings.HasSuffix(s, "\n") {
				b.WriteString("\n")
			}
			b.WriteString("EOT")
			return
		}
		b.WriteString(consoleQuote(s))
	case ty == cty.Number:
		b.WriteString(v.AsBigFloat().Text('f', -1))
	case ty == cty.Bool:
		b.WriteString(strconv.FormatBool(v.True()))
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		prefix, suffix := "", ""
		if ty.IsListType() {
			prefix, suffix = "tolist(", ")"
		} else if ty.IsSetType() {
			prefix, suffix = "toset(", ")"
		}
		b.WriteString(prefix)
		if v.LengthInt() == 0 {
			b.WriteString("[]" + suffix)
			return
		}
		b.WriteString("[\n")
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			b.WriteString(pad)
			writeConsoleValue(b, e, indent+1)
			b.WriteString(",\n")
		}
		b.WriteString(closePad + "]" + suffix)
	case ty.IsMapType() || ty.IsObjectType():
		prefix, suffix := "", ""
		if ty.IsMapType() {
			prefix, suffix = "tomap(", ")"
		}
		b.WriteString(prefix)
		if v.LengthInt() == 0 {
			b.WriteString("{}" + suffix)
			return
		}
		b.WriteString("{\n")
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			b.WriteString(pad)
			b.WriteString(consoleQuote(k.AsString()))
			b.WriteString(" = ")
			writeConsoleValue(b, e, indent+1)
			b.WriteString("\n")
		}
		b.WriteString(closePad + "}" + suffix)
	default:
		b.WriteString(ty.FriendlyName())
	}
}

// consoleQuote quotes a string. Template sequences stay as they are:
// OpenTofu's console shows "${x}", not the "$${x}" HCL would need.
func consoleQuote(s string) string {
	return strconv.Quote(s)
}
