package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
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
	// A malformed option is reported with the values' other problems.
	*f.list = append(*f.list, config.ParseVarOption(s))
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
	targetFiles      []string // -target-file
	excludeFiles     []string // -exclude-file
	rules            []string
	policy           []string // compliance policy sources (cli/policygate.go)
	policyOverride   string
	json             bool
	noColor          bool
	input            bool
	detailedExitcode bool
	compactWarnings  bool
	concise          bool // -concise: no progress lines in human output
	// deprecation (-deprecation=module:all|local|none) is which module
	// deprecation warnings human output shows (cli/deprecation.go).
	deprecation   string
	showSensitive bool // plan, apply and destroy only (not explain)
	// generateConfigOut (plan -generate-config-out) is where the
	// resource blocks of import targets without one are written.
	generateConfigOut string
	generatedConfig   bool // set once the file was written
	// refreshCommand is set by `tenet refresh`: no plan is shown and the
	// apply ends with the outputs only.
	refreshCommand bool
	// command names the command in the help prompt after argument errors
	// (plan, apply, destroy, refresh); set as the command starts.
	command string
	// positional are the arguments plan and refresh were given, which
	// they refuse (apply checks its own).
	positional []string
	state      stateFlags
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
	f.registerOperationFlags(cmd)
	fl.StringArrayVar(&f.rules, "rules", nil, "directory of team planning rules; repeatable")
	fl.StringArrayVar(&f.policy, "policy", nil, "compliance policy directory, .rego file or OPA bundle, in addition to .tenet/policy; repeatable")
	fl.StringVar(&f.policyOverride, "policy-override", "", "let soft-mandatory policy failures through, recording this reason (exit status 3 means a policy check failed)")
	fl.BoolVar(&f.json, "json", false, "machine-readable output (one JSON object per line)")
	fl.BoolVar(&f.noColor, "no-color", false, "disable color in the output")
	fl.BoolVar(&f.input, "input", true, "ask for the values of required variables that are not set (TF_INPUT=false also turns this off)")
	fl.BoolVar(&f.compactWarnings, "compact-warnings", false, "show warnings not accompanied by errors in a compact form, with their summaries only")
	fl.StringVar(&f.deprecation, "deprecation", "module:all", "which warnings about deprecated module variables and outputs to show: module:all, module:local (not those about calls made inside non-local modules) or module:none")
	f.state.register(cmd)
}

// planArgs is what the planning flags ask for, checked before anything
// is loaded (as OpenTofu checks its arguments first).
type planArgs struct {
	mode     plan.Mode
	replace  []addrs.AbsResourceInstance
	targets  []addrs.Targetable
	excludes []addrs.Targetable
}

// parseArgs checks the planning flags, with diagnostics for addresses
// that do not parse and options that do not combine, in OpenTofu's order.
func (f *planFlags) parseArgs() (planArgs, hcl.Diagnostics) {
	var args planArgs
	var diags hcl.Diagnostics
	if len(f.positional) > 0 {
		detail := "Expected at most one positional argument."
		if f.command == "plan" {
			detail = "To specify a working directory for the plan, use the global -chdir flag."
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many command line arguments", Detail: detail})
	}
	if (len(f.target) > 0 || len(f.targetFiles) > 0) && (len(f.exclude) > 0 || len(f.excludeFiles) > 0) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid combination of arguments",
			Detail: "The target and exclude planning options are mutually-exclusive. Each plan must use either only the target options or only the exclude options."})
	} else {
		var d hcl.Diagnostics
		args.targets, d = targetSubjects(f.target, f.targetFiles, "target")
		diags = append(diags, d...)
		args.excludes, d = targetSubjects(f.exclude, f.excludeFiles, "exclude")
		diags = append(diags, d...)
	}
	for _, s := range f.replace {
		a, d := addrs.ParseAbsResourceInstanceStr(s)
		switch {
		case d.HasErrors():
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Invalid force-replace address %q", s), Detail: d[0].Detail})
		case a.Resource.Resource.Mode != addrs.ManagedResourceMode:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Invalid force-replace address %q", s),
				Detail: "Only managed resources can be used with the -replace=... option."})
		default:
			args.replace = append(args.replace, a)
		}
	}
	switch {
	case f.destroy && f.refreshOnly:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incompatible plan mode options",
			Detail: "The -destroy and -refresh-only options are mutually-exclusive."})
	case f.destroy:
		args.mode = plan.DestroyMode
	case f.refreshOnly:
		args.mode = plan.RefreshOnlyMode
		if !f.refresh {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incompatible refresh options",
				Detail: "It doesn't make sense to use -refresh-only at the same time as -refresh=false, because tenet would have nothing to do."})
		}
	}
	if f.parallelism < 1 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid parallelism value",
			Detail: fmt.Sprintf("The -parallelism value must be at least 1; got %d.", f.parallelism)})
	}
	return args, diags
}

// checkArgs reports the planning flags' errors as OpenTofu reports
// argument errors: the diagnostics, then where to find help.
func (f *planFlags) checkArgs(u *ui) (planArgs, error) {
	args, diags := f.parseArgs()
	if diags.HasErrors() {
		u.diagnostics(diags)
		if u.json == nil {
			fmt.Fprintf(u.errw, "\nFor more help on using this command, run:\n  tenet %s -help\n", f.command)
		}
		return args, &exitError{1}
	}
	return args, nil
}

// planOpts gives the engine options for checked arguments and the root
// module's variable values.
func (f *planFlags) planOpts(args planArgs, vars map[string]config.VariableValue) engine.PlanOpts {
	return engine.PlanOpts{SkipRefresh: !f.refresh, Variables: vars, Parallelism: f.parallelism, Mode: args.mode,
		ForceReplace: args.replace, Targets: args.targets, Excludes: args.excludes, ValidateFirst: true}
}

// targetSubjects parses the addresses of -target or -exclude (flag) and
// of the files -target-file or -exclude-file name (one address a line,
// lines starting with # left out), with an error for each that is not
// one: those of the command line name the flag, those of a file their
// line.
func targetSubjects(flagValues, files []string, flag string) ([]addrs.Targetable, hcl.Diagnostics) {
	var out []addrs.Targetable
	var diags hcl.Diagnostics
	for _, s := range flagValues {
		t, d := addrs.ParseTargetStr(s)
		if d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Invalid %s %q", flag, s), Detail: d[0].Detail})
			continue
		}
		out = append(out, t.Subject)
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: err.Error()})
			continue
		}
		sc := hcl.NewRangeScanner(src, path, bufio.ScanLines)
		for sc.Scan() {
			line := sc.Bytes()
			if bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
				continue
			}
			traversal, d := hclsyntax.ParseTraversalAbs(line, path, sc.Range().Start)
			if d.HasErrors() {
				diags = append(diags, d...)
				continue
			}
			t, d := addrs.ParseTarget(traversal)
			if d.HasErrors() {
				diags = append(diags, d...)
				continue
			}
			out = append(out, t.Subject)
		}
	}
	return out, diags
}

// registerOperationFlags adds the flags plan, apply, destroy and refresh
// share beyond the ones they declare themselves: -target-file,
// -exclude-file and -concise.
func (f *planFlags) registerOperationFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.concise, "concise", false, "leave the progress lines (Refreshing..., Creating...) out of human output")
	cmd.Flags().StringArrayVar(&f.targetFiles, "target-file", nil, "like -target, for each address in this file (one a line, # starts a comment); repeatable")
	cmd.Flags().StringArrayVar(&f.excludeFiles, "exclude-file", nil, "like -exclude, for each address in this file (one a line, # starts a comment); repeatable")
}
