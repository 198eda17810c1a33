package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"

	"github.com/tenetplan/tenet/engine/plan/planfile"

	"github.com/tenetplan/tenet/cli/views/human"
)

func newApplyCommand(g *globals, destroy bool) *cobra.Command {
	f := &planFlags{}
	var autoApprove bool
	use, short := "apply [options] [PLANFILE]", "Create or update infrastructure"
	if destroy {
		use, short = "destroy [options]", "Destroy previously-created infrastructure"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.command = cmd.Name()
			if destroy {
				f.destroy = true
			}
			u := newUI(cmd, g, f.noColor, f.json)
			u.compactWarnings = f.compactWarnings
			u.deprecation = parseDeprecationLevel(f.deprecation)
			u.showSensitive = f.showSensitive
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			switch len(args) {
			case 0:
			case 1:
				return applySavedPlan(ctx, g, u, f, args[0], destroy)
			default:
				u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Too many command line arguments", Detail: "Expected at most one positional argument."}})
				fmt.Fprintf(u.errw, "\nFor more help on using this command, run:\n  tenet %s -help\n", cmd.Name())
				return &exitError{1}
			}
			r, err := planRun(ctx, g, u, f, "apply")
			if err != nil {
				return err
			}
			defer r.release()
			// Warnings held back for after the apply are shown even when
			// nothing is applied.
			defer func() { u.diagnostics(u.planWarnings) }()
			if r.diags.HasErrors() {
				return &exitError{1}
			}
			if err := refusePolicyBlocked(u, r.policy, true); err != nil {
				return err
			}
			if !r.plan.CanApply() {
				if err := settleRecovered(u, r.mgr, r.prev); err != nil {
					return err
				}
				// Nothing to do is still a complete apply (as OpenTofu).
				op := views.OperationApply
				if f.destroy {
					op = views.OperationDestroy
				}
				u.diagnostics(u.planWarnings)
				u.planWarnings = nil
				reportApplied(u, views.ChangeSummary{Operation: op}, r.prev, f.refreshCommand, f.state.out)
				return nil
			}
			if ctx.Err() != nil {
				return interrupted(u, nil)
			}
			if autoApprove {
				// The apply runs the check blocks again; their plan-time
				// results would only repeat or contradict its own.
				u.planWarnings = withoutCheckBlockDiags(u.planWarnings)
			} else {
				// Shown before the question, to weigh in the answer.
				u.diagnostics(u.planWarnings)
				u.planWarnings = nil
				ok, err := confirm(ctx, g, u, f.destroy)
				if err != nil {
					return err
				}
				if !ok {
					// As OpenTofu: a plain line on stdout, not a diagnostic.
					fmt.Fprintf(u.out, "%s cancelled.\n", map[bool]string{true: "Destroy", false: "Apply"}[f.destroy])
					return &exitError{1}
				}
			}
			return applyPlan(ctx, g, u, f, r.cfg, r.plan, r.mgr, r.rules)
		},
	}
	f.register(cmd, !destroy)
	registerShowSensitive(cmd, &f.showSensitive)
	registerConsolidation(cmd)
	cmd.Flags().BoolVar(&autoApprove, "auto-approve", false, "skip the interactive approval of the plan")
	return cmd
}

// confirm asks the person to type "yes". An interrupt while waiting is
// a refusal, reported as OpenTofu reports it.
func confirm(ctx context.Context, g *globals, u *ui, destroy bool) (bool, error) {
	if u.json != nil {
		return false, u.errorf("Approval required", "Use -auto-approve with -json: a JSON stream cannot answer the approval prompt.")
	}
	question := "Do you want to perform these actions?"
	detail := "tenet will perform the actions described above.\n  Only 'yes' will be accepted to approve."
	if destroy {
		question = "Do you really want to destroy all resources?"
		detail = "tenet will destroy all your managed infrastructure, as shown above.\n  There is no undo. Only 'yes' will be accepted to confirm."
	}
	prompt := fmt.Sprintf("\n%s\n  %s\n\n  Enter a value: ", question, detail)
	if u.color {
		// OpenTofu's bytes: the question bold from before its blank line.
		prompt = fmt.Sprintf("%s\n%s%s\n  %s\n\n  %s", views.ANSIReset+views.ANSIBold, question, views.ANSIReset, detail, views.Colorize("[bold]Enter a value:[reset] ", true))
	}
	fmt.Fprint(u.out, prompt)
	line, err := g.answers.readLine(ctx)
	switch {
	case ctx.Err() != nil:
		fmt.Fprintln(u.out)
		return false, u.errorf("error asking for approval: interrupted", "")
	case err != nil:
		// As OpenTofu: the end of input is no answer but an error, and
		// the prompt's line stays open.
		return false, u.errorf("error asking for approval: "+err.Error(), "")
	}
	fmt.Fprintln(u.out)
	return strings.TrimSpace(line) == "yes", nil
}

// applySavedPlan applies a plan file after checking it still fits the
// configuration and the state.
func applySavedPlan(ctx context.Context, g *globals, u *ui, f *planFlags, path string, destroy bool) error {
	p, err := loadSavedPlan(u, path)
	if err != nil {
		return err
	}
	if destroy {
		return u.errorf("Destroy can't be called with a plan file", "If this plan was created using plan -destroy, apply it using:\n  tenet apply %q", path)
	}
	if len(f.vars) > 0 {
		return u.errorf("Can't set variables when applying a saved plan", "The -var and -var-file options cannot be used when applying a saved plan file, because a saved plan includes the variable values that were set when it was created.")
	}
	// Module sources and the backend block are computed with the values
	// the plan was made with, as OpenTofu does.
	u.early.useValues(p.Variables)
	// The policies present now judge the plan (policygate.go); they load
	// while the configuration and state do.
	var policies *pendingPolicies
	if paths := policySources(f.policy); len(paths) > 0 {
		policies = loadPolicies(ctx, g, paths)
	}
	cfg, diags := u.loadConfigAndProviders(g)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	if p.ConfigDigest != "" && cfg.Digest != p.ConfigDigest {
		return u.errorf("Saved plan does not match the configuration", "The configuration has changed since the plan %s was made. Create a new plan with \"tenet plan -out=%s\" and apply that.", path, path)
	}
	g.intr.operation()
	mgr, _, release, err := f.state.openState(ctx, u, "apply")
	if err != nil {
		return err
	}
	defer g.intr.guardRelease(release)()
	lineage, serial, _ := mgr.Lineage()
	// A plan made from no state has no lineage to compare, only a serial.
	firstPlan := p.PriorLineage == "" && p.PriorSerial == 0
	switch {
	case !firstPlan && lineage != p.PriorLineage:
		return u.errorf("Saved plan does not match the given state", "The given plan file can not be applied because it was created from a different state lineage.")
	case serial != p.PriorSerial:
		return u.errorf("Saved plan is stale", "The given plan file can no longer be applied because the state was changed by another operation after the plan was created.")
	}
	if err := savedPlanPolicyGate(ctx, g, u, f, p, path, policies); err != nil {
		return err
	}
	return applyPlan(ctx, g, u, f, cfg, p, mgr, nil)
}

// applyPlan runs the apply, recording every operation durably.
// r is the rules engine the plan was made with, or nil to compile one.
func applyPlan(ctx context.Context, g *globals, u *ui, f *planFlags, cfg *config.Config, p *plan.Plan, mgr *local.Manager, r *rules.Engine) error {
	var diags hcl.Diagnostics
	if r == nil {
		r, diags = rulesEngine(ctx, f.rules)
		if diags.HasErrors() {
			return u.fail(diags)
		}
	}
	hooks := &hookAdapter{}
	if u.json != nil {
		hooks.p = u.json
	} else if !f.concise {
		hooks.p = human.NewHumanHooks(u.out, u.color)
	}
	eng := newEngine(g, r, hooks)
	journal, err := mgr.Journal()
	if err != nil {
		return u.errorf("Failed to prepare the state for writing", "%s", err)
	}
	// A second interrupt exits at once; this guard then folds the
	// journal into the state file so the state on disk is complete.
	backup := f.state.backup
	if f.state.remote != nil {
		backup = "-"
	}
	fold := g.intr.guard(func() {
		// With -state-out, the journal continues the state read from
		// -state until the first write to the -state-out file.
		readPath := ""
		if mgr.WritePending() {
			readPath = mgr.ReadPath()
		}
		foldJournal(mgr.Path(), readPath, backup, journal)
	})
	// The command's context (ctx) is the first interrupt: it stops the
	// scheduling of operations. The hard stop, the second, cancels the
	// provider calls in flight.
	g.log.logf(logInfo, "apply: %d changes, parallelism %d", len(p.Changes), f.parallelism)
	final, diags := eng.Apply(g.intr.hard, cfg, p, engine.ApplyOpts{Parallelism: f.parallelism, Stop: ctx}, journalRecorder{journal})
	g.phases.done("apply")
	var finishErr error
	g.intr.resolve(fold, func() { finishErr = journal.Finish(final) })
	if finishErr != nil {
		diags = append(diags, persistFailed(mgr, final, finishErr)...)
	}
	g.log.logf(logDebug, "apply: state written to %s", mgr.Path())
	g.phases.done("write state")
	if f.refreshCommand {
		// A refresh has no apply step of its own in OpenTofu, so no
		// warning about what a targeted apply may have left undone.
		diags = withoutSummary(diags, "Applied changes may be incomplete")
	}
	diags = haltedAsOpenTofu(diags, u.json != nil)
	u.diagnostics(append(u.planWarnings, withoutRepeatsOf(u.planWarnings, diags)...))
	u.planWarnings = nil
	summary := hooks.counts()
	if p.Mode == plan.DestroyMode {
		summary.Operation = views.OperationDestroy
	} else {
		summary.Operation = views.OperationApply
	}
	if diags.HasErrors() {
		return &exitError{1}
	}
	reportApplied(u, summary, final, f.refreshCommand, f.state.out)
	return nil
}

// reportApplied ends a successful apply's output as OpenTofu's does, in
// both views: the summary ("Apply complete! ...", which a refresh does not
// have), then the root outputs, which a destroy does not show. With
// -state-out (stateOut), an apply that added or changed something says
// where the state went, as OpenTofu's human view does.
func reportApplied(u *ui, summary views.ChangeSummary, final *state.State, refreshCommand bool, stateOut string) {
	if !refreshCommand {
		if u.json != nil {
			u.json.ChangeSummary(summary)
		} else {
			human.WriteApplySummary(u.out, summary, u.color)
			if stateOut != "" && (summary.Add > 0 || summary.Change > 0) {
				fmt.Fprintf(u.out, "\n%s\n\nState path: %s\n", views.WordWrap(stateOutSaved, 78), stateOut)
			}
		}
	}
	if summary.Operation == views.OperationDestroy {
		return
	}
	if u.json != nil {
		u.json.ApplyOutputs(outputValues(final))
	} else {
		writeOutputs(u, final)
	}
}

// stateOutSaved follows an apply's summary with -state-out.
const stateOutSaved = "The state of your infrastructure has been saved to the path below. This state is required to modify and destroy your infrastructure, so keep it safe. To inspect the complete state use the `tenet show` command."

// settleRecovered writes the state an apply with nothing to do read, when
// that state includes operations recovered from an interrupted apply's
// journal (the state file then holds them and the journal goes), or when
// it goes to -state-out, which gets the state even then.
func settleRecovered(u *ui, mgr *local.Manager, prev *state.State) error {
	if !mgr.Recovered() {
		if mgr.WritePending() {
			if err := mgr.Write(prev); err != nil {
				return u.errorf("Failed to save state", "Writing the state to %s failed: %s.", mgr.Path(), err)
			}
		}
		return nil
	}
	if err := mgr.Write(prev); err != nil {
		return u.errorf("Failed to save the recovered state", "The state read included operations recovered from an interrupted apply, and writing it failed: %s. The journal beside the state file still holds them; nothing is lost.", err)
	}
	return nil
}

// persistFailed writes errored.tfstate so nothing is lost. It carries the
// state's lineage and the next serial, so that "tenet state push
// errored.tfstate" puts it in place without -force.
func persistFailed(mgr *local.Manager, final *state.State, err error) hcl.Diagnostics {
	detail := fmt.Sprintf("Failed to save the state: %s.", err)
	if werr := writeErroredState(mgr, final); werr == nil {
		detail += "\n\nThe state was written to errored.tfstate in the working directory instead. Once the problem is fixed, move it into place with \"tenet state push errored.tfstate\"."
	} else {
		detail += fmt.Sprintf("\n\nWriting errored.tfstate failed too: %s.", werr)
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to save state", Detail: detail}}
}

func writeErroredState(from *local.Manager, s *state.State) error {
	lineage, serial, ok := from.Lineage()
	if !ok {
		lineage = statefile.NewLineage()
	}
	mgr := local.Open("errored.tfstate", local.Options{BackupPath: "-", TerraformVersion: Version})
	return mgr.WriteFile(&statefile.File{Lineage: lineage, Serial: serial + 1, State: s})
}

var _ = os.Stdout

// withoutCheckBlockDiags drops the diagnostics check blocks produced.
func withoutCheckBlockDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if c, ok := d.Extra.(interface{ DiagnosticFromCheckBlock() bool }); ok && c.DiagnosticFromCheckBlock() {
			continue
		}
		out = append(out, d)
	}
	return out
}

// loadSavedPlan reads the plan file apply was given, with OpenTofu's
// errors for a path that is missing, a directory or no plan.
func loadSavedPlan(u *ui, path string) (*plan.Plan, error) {
	summary := fmt.Sprintf("Failed to load %q as a plan file", path)
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, u.errorf(summary, "Error: %s", err)
	case info.IsDir():
		return nil, u.errorf(summary, "The specified path is a directory, not a plan file. You can use the global -chdir flag to use this directory as the configuration root.")
	}
	p, err := planfile.ReadFile(path)
	if err != nil {
		return nil, u.errorf(summary, "Error: %s", err)
	}
	return p, nil
}

// withoutRepeatsOf leaves out of the apply's diagnostics those the same as
// one of the plan's warnings (the apply evaluates the same expressions
// again): OpenTofu reports each once. Repeats among the apply's own stay
// (OpenTofu reports "execution halted" twice, for one).
func withoutRepeatsOf(planWarnings, diags hcl.Diagnostics) hcl.Diagnostics {
	if len(planWarnings) == 0 {
		return diags
	}
	type key struct {
		sev             hcl.DiagnosticSeverity
		summary, detail string
		subject         hcl.Range
	}
	keyOf := func(d *hcl.Diagnostic) key {
		k := key{sev: d.Severity, summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.subject = *d.Subject
		}
		return k
	}
	held := map[key]bool{}
	for _, d := range planWarnings {
		held[keyOf(d)] = true
	}
	var out hcl.Diagnostics
	for _, d := range diags {
		if !held[keyOf(d)] {
			out = append(out, d)
		}
	}
	return out
}
