package policy

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/tenetplan/tenet/internal/regokit"
)

// TestOptions configures [RunTests].
type TestOptions struct {
	// Paths are policy sources as for [Options.Paths]; their *_test.rego
	// files are the tests.
	Paths []string
	// Coverage collects line coverage of the non-test files.
	Coverage bool
	// Timeout bounds each test (default [DefaultTimeout]).
	Timeout time.Duration
	// Run, when set, is a regular expression selecting tests by name.
	Run string
}

// TestReport is the outcome of a test run.
type TestReport struct {
	Results  []TestResult    `json:"results"`
	Coverage *CoverageReport `json:"coverage,omitempty"`
}

// TestResult is one test_ rule.
type TestResult = regokit.TestResult

// CoverageReport is line coverage of the policy files (tests excluded).
type CoverageReport struct {
	Coverage float64        `json:"coverage"`
	Files    []FileCoverage `json:"files"`
}

// FileCoverage is the coverage of one file.
type FileCoverage struct {
	File       string  `json:"file"`
	Coverage   float64 `json:"coverage"`
	Covered    int     `json:"covered_lines"`
	NotCovered []int   `json:"not_covered_lines,omitempty"`
}

// Failed reports whether any test failed, errored, or none ran.
func (t *TestReport) Failed() bool {
	for _, r := range t.Results {
		if r.Status == "fail" || r.Status == "error" {
			return true
		}
	}
	return false
}

// RunTests runs the test_ rules of *_test.rego files in the sources, in
// the same sandbox policy checks run in.
func RunTests(ctx context.Context, opts TestOptions) (*TestReport, hcl.Diagnostics) {
	l, diags := loadSandboxed(opts.Paths, true)
	if diags.HasErrors() {
		return nil, diags
	}
	modules := moduleMap(l.modules)
	compiler, runtime := newCompiler(l, nil)
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	var cov *cover.Cover
	if opts.Coverage {
		cov = cover.New()
	}
	results, err := regokit.Tests{
		Compiler: compiler, Modules: modules, Store: inmem.NewFromObject(l.data), Runtime: runtime,
		Timeout: timeout, RaiseBuiltinErrors: true, Filter: opts.Run, Coverage: cov,
	}.Run(ctx)
	if err != nil {
		if errs, ok := err.(ast.Errors); ok {
			return nil, regokit.ErrorDiags("Invalid policy", errs)
		}
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot run policy tests", Detail: err.Error() + "."}}
	}
	rep := &TestReport{Results: results}
	if cov != nil {
		rep.Coverage = coverageOf(cov, modules)
	}
	return rep, diags
}

func coverageOf(cov *cover.Cover, modules map[string]*ast.Module) *CoverageReport {
	policyModules := map[string]*ast.Module{}
	for k, m := range modules {
		if !isTestFile(strings.SplitN(k, "#", 2)[0]) {
			policyModules[k] = m
		}
	}
	r := cov.Report(policyModules)
	out := &CoverageReport{Coverage: r.Coverage, Files: []FileCoverage{}}
	for file, fr := range r.Files {
		if isTestFile(file) {
			continue
		}
		fc := FileCoverage{File: file, Coverage: fr.Coverage, Covered: fr.CoveredLines}
		for _, rg := range fr.NotCovered {
			for line := rg.Start.Row; line <= rg.End.Row; line++ {
				fc.NotCovered = append(fc.NotCovered, line)
			}
		}
		out.Files = append(out.Files, fc)
	}
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].File < out.Files[j].File })
	return out
}

// WriteTestReport renders a test run as human text, JSON or JUnit XML
// (SARIF has no place for passing tests and is not offered).
func WriteTestReport(w io.Writer, t *TestReport, f Format) error {
	switch f {
	case FormatJSON:
		return writeJSON(w, t)
	case FormatJUnit:
		return writeTestJUnit(w, t)
	case FormatSARIF:
		return fmt.Errorf("the sarif format is for policy check results; use human, json or junit for tests")
	}
	var b strings.Builder
	pass, fail := 0, 0
	for _, r := range t.Results {
		switch r.Status {
		case "pass":
			pass++
			continue
		case "skip":
			fmt.Fprintf(&b, "SKIP %s.%s (%s:%d)\n", r.Package, r.Name, r.File, r.Line)
			continue
		}
		fail++
		fmt.Fprintf(&b, "%s %s.%s (%s:%d)\n", strings.ToUpper(r.Status), r.Package, r.Name, r.File, r.Line)
		if r.Message != "" {
			fmt.Fprintf(&b, "    %s\n", r.Message)
		}
	}
	fmt.Fprintf(&b, "%d tests: %d passed, %d failed.\n", len(t.Results), pass, fail)
	if c := t.Coverage; c != nil {
		fmt.Fprintf(&b, "Coverage: %.1f%%\n", c.Coverage)
		for _, fc := range c.Files {
			fmt.Fprintf(&b, "  %6.1f%%  %s", fc.Coverage, fc.File)
			if len(fc.NotCovered) > 0 {
				fmt.Fprintf(&b, " (not covered: lines %s)", lineList(fc.NotCovered))
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func lineList(lines []int) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = fmt.Sprint(l)
	}
	return strings.Join(parts, ", ")
}

func writeTestJUnit(w io.Writer, t *TestReport) error {
	out := junitSuites{Name: "tenet policy test"}
	index := map[string]int{}
	for _, r := range t.Results {
		i, ok := index[r.File]
		if !ok {
			i = len(out.Suites)
			index[r.File] = i
			out.Suites = append(out.Suites, junitSuite{Name: r.File})
		}
		s := &out.Suites[i]
		s.Tests++
		c := junitCase{Name: r.Name, Classname: r.Package}
		switch r.Status {
		case "fail":
			s.Failures++
			c.Failure = &junitProblem{Message: "test failed", Text: r.Message}
		case "error":
			s.Errors++
			c.Error = &junitProblem{Message: r.Message, Type: "error"}
		case "skip":
			s.Skipped++
			c.Skipped = &junitProblem{Message: "skipped"}
		}
		s.Cases = append(s.Cases, c)
	}
	return out.write(w)
}
