package policy

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsExamples keeps docs/policy.md honest: blocks marked "# file:"
// are the example files verbatim, "# excerpt:" blocks appear in their
// file, and the examples' own Rego tests pass.
func TestDocsExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```(?:rego|yaml)\n(.*?)```").FindAllSubmatch(doc, -1)
	checked := 0
	for _, b := range blocks {
		body := string(b[1])
		first, rest, _ := strings.Cut(body, "\n")
		kind, path, ok := strings.Cut(strings.TrimPrefix(first, "# "), ": ")
		if !ok || (kind != "file" && kind != "excerpt") {
			continue
		}
		t.Run(path, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("..", path))
			if err != nil {
				t.Fatal(err)
			}
			if kind == "file" && rest != string(want) {
				t.Errorf("the block differs from %s:\n%s", path, rest)
			}
			if kind == "excerpt" && !strings.Contains(string(want), rest) {
				t.Errorf("the excerpt does not appear in %s:\n%s", path, rest)
			}
		})
		checked++
	}
	if checked < 4 {
		t.Errorf("only %d example blocks found", checked)
	}
	rep, diags := RunTests(context.Background(), TestOptions{Paths: []string{"../examples/policies"}, Coverage: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if rep.Failed() || len(rep.Results) == 0 {
		t.Errorf("example tests failed: %+v", rep.Results)
	}
	if rep.Coverage.Coverage < 100 {
		t.Errorf("example coverage %.1f%%, want 100%%", rep.Coverage.Coverage)
	}
}
