package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The embedded default rules compile without some of the compiler's checks
// (defaultsSkippedChecks); this compiles each stage's files with all of
// them, so a default rule that would fail one fails here.
func TestDefaultRulesPassSkippedChecks(t *testing.T) {
	for _, st := range defaultStages {
		t.Run(st.files, func(t *testing.T) {
			mods, diags := parseDefaultFiles(func(name string) bool { return strings.HasPrefix(name, st.files) })
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			modules := map[string]*ast.Module{}
			for _, m := range mods {
				modules[m.Package.Location.File] = m
			}
			stages := newCompiler().StagesToRun()
			for _, id := range defaultsSkippedChecks {
				if !slices.Contains(stages, id) {
					t.Fatalf("the compiler has no stage %s to skip", id)
				}
			}
			c := newCompiler()
			c.Compile(modules)
			if c.Failed() {
				t.Fatalf("default %s rules fail a check they skip at run time: %v", st.files, c.Errors)
			}
		})
	}
}
