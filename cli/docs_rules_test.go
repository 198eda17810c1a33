package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/cli"
)

// docExample is one "### Example" section of docs/rules.md: the files its
// fenced blocks name, and its console sessions.
type docExample struct {
	title    string
	files    map[string]string
	sessions []docStep
}

// docStep is one "$ command" line of a console block with the output lines
// that follow it and the exit status it states.
type docStep struct {
	args   []string
	expect []string
	exit   int
}

var exitLine = regexp.MustCompile(`^\(exit status (\d+)\)$`)

// parseDocExamples reads the worked examples of a document. A fenced block
// whose info string has a second word writes a file of that name; a
// console block holds the steps.
func parseDocExamples(t *testing.T, doc string) []docExample {
	t.Helper()
	var out []docExample
	sections := strings.Split(doc, "\n### Example ")
	for _, sec := range sections[1:] {
		ex := docExample{title: strings.SplitN(sec, "\n", 2)[0], files: map[string]string{}}
		lines := strings.Split(sec, "\n")
		for i := 0; i < len(lines); i++ {
			fence, ok := strings.CutPrefix(lines[i], "```")
			if !ok || fence == "" {
				continue
			}
			var body []string
			j := i + 1
			for ; j < len(lines) && lines[j] != "```"; j++ {
				body = append(body, lines[j])
			}
			info := strings.Fields(fence)
			switch {
			case info[0] == "console":
				for _, l := range body {
					switch m := exitLine.FindStringSubmatch(l); {
					case strings.HasPrefix(l, "$ "):
						ex.sessions = append(ex.sessions, docStep{args: shellWords(t, l[2:])})
					case m != nil:
						ex.sessions[len(ex.sessions)-1].exit, _ = strconv.Atoi(m[1])
					case strings.TrimSpace(l) != "":
						st := &ex.sessions[len(ex.sessions)-1]
						st.expect = append(st.expect, strings.TrimSpace(l))
					}
				}
			case len(info) > 1:
				ex.files[info[1]] = strings.Join(body, "\n") + "\n"
			}
			i = j
		}
		out = append(out, ex)
	}
	return out
}

// shellWords splits a command line on spaces, honouring single quotes.
func shellWords(t *testing.T, s string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
			}
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// TestDocsRulesExamples runs every worked example of docs/rules.md.
func TestDocsRulesExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := parseDocExamples(t, string(doc))
	if len(examples) < 6 {
		t.Fatalf("docs/rules.md has %d worked examples, want at least 6", len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.title, func(t *testing.T) {
			if len(ex.sessions) == 0 {
				t.Fatal("the example has no console session")
			}
			dir := t.TempDir()
			for name, content := range ex.files {
				writeFile(t, filepath.Join(dir, name), content)
			}
			for _, st := range ex.sessions {
				var code int
				var out string
				switch st.args[0] {
				case "tenet":
					code, out = runTenetIn(t, dir, st.args[1:]...)
				case "mv":
					if err := os.Rename(filepath.Join(dir, st.args[1]), filepath.Join(dir, st.args[2])); err != nil {
						t.Fatal(err)
					}
				default:
					t.Fatalf("the example runs %q; only tenet and mv are supported", st.args[0])
				}
				cmd := strings.Join(st.args, " ")
				if code != st.exit {
					t.Fatalf("%s: exit status %d, want %d\n%s", cmd, code, st.exit, out)
				}
				if missing := missingInOrder(out, st.expect); missing != "" {
					t.Fatalf("%s: output lacks %q (lines must appear in order)\n%s", cmd, missing, out)
				}
			}
		})
	}
}

// missingInOrder returns the first wanted line that does not appear (as a
// substring of a line) after the previous one, or "".
func missingInOrder(out string, want []string) string {
	lines := strings.Split(out, "\n")
	at := 0
	for _, w := range want {
		found := false
		for ; at < len(lines); at++ {
			if strings.Contains(strings.TrimSpace(lines[at]), w) {
				found = true
				at++
				break
			}
		}
		if !found {
			return w
		}
	}
	return ""
}

// runTenetIn runs tenet in dir and returns the exit status and the output
// (stdout, then stderr). Tests that use it must not run in parallel: the
// working directory is process-wide.
func runTenetIn(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
	}()
	var stdout, stderr bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), &stdout, &stderr, []string{"NO_COLOR=1"})
	return code, fmt.Sprintf("%s%s", stdout.String(), stderr.String())
}

// TestExampleRulesMatchDocs keeps examples/rules, the team rules
// scripts/perf.sh -x loads, the same files as docs/rules.md's examples.
func TestExampleRulesMatchDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, ex := range parseDocExamples(t, string(doc)) {
		for name, content := range ex.files {
			if base, ok := strings.CutPrefix(name, ".tenet/rules/"); ok && !strings.HasSuffix(base, "_test.rego") {
				want[base] = content
			}
		}
	}
	entries, err := os.ReadDir(filepath.Join("..", "examples", "rules"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".rego") {
			continue
		}
		b, err := os.ReadFile(filepath.Join("..", "examples", "rules", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		got[e.Name()] = string(b)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("examples/rules differs from the rule files of docs/rules.md's examples (-docs +examples):\n%s", diff)
	}
}
