package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/policy"

	"github.com/tenetplan/tenet/engine/plan/planjson"
)

// policyExitCode is the exit status of a run stopped by compliance
// policies (a mandatory policy failed, or a policy could not be loaded,
// compiled or evaluated). 1 stays "error", 2 "changes present"
// (-detailed-exitcode).
const policyExitCode = 3

// defaultPolicyDir is read when it exists, before any -policy source.
var defaultPolicyDir = filepath.Join(".tenet", "policy")

// policySources lists .tenet/policy (when present) and the -policy paths,
// each once: the same directory given twice (-policy=.tenet/policy, as
// people do to be explicit) would report every policy twice.
func policySources(extra []string) []string {
	var paths []string
	if fi, err := os.Stat(defaultPolicyDir); err == nil && fi.IsDir() {
		paths = append(paths, defaultPolicyDir)
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range append(paths, extra...) {
		key := filepath.Clean(p)
		if abs, err := filepath.Abs(p); err == nil {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

// checkPolicies loads the policy sources and checks planJSON. Sources
// that do not load give a report of errors (fail closed), never no report.
func checkPolicies(ctx context.Context, g *globals, paths []string, planJSON []byte) (*policy.Report, hcl.Diagnostics) {
	return checkEncodedPlan(ctx, g, paths, func(*policy.Set) []byte { return planJSON })
}

// checkEncodedPlan loads the policy sources, then has encode give the
// plan JSON for the loaded set (which may read only part of it).
func checkEncodedPlan(ctx context.Context, g *globals, paths []string, encode func(*policy.Set) []byte) (*policy.Report, hcl.Diagnostics) {
	return loadPolicies(ctx, g, paths).check(ctx, encode)
}

// pendingPolicies is a policy set loading in the background: loading and
// compiling policies takes tens of milliseconds and needs only the files,
// so plan starts it with the rules and waits for it after planning.
type pendingPolicies struct {
	done  chan struct{}
	set   *policy.Set
	diags hcl.Diagnostics
}

// loadPolicies starts loading the policy sources.
func loadPolicies(ctx context.Context, g *globals, paths []string) *pendingPolicies {
	pp := &pendingPolicies{done: make(chan struct{})}
	go func() {
		defer close(pp.done)
		pp.set, pp.diags = policy.Load(ctx, policy.Options{Paths: paths, Env: g.deps.Env})
	}()
	return pp
}

// check waits for the set and checks the plan JSON encode gives for it.
// Sources that do not load give a report of errors (fail closed), never
// no report.
func (pp *pendingPolicies) check(ctx context.Context, encode func(*policy.Set) []byte) (*policy.Report, hcl.Diagnostics) {
	<-pp.done
	diags := pp.diags
	if diags.HasErrors() {
		return policy.ReportFromDiagnostics(diags), diags
	}
	rep, err := pp.set.Check(ctx, encode(pp.set))
	if err != nil {
		d := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot check the plan", Detail: err.Error() + "."}}
		return policy.ReportFromDiagnostics(d), append(diags, d...)
	}
	return rep, diags
}

// startPolicyGate starts the policy check of a plan just made, on its own
// goroutine so that it runs while the plan is rendered; the returned
// function waits for it, applies a -policy-override, stores the report in
// the plan and gives the report (nil when there are no policies or the
// plan errored: it cannot be applied anyway) with the diagnostics of
// loading the policies. Only the parts of the plan JSON the policies can
// read are encoded: the sections, and the members of each change. Until the wait, the plan must only be read.
func startPolicyGate(ctx context.Context, g *globals, f *planFlags, p *plan.Plan, planDiags hcl.Diagnostics, policies *pendingPolicies) func() (*policy.Report, hcl.Diagnostics) {
	if policies == nil || p.Errored || planDiags.HasErrors() {
		return func() (*policy.Report, hcl.Diagnostics) { return nil, nil }
	}
	type checked struct {
		rep   *policy.Report
		diags hcl.Diagnostics
	}
	done := make(chan checked, 1)
	go func() {
		rep, diags := policies.check(ctx, func(set *policy.Set) []byte {
			js, err := planjson.MarshalFiltered(p, schemaLookup{g.providerRegistry()}.types, set.ReadsInput, set)
			if err != nil {
				return []byte("null")
			}
			return js
		})
		done <- checked{rep, diags}
	}()
	return func() (*policy.Report, hcl.Diagnostics) {
		c := <-done
		if f.policyOverride != "" {
			c.rep.ApplyOverride(f.policyOverride, envValue(g.deps.Env, "USER"))
		}
		p.PolicyResults = nil
		if raw, err := json.Marshal(c.rep); err == nil {
			p.PolicyResults = raw
		}
		return c.rep, c.diags
	}
}

// savedPlanPolicyGate decides whether a saved plan may be applied as far
// as policies go. The plan is checked again against the policies present
// now (.tenet/policy and -policy): the report stored in the plan file
// says what the policies of plan time thought, and anyone who can write
// the file can rewrite it, so it never decides. It is read only to carry
// a plan-time override over to the same soft-mandatory policies, and to
// say when the verdict changed. policies is nil when there are none.
func savedPlanPolicyGate(ctx context.Context, g *globals, u *ui, f *planFlags, p *plan.Plan, path string, policies *pendingPolicies) error {
	stored := storedPolicyReport(u, p, path)
	p.PolicyResults = nil // policies judge the plan, not an earlier verdict
	if policies == nil {
		if stored != nil && stored.Blocked() {
			policyWarning(u, "No policies at apply", "The plan %s failed its policy check when it was made, but there are no policies now (no .tenet/policy directory and no -policy option). A saved plan is judged by the policies present when it is applied, so it is applied unchecked.", path)
		}
		return nil
	}
	rep, diags := policies.check(ctx, func(set *policy.Set) []byte {
		js, err := planjson.MarshalFiltered(p, schemaLookup{g.deps.Providers}.types, set.ReadsInput, set)
		if err != nil {
			return []byte("null")
		}
		return js
	})
	u.diagnostics(diags)
	switch {
	case f.policyOverride != "":
		rep.ApplyOverride(f.policyOverride, envValue(g.deps.Env, "USER"))
	case stored != nil && stored.Override != nil:
		rep.CarryOverride(stored.Override)
	}
	if raw, err := json.Marshal(rep); err == nil {
		p.PolicyResults = raw
	}
	showPolicyReport(u, rep)
	if !rep.Blocked() {
		if stored != nil && stored.Blocked() {
			policyWarning(u, "Policy verdict changed since the plan", "The plan %s failed its policy check when it was made; the policies present now pass it, and a saved plan is judged by the policies present when it is applied.", path)
		}
		return nil
	}
	changed := ""
	if stored == nil || !stored.Blocked() {
		changed = " The plan passed the policies of plan time (or was made without policies); the policies present now refuse it."
	}
	if rep.Overridable() {
		u.errorf("Policy check failed", "The saved plan %s fails soft-mandatory policies, so nothing was applied.%s To apply it anyway, give the reason: tenet apply -policy-override=\"REASON\" %s. The override and its reason are printed with the apply.", path, changed, path)
	} else {
		u.errorf("Policy check failed", "The saved plan %s fails mandatory policies, which cannot be overridden, so nothing was applied.%s Change the configuration and create a new plan, or change the policies.", path, changed)
	}
	return &exitError{policyExitCode}
}

// storedPolicyReport reads the report a saved plan holds, or nil. An
// unreadable one is only worth a warning: it decides nothing.
func storedPolicyReport(u *ui, p *plan.Plan, path string) *policy.Report {
	if len(p.PolicyResults) == 0 {
		return nil
	}
	rep, err := policy.DecodeReport(p.PolicyResults)
	if err != nil {
		policyWarning(u, "Unreadable policy results in the saved plan", "The plan %s holds policy results this tenet cannot read (%s). They are ignored: the plan is checked against the policies present now.", path, err)
		return nil
	}
	return rep
}

// refusePolicyBlocked ends a plan or apply whose policy check blocks.
func refusePolicyBlocked(u *ui, rep *policy.Report, applying bool) error {
	if rep == nil || !rep.Blocked() {
		return nil
	}
	if applying {
		detail := "Mandatory policies failed, so nothing was applied. Change the configuration, or the policies."
		if rep.Overridable() {
			detail = "Soft-mandatory policies failed, so nothing was applied. To apply anyway, run again with -policy-override=\"REASON\"; the reason is recorded."
		}
		u.errorf("Policy check failed", "%s", detail)
	}
	return &exitError{policyExitCode}
}

// showPolicyReport prints a report: the human block, or one
// "policy_check" message in the -json stream.
func showPolicyReport(u *ui, rep *policy.Report) {
	if rep == nil {
		return
	}
	if u.json == nil {
		policy.WriteHuman(u.out, rep, u.color)
		return
	}
	level, text := "info", "Policy check passed"
	switch {
	case rep.Blocked():
		level, text = "error", "Policy check failed"
	case rep.Override != nil:
		level, text = "warn", fmt.Sprintf("Policy check passed with an override: %s", rep.Override.Reason)
	case rep.Summary.Warnings > 0:
		level, text = "warn", "Policy check passed with warnings"
	}
	msg := map[string]any{
		"@level":     level,
		"@message":   fmt.Sprintf("%s: %d policies, %d failed, %d warnings", text, rep.Summary.Policies, rep.Summary.Failed+rep.Summary.Errors, rep.Summary.Warnings),
		"@module":    "tofu.ui",
		"@timestamp": time.Now().Format("2006-01-02T15:04:05.000000Z07:00"),
		"type":       "policy_check",
		"policy":     rep,
	}
	if line, err := json.Marshal(msg); err == nil {
		u.out.Write(append(line, '\n'))
	}
}

func contextOrBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// policyWarning prints a warning diagnostic about the policy gate.
func policyWarning(u *ui, summary, format string, args ...any) {
	u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(format, args...)}})
}
