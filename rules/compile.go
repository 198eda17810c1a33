package rules

import (
	"context"
	"errors"
	"fmt"
	"strings"

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

// defaultStages are the default rule packages, each compiled on its own:
// they never refer to one another. files is the prefix of their files'
// names in rules/policy.
var defaultStages = []struct {
	files string
	query string
	dest  func(e *Engine) **query
}{
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
