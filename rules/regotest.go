package rules

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/tenetplan/tenet/internal/regokit"
)

// TestResult is the outcome of one Rego unit test (a `test_` rule).
type TestResult = regokit.TestResult

// The outcomes of a test ([TestResult].Status).
const (
	TestPass  = regokit.TestPass
	TestFail  = regokit.TestFail
	TestError = regokit.TestError
	TestSkip  = regokit.TestSkip
)

// RunTests runs the Rego unit tests (*_test.rego) of the team rule sources
// against the default rules plus the team rules, as `tenet rules test` does.
// The same sandbox applies as for planning.
func RunTests(ctx context.Context, sources []Source) ([]TestResult, hcl.Diagnostics) {
	defaults, diags := parseDefaults()
	modules := map[string]*ast.Module{}
	for _, m := range defaults {
		modules[m.Package.Location.File] = m
	}
	defaultNames := ruleNamesByPackage(defaults)
	next := 0
	for _, src := range sources {
		mods, moreDiags := parseSourceFiles(src, func(name string) bool { return strings.HasSuffix(name, ".rego") })
		diags = append(diags, moreDiags...)
		for _, m := range mods {
			diags = append(diags, checkSandbox(m)...)
			wrapped, moreDiags := wrapExtensionRules(m, defaultNames, next)
			next += len(wrapped)
			diags = append(diags, moreDiags...)
			modules[m.Package.Location.File] = m
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	results, err := runRegoTests(ctx, modules)
	if err != nil {
		diags = append(diags, astErrorDiags("Invalid rule", err)...)
	}
	return results, diags
}

// runRegoTests compiles modules in the planning sandbox and runs their tests.
func runRegoTests(ctx context.Context, modules map[string]*ast.Module) ([]TestResult, error) {
	compiler := ast.NewCompiler().
		WithCapabilities(sandboxCapabilities()).
		WithBuiltins(map[string]*ast.Builtin{reachableBuiltin.Name: reachableBuiltin}).
		WithEnablePrintStatements(true)
	return regokit.Tests{
		Compiler: compiler,
		Modules:  modules,
		Builtins: []*tester.Builtin{{Decl: reachableBuiltin, Func: reachableFunction()}},
	}.Run(ctx)
}

// defaultTestModules parses the embedded default rules with their tests.
func defaultTestModules() (map[string]*ast.Module, error) {
	modules := map[string]*ast.Module{}
	entries, err := fs.ReadDir(defaultRules, "planning")
	if err != nil {
		return nil, err
	}
	for _, ent := range entries {
		if !strings.HasSuffix(ent.Name(), ".rego") {
			continue
		}
		src, err := defaultRules.ReadFile("planning/" + ent.Name())
		if err != nil {
			return nil, err
		}
		name := path.Join(defaultDir, "planning", ent.Name())
		m, err := parseDefaultModule(name, src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		modules[name] = m
	}
	return modules, nil
}
