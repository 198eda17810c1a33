package rules

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Team rules fail closed: a team rule that errors, emits an element of the
// wrong shape, runs too long or takes too much memory stops the plan with
// a RuleError naming the rule's file and line. A rule that cannot be
// evaluated says nothing about what it protects, so letting the plan go on
// without it would destroy what it was written to keep.

// RuleError is a team rule that failed while a plan was evaluated.
type RuleError struct {
	// File and Line locate the rule (or the failing expression); empty when
	// the failure cannot be pinned to one rule (a limit hit by a stage).
	File string
	Line int
	// RuleID is the rule's METADATA id or "team:FILE:LINE", when known.
	RuleID string
	// Problem says what went wrong, Fix what to do about it.
	Problem, Fix string
}

func (e *RuleError) Error() string {
	where := "team rules"
	if e.File != "" {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
		if e.RuleID != "" && e.RuleID != fmt.Sprintf("team:%s:%d", e.File, e.Line) {
			where += " (" + e.RuleID + ")"
		}
	}
	return fmt.Sprintf("%s: %s. The plan stops because a team rule that cannot be evaluated protects nothing; %s", where, e.Problem, e.Fix)
}

// Diagnostic is the error as a diagnostic whose subject is the rule.
func (e *RuleError) Diagnostic() *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Team rule failed", Detail: e.Error()}
	if e.File != "" {
		pos := hcl.Pos{Line: e.Line, Column: 1}
		d.Subject = &hcl.Range{Filename: e.File, Start: pos, End: pos}
	}
	return d
}

const fixRule = "fix the rule (`tenet rules test` runs its tests)."

// malformed is the RuleError for a team element of the wrong shape.
func (e *Engine) malformed(el ast.Object, point, want string) *RuleError {
	f := e.fired(stringAt(el, keyRule))
	return &RuleError{
		File: f.File, Line: f.Line, RuleID: f.RuleID,
		Problem: fmt.Sprintf("%s element %v is not %s", point, el.Get(keyValue), want),
		Fix:     fixRule,
	}
}

// instanceElement checks a team element [i, message] of a decide extension
// point against a chunk of n instances and returns i.
func (e *Engine) instanceElement(el *ast.Term, point string, n int) (int, error) {
	const want = "[i, message] with i the index of an instance in input.instances and message a string"
	obj, ok := el.Value.(ast.Object)
	if !ok {
		return 0, fmt.Errorf("%s element %v is not a team element", point, el)
	}
	value, ok := valueAt(obj, keyValue).(*ast.Array)
	if !ok || value.Len() != 2 {
		return 0, e.malformed(obj, point, want)
	}
	if _, ok := value.Elem(1).Value.(ast.String); !ok {
		return 0, e.malformed(obj, point, want)
	}
	i, err := indexOf(value.Elem(0), n)
	if err != nil {
		return 0, e.malformed(obj, point, want)
	}
	return i, nil
}

// evalStage evaluates a prepared query. With team rules loaded the
// evaluation is bounded (limits.go) and fails closed: a built-in error in a
// team file, which Rego otherwise treats as "undefined", is returned as a
// RuleError. Without team rules it is a plain evaluation: the default rules
// are tested and some rely on errors being undefined.
func (e *Engine) evalStage(ctx context.Context, q *query, input ast.Value, ts time.Time) (rego.ResultSet, error) {
	if !e.includeValues {
		return q.Eval(ctx, rego.EvalParsedInput(input), rego.EvalTime(ts), rego.EvalGenerateJSON(rawTerm))
	}
	// Waiting for compilation is not the rules' time.
	pq, err := q.get(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := e.limits.watch(ctx, cancel)
	defer stop()
	var builtinErrs []topdown.Error
	rs, err := pq.Eval(ctx, rego.EvalParsedInput(input), rego.EvalTime(ts), rego.EvalGenerateJSON(rawTerm),
		rego.EvalBuiltinErrorList(&builtinErrs))
	if err != nil {
		var re *RuleError
		if errors.As(context.Cause(ctx), &re) {
			return nil, re
		}
		var te *topdown.Error
		if errors.As(err, &te) && te.Location != nil && e.teamFiles[te.Location.File] {
			return nil, e.expressionError(te)
		}
		return nil, err
	}
	if re := e.teamBuiltinError(builtinErrs); re != nil {
		return nil, re
	}
	return rs, nil
}

// teamBuiltinError is the first (by file and line) built-in error raised in
// a team file, or nil. A built-in given a value it cannot handle
// (to_number("ten"), 1/0, an invalid pattern) fails the rule. An operand
// of the wrong type (object.union(null, {})) stays what it is in Rego, a
// condition that does not hold, as `x == 1` is for a string x: rules read
// values of many shapes, and guards (guards.go) skip instances on the same
// reading. Errors in the default files are left as Rego leaves them.
func (e *Engine) teamBuiltinError(errs []topdown.Error) *RuleError {
	var team []*topdown.Error
	for k := range errs {
		if errs[k].Code == topdown.TypeErr {
			continue
		}
		if loc := errs[k].Location; loc != nil && e.teamFiles[loc.File] {
			team = append(team, &errs[k])
		}
	}
	if len(team) == 0 {
		return nil
	}
	sort.SliceStable(team, func(a, b int) bool {
		la, lb := team[a].Location, team[b].Location
		if la.File != lb.File {
			return la.File < lb.File
		}
		return la.Row < lb.Row
	})
	return e.expressionError(team[0])
}

// expressionError is the RuleError for an evaluation error raised by an
// expression of a team file.
func (e *Engine) expressionError(te *topdown.Error) *RuleError {
	loc := te.Location
	return &RuleError{
		File: loc.File, Line: loc.Row,
		Problem: fmt.Sprintf("evaluation failed: %s", strings.ReplaceAll(te.Message, boundedPrefix, "")),
		Fix:     fixRule,
	}
}

// evalError wraps an evaluation failure of a stage; a RuleError is
// returned as it is, since it already says what to do.
func evalError(stage string, err error) error {
	var re *RuleError
	if errors.As(err, &re) {
		return re
	}
	return fmt.Errorf("evaluating %s rules: %w", stage, err)
}
