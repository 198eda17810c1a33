package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config"
)

// earlyVars gives the configuration loader the values of the root
// module's variables that module sources and versions and the backend
// block use (config.StaticInputs). As OpenTofu, they come from the same
// sources as a plan's: -var and -var-file of the commands that take them,
// tfvars files, TF_VAR_ entries; a required variable given none is asked
// for once per run (unless input is off), and the answer is the one the
// plan uses too.
type earlyVars struct {
	env      []string
	sources  []config.VarSource
	input    bool
	ask      func(v *config.Variable) (string, error)
	values   map[string]config.VariableValue
	answered map[string]config.VariableValue
	root     *config.Module // the root module read early (ui.earlyRoot)
	// operation marks the commands OpenTofu runs as operations of its
	// backend (plan, apply, refresh, console, graph): see
	// config.LoadOptions.RootCallsInstalled.
	operation bool
}

func newEarlyVars(cmd *cobra.Command, g *globals, u *ui, jsonMode bool) *earlyVars {
	e := &earlyVars{env: g.deps.Env, answered: map[string]config.VariableValue{}}
	// The command's -var and -var-file options, whichever command it is.
	if f := cmd.Flags().Lookup("var"); f != nil {
		if vf, ok := f.Value.(*varFlag); ok {
			e.sources = *vf.list
		}
	}
	e.ask = func(v *config.Variable) (string, error) {
		fmt.Fprint(u.out, variablePrompt(v, u.color))
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		line, err := g.answers.readLine(ctx)
		if err == nil {
			fmt.Fprintln(u.out)
		}
		return line, err
	}
	return e
}

// earlyVarCommands are the commands that take -var and -var-file only for
// early evaluation (the backend block and module sources), as OpenTofu's
// do; the others that take them declare them themselves.
var earlyVarCommands = []string{
	"get", "graph", "show", "force-unlock",
	"providers", "providers lock", "providers mirror", "providers schema",
	"state list", "state show",
	"workspace new", "workspace select", "workspace list", "workspace delete", "workspace show",
}

// acceptEarlyVars adds -var and -var-file to earlyVarCommands.
func acceptEarlyVars(root *cobra.Command) {
	for _, path := range earlyVarCommands {
		cmd, _, err := root.Find(strings.Fields(path))
		if err != nil || cmd == root || cmd.Flags().Lookup("var") != nil {
			continue
		}
		list := &[]config.VarSource{}
		cmd.Flags().Var(&varFlag{kind: config.ValueFromCLI, list: list}, "var", "set a value for a root module input variable that the backend block or module sources use (NAME=VALUE); repeatable")
		cmd.Flags().Var(&varFlag{kind: config.ValueFromFile, list: list}, "var-file", "load such values from a file; repeatable")
	}
}

// useVars sets the command's -var and -var-file options and -input.
func (u *ui) useVars(sources []config.VarSource, input bool) {
	u.early.sources = sources
	u.early.input = input && inputEnabled(true, u.env) && u.json == nil
}

// staticInputs are the loader's early evaluation inputs.
func (u *ui) staticInputs() config.StaticInputs {
	ws, _ := currentWorkspace(u.env) // an invalid selection fails when the state is opened
	return config.StaticInputs{Variable: u.early.variable, Workspace: ws}
}

func (e *earlyVars) variable(root *config.Module, v *config.Variable) (cty.Value, hcl.Diagnostics) {
	if e.values == nil {
		// What is wrong with the sources is reported where the plan
		// collects them again; here only the values count.
		e.values, _ = config.CollectVariableValues(os.DirFS("."), ".", root, e.sources, e.env)
	}
	if val, ok := e.values[v.Name]; ok {
		return val.Value, nil
	}
	if val, ok := e.answered[v.Name]; ok {
		return val.Value, nil
	}
	if !v.Required() {
		return v.Default, nil
	}
	if !e.input || e.ask == nil {
		return cty.NilVal, hcl.Diagnostics{config.NoInputForVariable(v)}
	}
	line, err := e.ask(v)
	if err != nil {
		return cty.NilVal, hcl.Diagnostics{config.NoInputForVariable(v)}
	}
	// Accepted as given: the plan checks the value as any other.
	val, diags := config.VariableValueFromText(v, line, config.ValueFromInput)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	e.answered[v.Name] = val
	return val.Value, nil
}

// useValues gives the variables the values a saved plan recorded.
func (e *earlyVars) useValues(vals map[string]cty.Value) {
	e.values = map[string]config.VariableValue{}
	for name, v := range vals {
		e.values[name] = config.VariableValue{Value: v}
	}
}

// addAnswers adds the values asked for during loading to vals, so the
// plan does not ask for them again.
func (u *ui) addAnswers(vals map[string]config.VariableValue) {
	for name, val := range u.early.answered {
		if _, ok := vals[name]; !ok {
			vals[name] = val
		}
	}
}
