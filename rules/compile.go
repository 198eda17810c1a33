package rules

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/tenetplan/tenet/internal/regokit"
)

// query is a prepared query that may still be compiling. Compiling the
// default rules takes as long as planning a thousand instances, so a run
// starts planning while they compile and waits only where it first
// evaluates a stage.
type query struct {
	ready chan struct{}
	q     rego.PreparedEvalQuery
	err   error
	// start, if set, begins compiling on the first get: a stage most runs
	// never evaluate is not compiled in every run.
	start     func()
	startOnce sync.Once
}

// get waits until the query is compiled.
func (q *query) get(ctx context.Context) (rego.PreparedEvalQuery, error) {
	if q.start != nil {
		q.startOnce.Do(q.start)
	}
	select {
	case <-q.ready:
		return q.q, q.err
	default:
	}
	select {
	case <-q.ready:
		return q.q, q.err
	case <-ctx.Done():
		return rego.PreparedEvalQuery{}, ctx.Err()
	}
}

type defaultStage struct {
	files string
	query string
	dest  func(e *Engine) **query
	// onDemand stages compile when first evaluated rather than at start.
	onDemand bool
}

// defaultStages are the default rule packages, each compiled on its own:
// they never refer to one another. files is the prefix of their files'
// names in rules/planning. Only decide and cbd are evaluated in every plan;
// moves only with moved blocks or implied count/for_each moves (and it is
// costly to compile), prepare only with ignore_changes, triggers only with
// replace_triggered_by: those compile on demand.
var defaultStages = []defaultStage{
	{"decide", decideQuery, func(e *Engine) **query { return &e.decide }, false},
	{"cbd", "data.tenet.cbd.forced", func(e *Engine) **query { return &e.cbd }, false},
	{"prepare", "data.tenet.prepare.result", func(e *Engine) **query { return &e.prepareQ }, true},
	{"triggers", "data.tenet.triggers.result", func(e *Engine) **query { return &e.triggersQ }, true},
	{"moves", "data.tenet.moves.result", func(e *Engine) **query { return &e.moves }, true},
}

// compileDefaultsInBackground starts one goroutine per default stage, or
// for an on-demand stage arranges for its first evaluation to start it.
func (e *Engine) compileDefaultsInBackground(ctx context.Context) {
	for _, st := range defaultStages {
		q := &query{ready: make(chan struct{})}
		*st.dest(e) = q
		isDecide := st.files == "decide"
		compile := func() {
			defer close(q.ready)
			c, err := compileDefaultFiles(st.files)
			if err == nil {
				e.indexProvenance(c, nil)
				if isDecide {
					e.memo.enabled = decideMemoSafe(c, regokit.NewReads(c))
					e.memo.keyKindOnly = keyReadByKindOnly(c)
				}
				q.q, err = prepareQuery(ctx, c, st.query)
			}
			if err != nil {
				q.err = fmt.Errorf("compiling the default %s rules: %w", st.files, err)
			}
		}
		if st.onDemand {
			q.start = func() { go compile() }
			continue
		}
		go compile()
	}
}

// compileDefaultFiles parses and compiles the default rule files whose
// names start with prefix.
func compileDefaultFiles(prefix string) (*ast.Compiler, error) {
	defaults, diags := parseDefaultFiles(func(name string) bool { return strings.HasPrefix(name, prefix) })
	if diags.HasErrors() {
		return nil, errors.New(diags.Error())
	}
	if len(defaults) == 0 {
		return nil, fmt.Errorf("no rule files named %s*.rego", prefix)
	}
	modules := make(map[string]*ast.Module, len(defaults))
	for _, m := range defaults {
		modules[m.Package.Location.File] = m
	}
	c := newCompiler().WithSkipStages(defaultsSkippedChecks...)
	c.Compile(modules)
	if c.Failed() {
		return nil, c.Errors
	}
	return c, nil
}

// defaultsSkippedChecks are the compiler's checks the embedded default
// rules skip: type checking and the recursion check are a large part of
// compiling the decision table, the largest fixed cost of a small plan, and
// only report errors (evaluation does not use the types of rules that no
// `with` replaces, and the default rules have none). The default rules are
// fixed at build time and TestDefaultRulesPassSkippedChecks compiles them
// with every check; team rules, and the default rules compiled with them,
// get every check.
var defaultsSkippedChecks = []ast.StageID{ast.StageCheckTypes, ast.StageCheckRecursion}

// Eval waits for the query and evaluates it.
func (q *query) Eval(ctx context.Context, opts ...rego.EvalOption) (rego.ResultSet, error) {
	pq, err := q.get(ctx)
	if err != nil {
		return nil, err
	}
	return pq.Eval(ctx, opts...)
}

// Wait blocks until every stage has compiled and reports the first
// failure. Evaluating methods wait by themselves; Wait is for callers that
// want compilation problems before anything else.
func (e *Engine) Wait(ctx context.Context) error {
	for _, q := range []*query{e.decide, e.cbd, e.prepareQ, e.triggersQ, e.moves, e.computedMovesQ} {
		if q == nil {
			continue
		}
		if _, err := q.get(ctx); err != nil {
			return err
		}
	}
	return nil
}

// tenetRef and decideRef are built once: parsing a ref per visited ref
// would cost milliseconds per run.
var (
	tenetRef  = regokit.Ref(ast.DefaultRootDocument, "tenet")
	decideRef = regokit.Ref(ast.DefaultRootDocument, "tenet", "decide")
)

// stagePackage is the package of a default stage ("" for none).
func stagePackage(stage string) string {
	if stage == "" {
		return ""
	}
	return "data.tenet." + stage
}

// stageModules splits the modules into one set per default stage, so the
// stages compile in parallel: each gets its default files, the team files
// of its package, and every team file of another package (helpers any of
// them may use). ok is false when a team file of a stage package refers to
// another stage's package; then everything must compile together.
func stageModules(defaults, team []*ast.Module) (map[string]map[string]*ast.Module, bool) {
	stages := map[string]map[string]*ast.Module{}
	stageByPkg := map[string]string{}
	for _, st := range defaultStages {
		stages[st.files] = map[string]*ast.Module{}
		stageByPkg[stagePackage(st.files)] = st.files
	}
	for _, m := range defaults {
		name := strings.TrimSuffix(path.Base(m.Package.Location.File), ".rego")
		placed := false
		for _, st := range defaultStages {
			if strings.HasPrefix(name, st.files) {
				stages[st.files][m.Package.Location.File] = m
				placed = true
			}
		}
		if !placed {
			return nil, false
		}
	}
	var shared []*ast.Module
	for _, m := range team {
		pkg := m.Package.Path.String()
		st, isStage := stageByPkg[pkg]
		if !isStage {
			shared = append(shared, m)
			continue
		}
		for _, ref := range regokit.ScanReads(m).Refs {
			if ref.HasPrefix(tenetRef) && len(ref) > 2 {
				if other, ok := stageByPkg[ref[:3].String()]; ok && other != st {
					return nil, false
				}
			}
		}
		stages[st][m.Package.Location.File] = m
	}
	for _, mods := range stages {
		for _, m := range shared {
			mods[m.Package.Location.File] = m
		}
	}
	return stages, true
}

// stageQueries are the queries of each stage with team rules loaded.
var stageQueries = []struct {
	stage string
	path  string
	dest  func(e *Engine) **query
}{
	{"decide", decideQuery, func(e *Engine) **query { return &e.decide }},
	{"decide", teamDecideQuery, func(e *Engine) **query { return &e.teamDecide }},
	{"decide", decideWithTeamQuery, func(e *Engine) **query { return &e.decideWithTeam }},
	{"cbd", "data.tenet.cbd.forced", func(e *Engine) **query { return &e.cbd }},
	{"prepare", "data.tenet.prepare.result", func(e *Engine) **query { return &e.prepareQ }},
	{"triggers", "data.tenet.triggers.result", func(e *Engine) **query { return &e.triggersQ }},
	{"moves", "data.tenet.moves.result", func(e *Engine) **query { return &e.moves }},
	{"moves", "data.tenet.moves.computed", func(e *Engine) **query { return &e.computedMovesQ }},
}

// compileStagesInBackground compiles each set of modules on its own
// goroutine ("" holds every stage) and prepares its queries, which wait
// for it. Whatever a stage's compilation decides (provenance, the memo's
// switches, guards) is set before its queries are ready.
func (e *Engine) compileStagesInBackground(ctx context.Context, stages map[string]map[string]*ast.Module, team []*teamRule, teamFiles map[string]bool) {
	e.compiling.errs = make([]ast.Errors, 0, len(stages))
	for name, mods := range stages {
		type pending struct {
			q    *query
			path string
			skip func() bool
		}
		var qs []pending
		for _, sq := range stageQueries {
			if name != "" && sq.stage != name {
				continue
			}
			q := &query{ready: make(chan struct{})}
			*sq.dest(e) = q
			p := pending{q: q, path: sq.path}
			switch sq.path {
			case "data.tenet.moves.computed":
				p.skip = func() bool { return !e.hasTeamMoves }
			case teamDecideQuery, decideWithTeamQuery:
				p.skip = func() bool { return !e.memo.team }
			}
			qs = append(qs, p)
		}
		e.compiling.wg.Go(func() {
			c := newTeamCompiler()
			c.Compile(mods)
			var err error
			if c.Failed() {
				e.compiling.mu.Lock()
				e.compiling.errs = append(e.compiling.errs, c.Errors)
				e.compiling.mu.Unlock()
				err = errors.New("the rules did not compile")
			} else {
				e.indexProvenance(c, teamRulesIn(team, stagePackage(name)))
				reads := regokit.NewReads(c)
				if name == "decide" || name == "" {
					e.guards.decide = analyzeGuards(c, reads, "data.tenet.decide", teamFiles)
					e.memo.enabled = decideMemoSafe(c, reads)
					e.memo.keyKindOnly = keyReadByKindOnly(c)
				}
				if name == "prepare" || name == "" {
					e.guards.prepare = analyzeGuards(c, reads, "data.tenet.prepare", teamFiles)
				}
			}
			for _, p := range qs {
				switch {
				case err != nil:
					p.q.err = err
				case p.skip != nil && p.skip():
				default:
					if p.q.q, p.q.err = prepareQuery(ctx, c, p.path, boundedFunctions(int64(e.limits.memory/4))...); p.q.err != nil {
						e.compiling.mu.Lock()
						e.compiling.prepareErrs = append(e.compiling.prepareErrs, p.q.err)
						e.compiling.mu.Unlock()
					}
				}
				close(p.q.ready)
			}
		})
	}
}

// Diagnostics waits until every stage has compiled and reports what
// failed: compile errors with their file and line (an error in a team file
// several stages share is reported once).
func (e *Engine) Diagnostics(ctx context.Context) hcl.Diagnostics {
	done := make(chan struct{})
	go func() {
		e.compiling.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return hcl.Diagnostics{internalDiag(ctx.Err())}
	}
	e.compiling.mu.Lock()
	defer e.compiling.mu.Unlock()
	var errs ast.Errors
	seen := map[string]bool{}
	for _, stageErrs := range e.compiling.errs {
		for _, err := range stageErrs {
			if key := err.Error(); !seen[key] {
				seen[key] = true
				errs = append(errs, err)
			}
		}
	}
	var diags hcl.Diagnostics
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errorBefore(errs[i], errs[j]) })
		diags = astErrorDiags("Invalid rule", errs)
	}
	for _, err := range e.compiling.prepareErrs {
		diags = append(diags, internalDiag(err))
	}
	return diags
}

// teamRulesIn are the team rules of a package ("" for all).
func teamRulesIn(team []*teamRule, pkg string) []*teamRule {
	if pkg == "" {
		return team
	}
	var out []*teamRule
	for _, t := range team {
		if t.pkg == pkg {
			out = append(out, t)
		}
	}
	return out
}

// errorBefore orders compile errors by file, line and column.
func errorBefore(a, b *ast.Error) bool {
	la, lb := a.Location, b.Location
	switch {
	case la == nil || lb == nil:
		return la != nil && lb == nil
	case la.File != lb.File:
		return la.File < lb.File
	case la.Row != lb.Row:
		return la.Row < lb.Row
	}
	return la.Col < lb.Col
}

// planningSandbox refuses every kind of built-in regokit lists: two plans
// of the same inputs must agree, so planning rules may not reach the
// network, the environment or the clock, nor draw on chance. print is
// allowed: rules are compiled without print statements, so it does
// nothing.
var planningSandbox = regokit.Sandbox{
	Refuse: map[regokit.Kind]bool{
		regokit.Network: true, regokit.Environment: true, regokit.Clock: true, regokit.Unrepeatable: true,
	},
	Summary: "Forbidden built-in function in rule",
	Detail: func(name string, r regokit.Refusal) string {
		return fmt.Sprintf("%s %s. Planning rules must be deterministic and sandboxed: remove the call.", name, r.Why)
	},
}

// sandboxCapabilities are built once: compilers only read them.
var sandboxCapabilities = sync.OnceValue(planningSandbox.Capabilities)

// checkSandbox reports every call of a forbidden built-in in m.
func checkSandbox(m *ast.Module) hcl.Diagnostics { return planningSandbox.Check(m) }

// forbiddenReason says why a built-in is refused, if it is.
func forbiddenReason(name string) (string, bool) {
	r, bad := planningSandbox.Refuses(name)
	return r.Why, bad
}

// astErrorDiags is regokit.ErrorDiags for the rules: team files call the
// bounded built-ins under their own names, and an error OPA does not
// locate is tenet's.
func astErrorDiags(summary string, err error) hcl.Diagnostics {
	errs, ok := err.(ast.Errors)
	if !ok {
		return hcl.Diagnostics{internalDiag(err)}
	}
	named := make(ast.Errors, len(errs))
	for i, e := range errs {
		c := *e
		c.Message = strings.ReplaceAll(e.Message, boundedPrefix, "")
		named[i] = &c
	}
	return regokit.ErrorDiags(summary, named)
}

// locatedDiag names regokit's for the checks of team files (engine.go).
var locatedDiag = regokit.LocatedDiag

func internalDiag(err error) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Cannot prepare planning rules",
		Detail:   fmt.Sprintf("Preparing the planning rules failed: %s. This is a bug in tenet; please report it.", err),
	}
}
