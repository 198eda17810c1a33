package regokit

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
)

func mustParse(t *testing.T, name, src string) *ast.Module {
	t.Helper()
	m, err := ParseFile(name, []byte(src), ast.RegoV1)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// where lists each diagnostic as "FILE:LINE: SUMMARY: DETAIL".
func where(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		loc := "-"
		if d.Subject != nil {
			loc = fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line)
		}
		out = append(out, loc+": "+d.Summary+": "+d.Detail)
	}
	return out
}

var allKinds = map[Kind]bool{Network: true, Environment: true, Clock: true, Unrepeatable: true}

func testSandbox(refuse map[Kind]bool) Sandbox {
	return Sandbox{Refuse: refuse, Summary: "Refused", Detail: func(name string, r Refusal) string {
		return fmt.Sprintf("%s [%s] %s", name, r.Kind, r.Why)
	}}
}

func TestSandboxCheck(t *testing.T) {
	const src = `package p

a := http.send({"method": "GET", "url": "http://x"})
b := net.cidr_contains("10.0.0.0/8", "10.1.1.1")
c := opa.runtime()
d := time.now_ns()
e := rand.intn("x", 10)
f := time.clock([0, "Local"])
g := time.clock([0, "UTC"])
h := upper("x")
`
	m := mustParse(t, "p.rego", src)
	tests := []struct {
		name   string
		refuse map[Kind]bool
		want   []string
	}{
		{"planning rules refuse every kind", allKinds, []string{
			"p.rego:3: Refused: p.rego:3: http.send [network] reaches the network",
			"p.rego:4: Refused: p.rego:4: net.cidr_contains [network] belongs to the net.* family, which planning rules may not use",
			"p.rego:5: Refused: p.rego:5: opa.runtime [environment] reads the environment",
			"p.rego:6: Refused: p.rego:6: time.now_ns [time] reads the clock; use input.run.timestamp",
			"p.rego:7: Refused: p.rego:7: rand.intn [unrepeatable] is random",
			`p.rego:8: Refused: p.rego:8: time.clock [unrepeatable] is given the time zone "Local", the machine's zone; name the zone (e.g. "UTC" or "Europe/Paris")`,
		}},
		{"policies allowed nothing refuse network, environment and clock", map[Kind]bool{Network: true, Environment: true, Clock: true}, []string{
			"p.rego:3: Refused: p.rego:3: http.send [network] reaches the network",
			"p.rego:4: Refused: p.rego:4: net.cidr_contains [network] belongs to the net.* family, which planning rules may not use",
			"p.rego:5: Refused: p.rego:5: opa.runtime [environment] reads the environment",
			"p.rego:6: Refused: p.rego:6: time.now_ns [time] reads the clock; use input.run.timestamp",
		}},
		{"an allowed kind is not refused", map[Kind]bool{Environment: true, Clock: true}, []string{
			"p.rego:5: Refused: p.rego:5: opa.runtime [environment] reads the environment",
			"p.rego:6: Refused: p.rego:6: time.now_ns [time] reads the clock; use input.run.timestamp",
		}},
		{"nothing refused", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := where(testSandbox(tt.refuse).Check(m))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("refused calls (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNondeterministicBuiltinsRefused: every built-in OPA itself marks
// non-deterministic is on the list, so a new one in an OPA upgrade is
// caught, and a sandbox refusing every kind leaves it out of its
// capabilities.
func TestNondeterministicBuiltinsRefused(t *testing.T) {
	s := testSandbox(allKinds)
	kept := map[string]bool{}
	for _, b := range s.Capabilities().Builtins {
		kept[b.Name] = true
	}
	for _, b := range ast.CapabilitiesForThisVersion().Builtins {
		if !b.Nondeterministic {
			continue
		}
		if _, bad := s.Refuses(b.Name); !bad {
			t.Errorf("%s is non-deterministic but not refused", b.Name)
		}
		if kept[b.Name] {
			t.Errorf("%s is refused but left in the capabilities", b.Name)
		}
	}
	if !kept["upper"] || !kept["time.clock"] {
		t.Error("the capabilities lost built-ins that are not refused")
	}
	if policyLike := testSandbox(map[Kind]bool{Network: true}).Capabilities(); !containsBuiltin(policyLike, "rand.intn") || containsBuiltin(policyLike, "http.send") {
		t.Error("a sandbox refusing only the network must keep rand.intn and drop http.send")
	}
}

func containsBuiltin(c *ast.Capabilities, name string) bool {
	for _, b := range c.Builtins {
		if b.Name == name {
			return true
		}
	}
	return false
}

func TestParseFile(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		version ast.RegoVersion
		wantErr string // substring; "" for success
	}{
		{"v1", "package p\n\nallow if true\n", ast.RegoUndefined, ""},
		{"v0 falls back", "package p\n\ndeny[msg] { msg := \"x\" }\n", ast.RegoUndefined, ""},
		{"v0 refused when v1 is fixed", "package p\n\ndeny[msg] { msg := \"x\" }\n", ast.RegoV1, "rego_parse_error"},
		{"no fallback with import rego.v1", "package p\nimport rego.v1\n\ndeny[msg] { msg := \"x\" }\n", ast.RegoUndefined, "rego_parse_error"},
		{"the error furthest into the file", "package p\n\nallow if true\n\nbroken if {\n", ast.RegoUndefined, "f.rego:6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseFile("f.rego", []byte(tt.src), tt.version)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr == "" && m.Package.Location.File != "f.rego":
				t.Errorf("module file is %q", m.Package.Location.File)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestDirLoad(t *testing.T) {
	fsys := fstest.MapFS{
		"a.rego":          {Data: []byte("package a\n\nx := 1\n")},
		"sub/b.rego":      {Data: []byte("package b\n\ny := \n")},
		"sub/c_test.rego": {Data: []byte("package c\n\ntest_x if true\n")},
		"empty.rego":      {Data: []byte("# only a comment\n")},
		".hidden/d.rego":  {Data: []byte("package d\n")},
		"data.json":       {Data: []byte("{}")},
	}
	var others []string
	d := Dir{
		FS: fsys, Name: "team", Noun: "rule", Version: ast.RegoV1, SkipHidden: true,
		Keep: func(name string) bool {
			return strings.HasSuffix(name, ".rego") && !strings.HasSuffix(name, "_test.rego")
		},
		Other: func(rel, shown string) (hcl.Diagnostics, error) {
			others = append(others, rel+"="+shown)
			return nil, nil
		},
	}
	files, diags := d.Load()
	var got []string
	for _, f := range files {
		got = append(got, f.Rel+"="+f.Shown+"="+f.Module.Package.Location.File)
	}
	if diff := cmp.Diff([]string{"a.rego=team/a.rego=team/a.rego"}, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"data.json=team/data.json", "sub/c_test.rego=team/sub/c_test.rego"}, others); diff != "" {
		t.Errorf("other files (-want +got):\n%s", diff)
	}
	// An empty file is the author's mistake, named with its file (OPA
	// gives it no line).
	want := []string{
		"-: Invalid rule file: team/empty.rego:0: rego_parse_error: empty module.",
		"team/sub/b.rego:4: Invalid rule file: team/sub/b.rego:4: unexpected eof token.",
		"team/sub/b.rego:4: Invalid rule file: team/sub/b.rego:4: unexpected eof token: expected rule value term (e.g., y := <VALUE> { ... }).",
	}
	if diff := cmp.Diff(want, where(diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}

	d.SkipHidden = false
	if files, _ := d.Load(); len(files) != 2 {
		t.Errorf("without SkipHidden, got %d files, want a.rego and .hidden/d.rego", len(files))
	}

	d.Name = "missing"
	d.FS = errFS{}
	_, diags = d.Load()
	if diff := cmp.Diff([]string{"-: Cannot read rule files: Reading the rule directory missing failed: open .: no such directory. Check that it exists and is readable."}, where(diags)); diff != "" {
		t.Errorf("unreadable directory (-want +got):\n%s", diff)
	}
}

type errFS struct{}

func (errFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: errNoDir}
}

var errNoDir = fmt.Errorf("no such directory")

func TestErrorDiags(t *testing.T) {
	_, err := ParseFile("x.rego", []byte("package p\n\nallow if {\n"), ast.RegoV1)
	d := ErrorDiags("Invalid rule file", err)
	if len(d) != 1 || d[0].Subject == nil || d[0].Subject.Filename != "x.rego" || !strings.HasPrefix(d[0].Detail, "x.rego:") {
		t.Fatalf("a parse error is not located: %v", where(d))
	}
	d = ErrorDiags("Cannot run", fmt.Errorf("boom"))
	if diff := cmp.Diff([]string{"-: Cannot run: boom."}, where(d)); diff != "" {
		t.Errorf("an unlocated error (-want +got):\n%s", diff)
	}
	loc := &ast.Location{File: "y.rego", Row: 4, Col: 3, Offset: 20, Text: []byte("abc\ndef")}
	got := LocatedDiag("S", loc, "detail")
	want := &hcl.Range{Filename: "y.rego", Start: hcl.Pos{Line: 4, Column: 3, Byte: 20}, End: hcl.Pos{Line: 4, Column: 6, Byte: 23}}
	if diff := cmp.Diff(want, got.Subject); diff != "" || got.Detail != "y.rego:4: detail" {
		t.Errorf("LocatedDiag subject (-want +got):\n%s\ndetail %q", diff, got.Detail)
	}
}

func TestMetadata(t *testing.T) {
	m := mustParse(t, "m.rego", `# METADATA
# title: The package
# description: Package prose.
package m

# METADATA
# title: No public buckets
# custom:
#   id: no-public
deny contains "x" if true

# METADATA
# description: Only a description.
warn contains "y" if true

violation contains "z" if true
`)
	as, errs := ast.BuildAnnotationSet([]*ast.Module{m})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, r := range m.Rules {
		title, desc := Describe(as, r)
		got = append(got, r.Head.Name.String()+"|"+title+"|"+desc)
	}
	want := []string{"deny|No public buckets|Package prose.", "warn|The package|Only a description.", "violation|The package|Package prose."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Describe (-want +got):\n%s", diff)
	}
	got = nil
	for _, a := range Annotations(as) {
		got = append(got, fmt.Sprintf("%s|%s|%s|%d", a.Scope, a.ID, a.Title, a.Location.Row))
	}
	want = []string{"package||The package|4", "rule|no-public|No public buckets|10", "rule|||14"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Annotations (-want +got):\n%s", diff)
	}
}

func TestTestsRun(t *testing.T) {
	mods := map[string]*ast.Module{
		"b_test.rego": mustParse(t, "b_test.rego", `package b_test

test_fails if {
	1 == 2
}

test_errors if {
	to_number("ten") == 1
}

todo_test_later if true
`),
		"a_test.rego": mustParse(t, "a_test.rego", `package a_test

test_passes if true

test_network if {
	http.send({"method": "GET", "url": "http://127.0.0.1:1"})
}
`),
	}
	tests := []struct {
		name    string
		refuse  map[Kind]bool
		filter  string
		raise   bool
		want    []string
		wantErr string
	}{
		{"outcomes in file and line order", nil, "test_fails|test_errors|test_passes|later", true, []string{
			"a_test.rego:3 a_test.test_passes pass ",
			"b_test.rego:3 b_test.test_fails fail ",
			"b_test.rego:7 b_test.test_errors error b_test.rego:8: eval_builtin_error: to_number: strconv.ParseFloat: parsing \"ten\": invalid syntax",
			"b_test.rego:11 b_test.todo_test_later skip ",
		}, ""},
		{"built-in errors as undefined", nil, "test_errors", false, []string{
			"b_test.rego:7 b_test.test_errors fail ",
		}, ""},
		{"the sandbox's capabilities refuse the module", map[Kind]bool{Network: true}, "", true, nil, "undefined function http.send"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ast.NewCompiler().WithCapabilities(testSandbox(tt.refuse).Capabilities())
			results, err := Tests{Compiler: c, Modules: mods, Filter: tt.filter, RaiseBuiltinErrors: tt.raise}.Run(context.Background())
			if (err != nil) != (tt.wantErr != "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
			var got []string
			for _, r := range results {
				got = append(got, fmt.Sprintf("%s:%d %s.%s %s %s", r.File, r.Line, r.Package, r.Name, r.Status, r.Message))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRefMatchesParsedRef(t *testing.T) {
	for _, tc := range []struct {
		root *ast.Term
		keys []string
		text string
	}{
		{ast.InputRootDocument, []string{"instances"}, "input.instances"},
		{ast.InputRootDocument, []string{"resource_changes"}, "input.resource_changes"},
		{ast.DefaultRootDocument, []string{"tenet", "decide"}, "data.tenet.decide"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			if got, want := Ref(tc.root, tc.keys...), ast.MustParseRef(tc.text); !got.Equal(want) || got.String() != want.String() {
				t.Errorf("Ref = %v, want %v", got, want)
			}
		})
	}
}
