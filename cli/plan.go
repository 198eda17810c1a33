package cli

import (
	"context"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/policy"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/local"

	"github.com/tenetplan/tenet/engine/plan/planjson"

	"github.com/tenetplan/tenet/engine/plan/planfile"

	"github.com/tenetplan/tenet/cli/views/human"

	"github.com/tenetplan/tenet/cli/views/jsonui"
)

func newPlanCommand(g *globals) *cobra.Command {
	f := &planFlags{}
	var out string
	var explain bool
	cmd := &cobra.Command{
		Use:   "plan [options]",
		Short: "Show the changes required by the current configuration",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.command = cmd.Name()
			f.positional = args
			u := newUI(cmd, g, f.noColor, f.json)
			u.compactWarnings = f.compactWarnings
			u.deprecation = parseDeprecationLevel(f.deprecation)
			u.showSensitive = f.showSensitive
			r, err := planRun(cmd.Context(), g, u, f, "plan")
			if err != nil {
				return err
			}
			defer r.release()
			if explain {
				showExplanations(u, r.plan) // explain.go
			}
			if out != "" && !r.plan.Errored {
				if err := planfile.WriteFile(out, r.plan); err != nil {
					return u.errorf("Failed to write plan file", "%s", err)
				}
			}
			if u.json == nil && r.plan.CanApply() && !inAutomation(g.deps.Env) {
				genPath := ""
				if f.generatedConfig {
					genPath = f.generateConfigOut
				}
				savedTo := out
				if r.plan.Errored {
					savedTo = "" // an errored plan is not saved
				}
				human.WritePlanNextStep(u.out, savedTo, genPath, u.color)
			}
			if r.diags.HasErrors() {
				return &exitError{1}
			}
			if err := refusePolicyBlocked(u, r.policy, false); err != nil {
				return err
			}
			if f.detailedExitcode && r.plan.CanApply() {
				return &exitError{2}
			}
			return nil
		},
	}
	f.register(cmd, true)
	registerShowSensitive(cmd, &f.showSensitive)
	registerConsolidation(cmd)
	cmd.Flags().StringVar(&out, "out", "", "write the plan to this file, to apply it later exactly")
	cmd.Flags().BoolVar(&f.detailedExitcode, "detailed-exitcode", false, "exit 2 when the plan has changes")
	cmd.Flags().StringVar(&f.generateConfigOut, "generate-config-out", "", "write resource blocks for import targets that have none to this new file, and plan with them")
	cmd.Flags().BoolVar(&explain, "explain", false, "after the plan, explain each change: action, reason, the rules that fired and their facts")
	return cmd
}

// planResult is what planning produced, with the state still locked.
type planResult struct {
	plan    *plan.Plan
	prev    *state.State // the state the plan was made from
	cfg     *config.Config
	mgr     *local.Manager
	diags   hcl.Diagnostics
	release func()
	hooks   *hookAdapter
	rules   *rules.Engine  // compiled once, reused by the apply that follows
	policy  *policy.Report // nil when no policies ran
}

// planRun loads everything, plans, and shows the plan. The state stays
// locked until release is called. An error return means the plan could
// not be made (and was reported); r.diags may still hold errors of a
// plan that was made but errored.
func planRun(ctx context.Context, g *globals, u *ui, f *planFlags, operation string) (*planResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	args, err := f.checkArgs(u)
	if err != nil {
		return nil, err
	}
	u.useVars(f.vars, f.input)
	u.early.operation = true
	// As OpenTofu, the backend block is read first, and with it the
	// variables it uses.
	if _, err := resolveBackend(u, g.deps.Env); err != nil {
		return nil, err
	}
	// Compiling the rules takes tens of milliseconds and needs nothing
	// else: do it on the other core while configuration and state load.
	compiled := compileRules(ctx, f.rules)
	var policies *pendingPolicies // likewise the policies, if any
	if paths := policySources(f.policy); len(paths) > 0 {
		policies = loadPolicies(ctx, g, paths)
	}
	if f.generateConfigOut != "" {
		if d := checkGenerateConfigOut(f.generateConfigOut); d.HasErrors() {
			return nil, u.fail(d)
		}
	}
	cfg, diags := u.loadConfigAndProviders(g)
	if diags.HasErrors() {
		return nil, u.fail(diags)
	}
	g.phases.done("load configuration")
	var generated hcl.Diagnostics
	var generatedBlocks map[string]string // by import target
	if missing := importsWithoutConfig(cfg); len(missing) > 0 && !f.destroy && !f.refreshOnly {
		if f.generateConfigOut == "" {
			return nil, u.fail(append(diags, missingImportConfig(missing)...))
		}
		generatedBlocks, generated = generateImportConfig(ctx, g.providerRegistry(), cfg, f.generateConfigOut, missing)
		if generated.HasErrors() {
			return nil, u.fail(append(diags, generated...))
		}
		f.generatedConfig = true
		// Plan with the generated blocks in the configuration.
		cfg, diags = u.loadConfigAndProviders(g)
		if diags.HasErrors() {
			return nil, u.fail(append(diags, generated...))
		}
	}
	if len(cfg.Files) == 0 && !f.destroy && !f.refreshCommand {
		return nil, noConfiguration(u, operation)
	}
	vals, d := config.CollectVariableValues(os.DirFS("."), ".", cfg.Root, f.vars, g.deps.Env)
	u.addAnswers(vals)
	diags = append(diags, d...)
	if !d.HasErrors() && u.json == nil && inputEnabled(f.input, g.deps.Env) {
		d = promptForVariables(ctx, g, u, cfg.Root, vals)
		diags = append(diags, d...)
	}
	if !d.HasErrors() {
		// Before planning starts, as OpenTofu: these come alone.
		if missing := config.MissingRootVariables(cfg.Root, vals); missing.HasErrors() {
			return nil, u.fail(append(diags, missing...))
		}
	}
	if diags.HasErrors() {
		return nil, u.fail(diags)
	}
	opts := f.planOpts(args, vals)
	g.intr.operation()
	mgr, prev, release, err := f.state.openState(ctx, u, operation)
	if err != nil {
		return nil, err
	}
	release = g.intr.guardRelease(release)
	g.phases.done("read state")
	r, d := compiled.wait()
	diags = append(diags, d...)
	g.phases.done("compile rules (wait)")
	if diags.HasErrors() {
		release()
		return nil, u.fail(diags)
	}
	if operation != "apply" {
		// As OpenTofu, plan and refresh show the warnings of loading before
		// planning starts, and again with the plan's own; apply shows them
		// once, after applying.
		u.diagnostics(diags)
	}
	diags = append(diags, generated...) // shown with the plan's, as OpenTofu
	hooks := &hookAdapter{refresh: true}
	if u.json != nil {
		hooks.p = u.json
	} else if !f.concise {
		hooks.p = human.NewHumanHooks(u.out, u.color) // "Refreshing state..." lines
	}
	eng := newEngine(g, r, hooks)
	g.log.logf(logInfo, "%s: planning", operation)
	p, d := eng.Plan(ctx, cfg, prev, opts)
	if ctx.Err() != nil {
		// Interrupted: the plan is partial, so it is neither shown nor
		// saved, and the lock goes.
		release()
		return nil, interrupted(u, append(diags, d...))
	}
	// Team rules compiled while planning: their mistakes, not what they
	// did to the plan, are what to report.
	if rd := r.Diagnostics(ctx); rd.HasErrors() {
		release()
		return nil, u.fail(append(diags, rd...))
	}
	diags = append(diags, d...)
	g.phases.done("plan")
	if p != nil {
		g.log.logf(logInfo, "%s: plan made with %d changes (errored: %t)", operation, len(p.Changes), p.Errored)
	}
	if p == nil {
		release()
		return nil, u.fail(diags)
	}
	if lineage, serial, ok := mgr.Lineage(); ok {
		p.PriorLineage, p.PriorSerial = lineage, serial
	}
	for _, c := range p.Changes {
		if block, ok := generatedBlocks[c.Addr.String()]; ok && c.Importing != nil {
			c.Importing.GeneratedConfig = block
		}
	}
	res := &planResult{plan: p, prev: prev, cfg: cfg, mgr: mgr, diags: diags, release: release, hooks: hooks, rules: r}
	policyGate := startPolicyGate(ctx, g, f, p, diags, policies)
	var showErr error
	if f.refreshCommand {
		// refresh shows no plan, only what went wrong.
		if len(prev.AllResourceInstances()) == 0 {
			diags = append(diags, emptyStateWarning())
		}
		u.diagnostics(diags)
	} else if operation != "plan" && p.Errored && len(p.Changes) == 0 && len(p.OutputChanges) == 0 {
		// As OpenTofu's apply (and destroy): a plan that failed with no
		// resource or output in it is not shown, only what went wrong.
		u.diagnostics(diags)
	} else {
		showErr = showPlan(u, g, p, diags, operation != "plan")
	}
	g.phases.done("render plan")
	rep, policyDiags := policyGate()
	g.phases.done("policy (wait)")
	if showErr != nil {
		release()
		return nil, showErr
	}
	u.diagnostics(policyDiags)
	res.policy = rep
	showPolicyReport(u, res.policy)
	return res, nil
}

// interrupted reports a run stopped by an interrupt: its errors, led by
// "execution halted" as in OpenTofu.
func interrupted(u *ui, diags hcl.Diagnostics) error {
	var errs hcl.Diagnostics
	halted := false
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Summary == "execution halted" {
			halted = true
		}
		errs = append(errs, d)
	}
	if !halted {
		errs = append(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "execution halted"}}, errs...)
	}
	return u.fail(errs)
}

// showPlan renders a plan (human or JSON) with its diagnostics.
// Apply (holdWarnings) shows the warnings after applying, errors at once.
func showPlan(u *ui, g *globals, p *plan.Plan, diags hcl.Diagnostics, holdWarnings bool) error {
	js, err := planjson.MarshalView(p) // only what the views read
	if err != nil {
		return u.errorf("Failed to encode the plan", "%s", err)
	}
	if u.json != nil {
		// As OpenTofu's stream: the planned changes, then the diagnostics,
		// which an apply holds as the human view does.
		if err := jsonui.EmitPlan(u.json, js, viewMode(p.Mode)); err != nil {
			return u.errorf("Failed to encode the plan", "%s", err)
		}
		if holdWarnings && !p.Errored && !diags.HasErrors() {
			u.planWarnings = diags
		} else {
			u.diagnostics(diags)
		}
		return nil
	}
	warnings := hcl.Diagnostics{}
	var errs hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs = append(errs, d)
		} else {
			warnings = append(warnings, d)
		}
	}
	{ // an errored plan says so ("Planning failed"), as OpenTofu's does
		if err := human.RenderPlan(u.out, js, schemaLookup{g.providerRegistry()}, human.RenderOptions{Color: u.color, Mode: viewMode(p.Mode), NotApplyable: !p.CanApply(), ShowSensitive: u.showSensitive, InAutomation: inAutomation(u.env)}); err != nil {
			return u.errorf("Failed to render the plan", "%s", err)
		}
	}
	if holdWarnings && !p.Errored && !errs.HasErrors() {
		u.planWarnings = warnings
	} else {
		u.diagnostics(warnings)
	}
	u.diagnostics(errs)
	return nil
}

var _ engine.Hooks = (*hookAdapter)(nil)

func viewMode(m plan.Mode) string {
	switch m {
	case plan.DestroyMode:
		return views.ModeDestroy
	case plan.RefreshOnlyMode:
		return views.ModeRefreshOnly
	}
	return views.ModeNormal
}

// noConfiguration refuses to plan or apply without configuration (which
// would destroy everything), in OpenTofu's words for each.
func noConfiguration(u *ui, operation string) error {
	if operation == "apply" {
		return u.errorf("No configuration files", "Apply requires configuration to be present. Applying without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run 'tenet destroy' instead.")
	}
	return u.errorf("No configuration files", "Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a tenet configuration file (.tf file) and try again.")
}
