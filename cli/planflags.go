package cli

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
)

// varFlag keeps -var and -var-file in the order they were given, because
// later ones win.
type varFlag struct {
	kind string
	list *[]config.VarSource
}

func (f *varFlag) String() string { return "" }
func (f *varFlag) Type() string   { return "string" }
func (f *varFlag) Set(s string) error {
	if f.kind == config.ValueFromFile {
		*f.list = append(*f.list, config.VarSource{Kind: config.ValueFromFile, File: s})
		return nil
	}
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return fmt.Errorf("the given -var option %q is not correctly specified: must be a variable name and value separated by an equals sign, like -var=\"key=value\"", s)
	}
	*f.list = append(*f.list, config.VarSource{Kind: config.ValueFromCLI, Name: strings.TrimSpace(s[:eq]), Value: s[eq+1:]})
	return nil
}

// planFlags are the options shared by plan, apply and destroy.
type planFlags struct {
	vars             []config.VarSource
	refresh          bool
	destroy          bool
	refreshOnly      bool
	parallelism      int
	replace          []string
	target           []string
	exclude          []string
	rules            []string
	policy           []string // compliance policy sources (cli/policygate.go)
	policyOverride   string
	json             bool
	noColor          bool
	input            bool
	detailedExitcode bool
	compactWarnings  bool
	// generateConfigOut (plan -generate-config-out) is where the
	// resource blocks of import targets without one are written.
	generateConfigOut string
	generatedConfig   bool // set once the file was written
	// refreshCommand is set by `tenet refresh`: no plan is shown and the
	// apply ends with the outputs only.
	refreshCommand bool
	state          stateFlags
}

func (f *planFlags) register(cmd *cobra.Command, withDestroy bool) {
	fl := cmd.Flags()
	fl.Var(&varFlag{kind: config.ValueFromCLI, list: &f.vars}, "var", "set a value for a root module input variable (NAME=VALUE); repeatable")
	fl.Var(&varFlag{kind: config.ValueFromFile, list: &f.vars}, "var-file", "load variable values from a file; repeatable")
	fl.BoolVar(&f.refresh, "refresh", true, "read the current state of remote objects before planning")
	if withDestroy {
		fl.BoolVar(&f.destroy, "destroy", false, "plan to destroy every object")
	}
	fl.BoolVar(&f.refreshOnly, "refresh-only", false, "only update the state to match remote objects")
	fl.IntVar(&f.parallelism, "parallelism", 10, "limit the number of concurrent operations")
	fl.StringArrayVar(&f.replace, "replace", nil, "force replacement of this resource instance; repeatable")
	fl.StringArrayVar(&f.target, "target", nil, "limit planning to this address and its dependencies; repeatable")
	fl.StringArrayVar(&f.exclude, "exclude", nil, "plan everything except this address and its dependents; repeatable")
	fl.StringArrayVar(&f.rules, "rules", nil, "directory of team planning rules; repeatable")
	fl.StringArrayVar(&f.policy, "policy", nil, "compliance policy directory, .rego file or OPA bundle, in addition to .tenet/policy; repeatable")
	fl.StringVar(&f.policyOverride, "policy-override", "", "let soft-mandatory policy failures through, recording this reason (exit status 3 means a policy check failed)")
	fl.BoolVar(&f.json, "json", false, "machine-readable output (one JSON object per line)")
	fl.BoolVar(&f.noColor, "no-color", false, "disable color in the output")
	fl.BoolVar(&f.input, "input", true, "ask for the values of required variables that are not set (TF_INPUT=false also turns this off)")
	fl.BoolVar(&f.compactWarnings, "compact-warnings", false, "show warnings not accompanied by errors in a compact form, with their summaries only")
	f.state.register(cmd)
}

// planOpts turns the flags into engine options, with diagnostics for
// addresses that do not parse or options that do not combine.
func (f *planFlags) planOpts(vars map[string]config.VariableValue) (engine.PlanOpts, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	opts := engine.PlanOpts{SkipRefresh: !f.refresh, Variables: vars, Parallelism: f.parallelism}
	switch {
	case f.destroy && f.refreshOnly:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incompatible plan mode options",
			Detail: "The -destroy and -refresh-only options are mutually-exclusive."})
	case f.destroy:
		opts.Mode = plan.DestroyMode
	case f.refreshOnly:
		opts.Mode = plan.RefreshOnlyMode
		if !f.refresh {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incompatible refresh options",
				Detail: "It doesn't make sense to use -refresh-only at the same time as -refresh=false, because tenet would have nothing to do."})
		}
	}
	if f.parallelism < 1 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid parallelism value",
			Detail: fmt.Sprintf("The -parallelism value must be at least 1; got %d.", f.parallelism)})
	}
	for _, s := range f.replace {
		a, d := addrs.ParseAbsResourceInstanceStr(s)
		if d.HasErrors() || a.Resource.Resource.Mode != addrs.ManagedResourceMode {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid force-replace address",
				Detail: fmt.Sprintf("The -replace option needs the address of a managed resource instance; %q is not one.", s)})
			continue
		}
		opts.ForceReplace = append(opts.ForceReplace, a)
	}
	if len(f.target) > 0 && len(f.exclude) > 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid combination of arguments",
			Detail: "The -target and -exclude options cannot be used together."})
	}
	targets, d := targetSubjects(f.target, "target")
	opts.Targets = append(opts.Targets, targets...)
	diags = append(diags, d...)
	excludes, d := targetSubjects(f.exclude, "exclude")
	opts.Excludes = append(opts.Excludes, excludes...)
	return opts, append(diags, d...)
}

// targetSubjects parses the addresses of -target or -exclude (flag),
// with an error for each that is not one.
func targetSubjects(flagValues []string, flag string) ([]addrs.Targetable, hcl.Diagnostics) {
	var out []addrs.Targetable
	var diags hcl.Diagnostics
	for _, s := range flagValues {
		t, d := addrs.ParseTargetStr(s)
		if d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + flag + " address", Detail: fmt.Sprintf("%q: %s", s, d[0].Detail)})
			continue
		}
		out = append(out, t.Subject)
	}
	return out, diags
}
