package regokit

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/tester"
)

// The outcomes of a test.
const (
	TestPass  = "pass"
	TestFail  = "fail"
	TestError = "error"
	TestSkip  = "skip"
)

// TestResult is the outcome of one Rego unit test (a test_ rule). Its
// JSON form is what `tenet policy test -format=json` prints.
type TestResult struct {
	Package string `json:"package"` // e.g. "acme.rules_test"
	Name    string `json:"name"`    // e.g. "test_keeps_databases"
	File    string `json:"file"`
	Line    int    `json:"line"`
	Status  string `json:"status"` // TestPass, TestFail, TestError or TestSkip
	// Message is the evaluation error, or for a failure the FILE:LINE and
	// text of the expression that failed.
	Message  string        `json:"message,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// Tests is one run of the test_ rules of a set of modules, in the
// caller's sandbox: the caller builds the compiler (its capabilities,
// custom built-ins, print statements).
type Tests struct {
	Compiler *ast.Compiler
	Modules  map[string]*ast.Module
	// Builtins are the Go implementations of the compiler's custom
	// built-ins.
	Builtins []*tester.Builtin
	// Store holds data documents; nil is an empty store.
	Store   storage.Store
	Runtime *ast.Term
	// Timeout bounds each test (0: OPA's default, 5s).
	Timeout time.Duration
	// RaiseBuiltinErrors makes a built-in's error fail the test instead
	// of making its expression undefined.
	RaiseBuiltinErrors bool
	// Filter, when set, is a regular expression selecting tests by name.
	Filter string
	// Coverage, when set, collects the lines the tests evaluate.
	Coverage *cover.Cover
}

// Run compiles the modules, runs their tests and returns the results
// ordered by file and line. A compile error is OPA's (ast.Errors): see
// [ErrorDiags].
func (t Tests) Run(ctx context.Context) ([]TestResult, error) {
	runner := tester.NewRunner().
		SetCompiler(t.Compiler).
		SetModules(t.Modules).
		RaiseBuiltinErrors(t.RaiseBuiltinErrors)
	if len(t.Builtins) > 0 {
		runner = runner.AddCustomBuiltins(t.Builtins)
	}
	if t.Runtime != nil {
		runner = runner.SetRuntime(t.Runtime)
	}
	if t.Timeout > 0 {
		runner = runner.SetTimeout(t.Timeout)
	}
	if t.Filter != "" {
		runner = runner.Filter(t.Filter)
	}
	if t.Coverage != nil {
		runner = runner.SetCoverageQueryTracer(t.Coverage)
	}
	var txn storage.Transaction
	if t.Store != nil {
		var err error
		if txn, err = t.Store.NewTransaction(ctx, storage.TransactionParams{}); err != nil {
			return nil, err
		}
		defer t.Store.Abort(ctx, txn)
		runner = runner.SetStore(t.Store)
	}
	ch, err := runner.RunTests(ctx, txn)
	if err != nil {
		return nil, err
	}
	out := []TestResult{}
	for r := range ch {
		out = append(out, testResult(r))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

func testResult(r *tester.Result) TestResult {
	tr := TestResult{Package: strings.TrimPrefix(r.Package, "data."), Name: r.Name, Duration: r.Duration, Status: TestPass}
	if r.Location != nil {
		tr.File, tr.Line = r.Location.File, r.Location.Row
	}
	switch {
	case r.Error != nil:
		tr.Status, tr.Message = TestError, r.Error.Error()
	case r.Fail:
		tr.Status = TestFail
		if r.FailedAt != nil && r.FailedAt.Location != nil {
			tr.Message = fmt.Sprintf("%s:%d: %s", r.FailedAt.Location.File, r.FailedAt.Location.Row, r.FailedAt.String())
		}
	case r.Skip:
		tr.Status = TestSkip
	}
	return tr
}
