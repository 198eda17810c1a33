package rules

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// query is a prepared query that may still be compiling. Compiling the
// default rules takes ~20 ms, as long as planning a thousand instances, so a
// run starts planning while they compile and waits only where it first
// evaluates a stage.
type query struct {
	ready chan struct{}
	q     rego.PreparedEvalQuery
	err   error
}

func readyQuery(q rego.PreparedEvalQuery) *query {
	r := &query{ready: make(chan struct{}), q: q}
	close(r.ready)
	return r
}

// get waits until the query is compiled.
func (q *query) get(ctx context.Context) (rego.PreparedEvalQuery, error) {
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
}

// defaultStages are the default rule packages, each compiled on its own:
// they never refer to one another. files is the prefix of their files'
// names in rules/policy.
var defaultStages = []defaultStage{
	{"decide", "data.tenet.decide.result", func(e *Engine) **query { return &e.decide }},
	{"cbd", "data.tenet.cbd.forced", func(e *Engine) **query { return &e.cbd }},
	{"prepare", "data.tenet.prepare.result", func(e *Engine) **query { return &e.prepareQ }},
	{"triggers", "data.tenet.triggers.result", func(e *Engine) **query { return &e.triggersQ }},
	{"moves", "data.tenet.moves.result", func(e *Engine) **query { return &e.moves }},
}

// compileDefaultsInBackground starts one goroutine per default stage.
func (e *Engine) compileDefaultsInBackground(ctx context.Context) {
	for _, st := range defaultStages {
		q := &query{ready: make(chan struct{})}
		*st.dest(e) = q
		isDecide := st.files == "decide"
		go func() {
			defer close(q.ready)
			c, err := compileDefaultFiles(st.files)
			if err == nil {
				e.indexProvenance(c, nil)
				if isDecide {
					e.memo.enabled = decideMemoSafe(c)
					e.memo.keyKindOnly = keyReadByKindOnly(c)
				}
				q.q, err = prepareQuery(ctx, c, st.query)
			}
			if err != nil {
				q.err = fmt.Errorf("compiling the default %s rules: %w", st.files, err)
			}
		}()
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
	c := newCompiler()
	c.Compile(modules)
	if c.Failed() {
		return nil, c.Errors
	}
	return c, nil
}

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

// tenetRef and decideRef are parsed once: parsing a ref per visited ref
// cost milliseconds per run.
var (
	tenetRef  = ast.MustParseRef("data.tenet")
	decideRef = ast.MustParseRef("data.tenet.decide")
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
		crosses := false
		ast.WalkRefs(m, func(ref ast.Ref) bool {
			if ref.HasPrefix(tenetRef) && len(ref) > 2 {
				if other, ok := stageByPkg[ref[:3].String()]; ok && other != st {
					crosses = true
				}
			}
			return crosses
		})
		if crosses {
			return nil, false
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

// compileStages compiles each set of modules on its own goroutine and
// returns the compilers by name, or the errors of all of them (an error in
// a shared team file is reported once).
func compileStages(stages map[string]map[string]*ast.Module) (map[string]*ast.Compiler, hcl.Diagnostics) {
	type compiled struct {
		name string
		c    *ast.Compiler
	}
	results := make(chan compiled, len(stages))
	for name, mods := range stages {
		go func() {
			c := newCompiler()
			c.Compile(mods)
			results <- compiled{name, c}
		}()
	}
	out := map[string]*ast.Compiler{}
	var errs ast.Errors
	seen := map[string]bool{}
	for range stages {
		r := <-results
		out[r.name] = r.c
		for _, err := range r.c.Errors {
			if key := err.Error(); !seen[key] {
				seen[key] = true
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errorBefore(errs[i], errs[j]) })
		return nil, astErrorDiags("Invalid rule", errs)
	}
	return out, nil
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
