package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/config/funcs"
	"github.com/tenetplan/tenet/config/testfile"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
	"github.com/tenetplan/tenet/state/statejson"

	"github.com/tenetplan/tenet/engine/plan/planjson"

	"github.com/tenetplan/tenet/cli/views/human"
)

// runReport is what one run block did, printed under its file.
type runReport struct {
	name    string
	status  string // pass, fail (an assertion failed), error (anything else failed), skip
	diags   hcl.Diagnostics
	verbose string
	// verboseJSON is, with -json -verbose, the plan (test_plan) or state
	// (test_state) document of the run, as verboseKind says.
	verboseJSON []byte
	verboseKind string
}

// failedOperation reports whether a run's plan or apply, judged against
// expect_failures (expectFailures), failed: an error, a failed operation or
// an expected failure that did not happen. The run then ends in error.
// Expected failures that did happen do not end the run: its assertions
// are still evaluated, as in OpenTofu.
func (rr *runReport) failedOperation(diags, missing hcl.Diagnostics, failed bool) bool {
	if failed || diags.HasErrors() || len(missing) > 0 {
		rr.diags = append(diags, missing...)
		return true
	}
	return false
}

// fileReport is what one test file did.
type fileReport struct {
	runs   []runReport
	diags  hcl.Diagnostics // the file's own, after its runs (cleanup)
	counts testCounts
	status string // the worst of its runs' statuses and of its cleanup
}

// testState is the state one configuration under test has reached: the
// main configuration's, or that of a module a run block names. Runs on
// the same configuration share it, so each starts where the last ended.
type testState struct {
	cfg     *config.Config
	st      *state.State
	vars    map[string]config.VariableValue // those of the last run, for the destroy
	doubles *testDoubles                    // likewise its mocks and overrides
}

// statusRank orders statuses as OpenTofu merges them: the worse wins.
var statusRank = map[string]int{"": 0, "skip": 1, "pass": 2, "fail": 3, "error": 4}

func worseStatus(a, b string) string {
	if statusRank[b] > statusRank[a] {
		return b
	}
	return a
}

// assertStatus is the status of a run whose plan or apply went through:
// a failed assertion fails it; an assertion that could not be evaluated
// is an error, as in OpenTofu.
func assertStatus(diags hcl.Diagnostics) string {
	status := "pass"
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Summary == "Test assertion failed" {
			status = worseStatus(status, "fail")
		} else {
			status = "error"
		}
	}
	return status
}

// fileRun runs one test file's run blocks in order.
type fileRun struct {
	g       *globals
	u       *ui
	f       *testFlags
	cfg     *config.Config
	cliVals map[string]config.VariableValue
	file    *testfile.File
	rules   *rules.Engine

	states map[string]*testState
	order  []string // state keys in the order they were first applied
	// runOutputs are the outputs of earlier apply runs (run.NAME), and
	// runKey the state each came from: a later apply on the same state
	// replaces them, as in OpenTofu.
	runOutputs map[string]cty.Value
	runKey     map[string]string
}

func (fr *fileRun) run(ctx context.Context) fileReport {
	rep := fileReport{status: "pass"}
	fr.states = map[string]*testState{}
	fr.runOutputs = map[string]cty.Value{}
	fr.runKey = map[string]string{}
	if len(fr.file.Providers) > 0 {
		// The file's provider blocks replace the configuration's: on a
		// copy of the configuration loaded for this file alone.
		cfg, diags := fr.u.loadInstalled()
		if diags.HasErrors() {
			rep.diags, rep.status = diags, "error"
			return rep
		}
		fr.cfg = withTestProviders(cfg, fr.file.Providers)
	}
	if refused := fr.unsupported(); len(refused) > 0 {
		rep.diags = refused
		rep.status = "error"
		for _, r := range fr.file.Runs {
			rep.runs = append(rep.runs, runReport{name: r.Name, status: "skip"})
			rep.counts.add("skip")
		}
		return rep
	}
	skipping := false
	for _, r := range fr.file.Runs {
		if skipping {
			rep.runs = append(rep.runs, runReport{name: r.Name, status: "skip"})
			rep.counts.add("skip")
			continue
		}
		rr := fr.runOne(ctx, r)
		rep.runs = append(rep.runs, rr)
		rep.counts.add(rr.status)
		rep.status = worseStatus(rep.status, rr.status)
		// After an error (not a failed assertion) the rest of the file is
		// skipped, as in OpenTofu.
		skipping = rep.status == "error"
	}
	if d := fr.cleanup(ctx); len(d) > 0 {
		rep.diags = append(rep.diags, d...)
		if d.HasErrors() {
			rep.status = "error"
		}
	}
	return rep
}

// unsupported refuses the constructs this runner does not carry out.
func (fr *fileRun) unsupported() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range fr.file.Runs {
		if r.Module != nil && !isLocalSource(r.Module.Source) {
			diags = append(diags, refuse(fmt.Sprintf("module source %q (only local paths are supported in run blocks)", r.Module.Source), r.Module.SourceRange))
		}
	}
	return append(diags, fr.unsupportedMocks()...)
}

func isLocalSource(s string) bool {
	return strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || s == "." || s == ".."
}

// runOne runs one run block.
func (fr *fileRun) runOne(ctx context.Context, r *testfile.Run) runReport {
	rr := runReport{name: r.Name, status: "error"}
	cfg, key, diags := fr.runConfig(r)
	if diags.HasErrors() {
		rr.diags = diags
		return rr
	}
	vals, d := fr.runVariables(cfg, key == "", r)
	diags = append(diags, d...)
	opts, d := runPlanOpts(r, vals)
	diags = append(diags, d...)
	if diags.HasErrors() {
		rr.diags = diags
		return rr
	}
	doubles, d := fr.doubles(cfg, r)
	diags = append(diags, d...)
	if diags.HasErrors() {
		rr.diags = diags
		return rr
	}
	ts := fr.states[key]
	if ts == nil {
		ts = &testState{cfg: cfg, st: state.NewState()}
	}
	eng := fr.engine(doubles)
	scope := &engine.Scope{UnknownOutputsAsNull: r.Command == "plan"}
	opts.Scope = scope
	p, d := eng.Plan(ctx, cfg, ts.st, opts)
	if r.Command == "apply" && (p == nil || d.HasErrors()) {
		// An apply run whose plan failed fails, even when the failure was
		// expected: there is nothing applied to check (as in OpenTofu).
		rr.diags = append(append(diags, expectedButStopped(r, scope)...), d...)
		return rr
	}
	_, missing, d := expectFailures(r, scope, d, r.Command == "plan")
	if r.Command == "apply" {
		// The apply evaluates the check blocks again: their warnings from
		// the plan would be duplicates, or stale (as OpenTofu drops them).
		d = withoutCheckWarnings(d)
	}
	diags = append(diags, d...)
	if rr.failedOperation(diags, missing, p == nil) {
		return rr
	}
	if fr.f.verbose && r.Command == "plan" {
		fr.verbosePlan(&rr, p)
	}
	if r.Command == "apply" {
		if fr.states[key] == nil {
			fr.states[key] = ts
			fr.order = append(fr.order, key)
		}
		ts.cfg, ts.vars, ts.doubles = cfg, vals, doubles
		scope = &engine.Scope{}
		final, d := eng.Apply(ctx, cfg, p, engine.ApplyOpts{Scope: scope}, discardRecorder{})
		if final != nil {
			ts.st = final
		}
		_, missing, d := expectFailures(r, scope, d, true)
		diags = append(diags, d...)
		if rr.failedOperation(diags, missing, false) {
			return rr
		}
		fr.recordOutputs(r.Name, key, ts.st)
		if fr.f.verbose {
			fr.verboseState(&rr, ts.st)
		}
	}
	diags = append(diags, checkAsserts(r, scope)...)
	rr.diags = diags
	rr.status = assertStatus(diags)
	return rr
}

func (fr *fileRun) engine(d *testDoubles) *engine.Engine {
	wd, _ := os.Getwd()
	return &engine.Engine{Providers: fr.providersFor(d), Rules: fr.rules, FS: os.DirFS("."), WorkingDir: wd, Hooks: &hookAdapter{}, Version: Version, Workspace: "default"}
}

// runConfig is the configuration a run tests and the key of its state.
func (fr *fileRun) runConfig(r *testfile.Run) (*config.Config, string, hcl.Diagnostics) {
	if r.Module == nil {
		if r.Providers == nil {
			return fr.cfg, "", nil
		}
		// The run maps providers its own way: on a fresh copy.
		cfg, diags := fr.u.loadInstalled()
		if diags.HasErrors() {
			return nil, "", diags
		}
		cfg = withTestProviders(cfg, fr.file.Providers)
		return cfg, "", append(diags, fr.runProviders(cfg, r)...)
	}
	dir := filepath.ToSlash(filepath.Clean(r.Module.Source))
	cfg, diags := config.Load(os.DirFS("."), dir)
	if cfg != nil {
		for name, f := range cfg.Files {
			fr.u.files[name] = f
		}
	}
	if diags.HasErrors() {
		return nil, "", diags
	}
	if cfg == nil || len(cfg.Files) == 0 {
		return nil, "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Module not found",
			Detail: fmt.Sprintf("The module source %q of run %q has no configuration files.", r.Module.Source, r.Name), Subject: r.Module.SourceRange.Ptr()}}
	}
	diags = append(diags, fr.g.resolveProviders(cfg)...)
	cfg = withTestProviders(cfg, fr.file.Providers)
	return cfg, dir, append(diags, fr.runProviders(cfg, r)...)
}

// runProviders applies a run's providers argument: each entry gives the
// configuration's provider (key) the test file's provider block named by
// the value.
func (fr *fileRun) runProviders(cfg *config.Config, r *testfile.Run) hcl.Diagnostics {
	if r.Providers == nil {
		return nil
	}
	pairs, diags := hcl.ExprMap(r.Providers)
	if diags.HasErrors() {
		return diags
	}
	byKey := map[string]*testfile.Provider{}
	for _, p := range fr.file.Providers {
		byKey[p.Key()] = p
	}
	if cfg.Root.ProviderConfigs == nil {
		cfg.Root.ProviderConfigs = map[string]*config.Provider{}
	}
	for _, kv := range pairs {
		to, d1 := hcl.AbsTraversalForExpr(kv.Key)
		from, d2 := hcl.AbsTraversalForExpr(kv.Value)
		if d1.HasErrors() || d2.HasErrors() || len(to) > 2 || len(from) > 2 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid providers entry",
				Detail: "Each entry of providers maps a provider of the configuration to one of the test file, such as aws = aws.test.", Subject: kv.Key.Range().Ptr()})
			continue
		}
		tp := byKey[addrs.TraversalString(from)]
		if tp == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provider not declared in the test file",
				Detail: fmt.Sprintf("The test file has no provider block %q for run %q to use. Declare it with a provider block in the test file.", addrs.TraversalString(from), r.Name), Subject: kv.Value.Range().Ptr()})
			continue
		}
		name, alias := to.RootName(), ""
		if len(to) == 2 {
			if a, ok := to[1].(hcl.TraverseAttr); ok {
				alias = a.Name
			}
		}
		p := &config.Provider{Name: name, Alias: alias, Config: tp.Config, NameRange: tp.DeclRange, DeclRange: tp.DeclRange}
		cfg.Root.ProviderConfigs[p.Key()] = p
	}
	return diags
}

// withTestProviders puts a test file's provider blocks in place of the
// root module's. cfg must be a configuration loaded for this file only.
func withTestProviders(cfg *config.Config, ps []*testfile.Provider) *config.Config {
	if len(ps) == 0 {
		return cfg
	}
	if cfg.Root.ProviderConfigs == nil {
		cfg.Root.ProviderConfigs = map[string]*config.Provider{}
	}
	for _, p := range ps {
		cfg.Root.ProviderConfigs[p.Key()] = &config.Provider{Name: p.Name, Alias: p.Alias, Config: p.Config, NameRange: p.DeclRange, DeclRange: p.DeclRange}
	}
	return cfg
}

// runVariables gathers the values of the run's root variables: those of
// the command line and tfvars files, overridden by the file's variables
// block, overridden by the run's own.
func (fr *fileRun) runVariables(cfg *config.Config, main bool, r *testfile.Run) (map[string]config.VariableValue, hcl.Diagnostics) {
	vals := map[string]config.VariableValue{}
	if main {
		for k, v := range fr.cliVals {
			vals[k] = v
		}
	}
	var diags hcl.Diagnostics
	fnTable := funcs.Table(funcs.Options{FS: os.DirFS("."), Pure: false})
	runObj := cty.EmptyObjectVal
	if len(fr.runOutputs) > 0 {
		runObj = cty.ObjectVal(fr.runOutputs)
	}
	// As in OpenTofu, var.* in these blocks is what the command line,
	// tfvars files and the environment give, else the default: never the
	// test file's own values.
	varsMap := map[string]cty.Value{}
	for k, v := range fr.cliVals {
		varsMap[k] = v.Value
	}
	for k, v := range cfg.Root.Variables {
		if _, set := varsMap[k]; !set && v.Default != cty.NilVal {
			varsMap[k] = v.Default
		}
	}
	varsObj := cty.ObjectVal(varsMap)
	evalAttrs := func(attrs hcl.Attributes) map[string]config.VariableValue {
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"run": runObj, "var": varsObj}, Functions: fnTable}
		out := map[string]config.VariableValue{}
		for name, a := range attrs {
			v, d := a.Expr.Value(ctx)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			out[name] = config.VariableValue{Value: v, Expr: a.Expr, SourceType: config.ValueFromFile, SourceRange: a.Expr.Range()}
		}
		return out
	}
	for k, v := range evalAttrs(fr.file.Variables) {
		vals[k] = v
	}
	for k, v := range evalAttrs(r.Variables) {
		vals[k] = v
	}
	// Only the variables the configuration declares go to it: a file's
	// variables serve every run, and each run may test another module.
	for k := range vals {
		if _, ok := cfg.Root.Variables[k]; !ok {
			delete(vals, k)
		}
	}
	return vals, diags
}

// runPlanOpts turns the run's command and plan_options into plan options.
func runPlanOpts(r *testfile.Run, vals map[string]config.VariableValue) (engine.PlanOpts, hcl.Diagnostics) {
	opts := engine.PlanOpts{Variables: vals}
	po := r.PlanOptions
	if po == nil {
		return opts, nil
	}
	var diags hcl.Diagnostics
	opts.SkipRefresh = !po.Refresh
	if po.Mode == "refresh-only" {
		opts.Mode = plan.RefreshOnlyMode
		if !po.Refresh {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incompatible plan options",
				Detail: "The \"refresh\" option cannot be false when \"mode\" is refresh-only: there would be nothing to do.", Subject: po.DeclRange.Ptr()})
		}
	}
	for _, t := range po.Replace {
		a, d := addrs.ParseAbsResourceInstance(t)
		if d.HasErrors() || a.Resource.Resource.Mode != addrs.ManagedResourceMode {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid replace address",
				Detail: "Each element of replace must be the address of a managed resource instance.", Subject: t.SourceRange().Ptr()})
			continue
		}
		opts.ForceReplace = append(opts.ForceReplace, a)
	}
	for _, t := range po.Target {
		tg, d := addrs.ParseTarget(t)
		if d.HasErrors() {
			diags = append(diags, d...)
			continue
		}
		opts.Targets = append(opts.Targets, tg.Subject)
	}
	return opts, diags
}

// conditionSummaries are the errors each kind of checkable block reports
// when its condition fails; an expected failure removes them.
var conditionSummaries = map[string][]string{
	"var":      {"Invalid value for variable"},
	"output":   {"Module output value precondition failed"},
	"check":    {"Check block assertion failed"},
	"resource": {"Resource precondition failed", "Resource postcondition failed"},
}

// expectFailures matches the run's expect_failures with the checks the
// plan saw. It returns the expected checkables that did fail, a
// "Missing expected failure" error for each that did not, and diags
// without the errors the expected failures caused, where the warnings of
// unexpected failed checks are errors.
func expectFailures(r *testfile.Run, scope *engine.Scope, diags hcl.Diagnostics, final bool) ([]string, hcl.Diagnostics, hcl.Diagnostics) {
	if !final {
		return nil, nil, diags
	}
	statuses := scope.CheckStatuses()
	var failed []string
	var missing hcl.Diagnostics
	drop := map[string]bool{}
	for _, t := range r.ExpectFailures {
		name := addrs.TraversalString(t)
		if st := statuses[name]; st == "fail" || st == "error" {
			failed = append(failed, name)
			for _, s := range conditionSummaries[checkableKind(name)] {
				drop[s] = true
			}
			continue
		}
		missing = append(missing, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing expected failure",
			Detail:  fmt.Sprintf("The checkable object, %s, was expected to report an error but did not.", name),
			Subject: t.SourceRange().Ptr()})
	}
	var kept hcl.Diagnostics
	for _, d := range diags {
		if drop[d.Summary] {
			continue
		}
		if d.Severity == hcl.DiagWarning && d.Summary == "Check block assertion failed" {
			// A check that fails unexpectedly fails the test: its warning
			// becomes an error, as in OpenTofu.
			e := *d
			e.Severity = hcl.DiagError
			d = &e
		}
		kept = append(kept, d)
	}
	return failed, missing, kept
}

// checkWarnings are the summaries of the warnings check blocks' assertions
// give (the engine's eval package words them).
var checkWarnings = map[string]bool{"Check block assertion failed": true, "Check block assertion known after apply": true}

// withoutCheckWarnings drops the warnings of check blocks' assertions.
func withoutCheckWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	var kept hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && checkWarnings[d.Summary] {
			continue
		}
		kept = append(kept, d)
	}
	return kept
}

// expectedButStopped warns, for an apply run whose plan failed, about
// each expected failure that happened: it stopped the apply, so the run
// fails all the same.
func expectedButStopped(r *testfile.Run, scope *engine.Scope) hcl.Diagnostics {
	statuses := scope.CheckStatuses()
	var diags hcl.Diagnostics
	for _, t := range r.ExpectFailures {
		name := addrs.TraversalString(t)
		if st := statuses[name]; st == "fail" || st == "error" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Expected failure stopped the apply",
				Detail:  fmt.Sprintf("%s failed as expected, but during the plan, so the apply stage could not run and the run fails. Use command = plan for a run that expects a failure while planning.", name),
				Subject: t.SourceRange().Ptr()})
		}
	}
	return diags
}

// checkableKind is the kind of checkable block an address names.
func checkableKind(addr string) string {
	for strings.HasPrefix(addr, "module.") {
		parts := strings.SplitN(addr, ".", 3)
		if len(parts) < 3 {
			return ""
		}
		addr = parts[2]
	}
	switch {
	case strings.HasPrefix(addr, "var."):
		return "var"
	case strings.HasPrefix(addr, "output."):
		return "output"
	case strings.HasPrefix(addr, "check."):
		return "check"
	}
	return "resource"
}

// checkAsserts evaluates the run's assertions in the scope of its plan
// or apply.
func checkAsserts(r *testfile.Run, scope *engine.Scope) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range r.Asserts {
		if a.Condition == nil || a.ErrorMessage == nil {
			continue
		}
		v, ctx, d := scope.Eval(a.Condition, nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		v, _ = v.UnmarkDeep()
		// Worded and ordered as OpenTofu's assertions.
		if v.IsNull() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid condition run",
				Detail: "Condition expression must return either true or false, not null.", Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: ctx})
			continue
		}
		if !v.IsKnown() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown condition run",
				Detail: "Condition expression could not be evaluated at this time.", Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: ctx})
			continue
		}
		bv, err := convert.Convert(v, cty.Bool)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid condition run",
				Detail: fmt.Sprintf("Invalid condition run value: %s.", err), Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: ctx})
			continue
		}
		if bv.True() {
			continue
		}
		msg := "(the error message could not be evaluated)"
		if mv, _, md := scope.Eval(a.ErrorMessage, nil); !md.HasErrors() {
			mv, _ = mv.UnmarkDeep()
			if sv, err := convert.Convert(mv, cty.String); err == nil && sv.IsKnown() && !sv.IsNull() {
				msg = sv.AsString()
			}
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Test assertion failed", Detail: msg,
			Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: ctx})
	}
	return diags
}

// recordOutputs keeps the root outputs of an apply run as run.NAME for
// later runs' variables.
func (fr *fileRun) recordOutputs(name, key string, st *state.State) {
	for other, k := range fr.runKey {
		if k == key {
			delete(fr.runOutputs, other)
			delete(fr.runKey, other)
		}
	}
	outs := map[string]cty.Value{}
	for oname, o := range st.Outputs {
		v := o.Value
		if o.Sensitive {
			v = v.Mark(funcs.SensitiveMark)
		}
		outs[oname] = v
	}
	fr.runOutputs[name] = cty.ObjectVal(outs)
	fr.runKey[name] = key
}

// verbosePlan keeps a plan run's plan for -verbose: drawn for people, or
// as the JSON stream's test_plan (the plan document without its prior
// state, as OpenTofu writes it, and without tenet's own section).
func (fr *fileRun) verbosePlan(rr *runReport, p *plan.Plan) {
	if fr.u.json == nil {
		rr.verbose = fr.renderPlan(p)
		return
	}
	js, err := planjson.MarshalSections(p, schemaLookup{fr.providers()}.types, func(key string) bool { return key != "prior_state" && key != "tenet" })
	if err == nil {
		rr.verboseJSON, rr.verboseKind = js, "test_plan"
	}
}

// verboseState keeps an apply run's state for -verbose, likewise.
func (fr *fileRun) verboseState(rr *runReport, st *state.State) {
	if fr.u.json == nil {
		rr.verbose = fr.renderState(st)
		return
	}
	js, err := statejson.Marshal(st, Version, schemaLookup{fr.providers()}.types)
	if err == nil {
		rr.verboseJSON, rr.verboseKind = js, "test_state"
	}
}

func (fr *fileRun) renderPlan(p *plan.Plan) string {
	js, err := planjson.MarshalView(p)
	if err != nil {
		return ""
	}
	var b bytes.Buffer
	_ = human.RenderPlan(&b, js, schemaLookup{fr.providers()}, human.RenderOptions{Color: fr.u.color, Mode: viewMode(p.Mode), NotApplyable: !p.CanApply()})
	return b.String()
}

// renderState is an apply run's state for -verbose: OpenTofu prints it
// as `show` does, resources then outputs.
func (fr *fileRun) renderState(st *state.State) string {
	var b bytes.Buffer
	u := *fr.u
	u.out = &b
	if err := showStateHuman(&u, fr.g, &statefile.File{State: st}); err != nil {
		return ""
	}
	return b.String()
}

// cleanup destroys what the file's runs created, the last state first.
func (fr *fileRun) cleanup(ctx context.Context) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i := len(fr.order) - 1; i >= 0; i-- {
		ts := fr.states[fr.order[i]]
		if len(ts.st.AllResourceInstances()) == 0 {
			continue
		}
		eng := fr.engine(ts.doubles)
		p, d := eng.Plan(ctx, ts.cfg, ts.st, engine.PlanOpts{Mode: plan.DestroyMode, Variables: ts.vars})
		if p != nil && !d.HasErrors() {
			var final *state.State
			final, d = eng.Apply(ctx, ts.cfg, p, engine.ApplyOpts{}, discardRecorder{})
			if final != nil {
				ts.st = final
			}
		}
		diags = append(diags, d...)
		if left := ts.st.AllResourceInstances(); len(left) > 0 {
			var names []string
			for _, ref := range left {
				names = append(names, "  - "+ref.Addr.String())
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to clean up after tests",
				Detail: fmt.Sprintf("tenet could not destroy everything the tests of %s created. These objects are left and must be removed by hand:\n%s", fr.file.Name, strings.Join(names, "\n"))})
		}
	}
	return diags
}

// discardRecorder keeps test state in memory only: tests never write a
// state file.
type discardRecorder struct{}

func (discardRecorder) RecordObject(addrs.AbsResourceInstance, state.DeposedKey, *state.ObjectSrc, addrs.AbsProviderConfig) error {
	return nil
}
