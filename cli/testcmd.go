package cli

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/config/testfile"
)

// testFlags are the options of `tenet test`.
type testFlags struct {
	filters []string
	testDir string
	vars    []config.VarSource
	verbose bool
	jsonOut bool
	noColor bool
}

func newTestCommand(g *globals) *cobra.Command {
	f := &testFlags{}
	cmd := &cobra.Command{
		Use:   "test [options]",
		Short: "Run the *.tftest.hcl tests of the configuration",
		Long: "Runs the run blocks of every *.tftest.hcl file in the working directory and the test directory\n" +
			"in order, checks their assertions, and destroys what they created at the end.",
		Args: cobra.ArbitraryArgs, // ignored, as by OpenTofu
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, f.noColor, f.jsonOut)
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return runTests(ctx, g, u, f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.filters, "filter", nil, "run only this test file (a path relative to the working directory); repeatable")
	fl.StringVar(&f.testDir, "test-directory", "tests", "the directory holding test files, besides the working directory")
	fl.Var(&varFlag{kind: config.ValueFromCLI, list: &f.vars}, "var", "set a value for a root module input variable (NAME=VALUE); repeatable")
	fl.Var(&varFlag{kind: config.ValueFromFile, list: &f.vars}, "var-file", "load variable values from a file; repeatable")
	fl.BoolVar(&f.verbose, "verbose", false, "print the plan or state of each run block")
	fl.BoolVar(&f.jsonOut, "json", false, "print the results as a stream of JSON messages")
	fl.BoolVar(&f.noColor, "no-color", false, "disable color")
	registerConsolidation(cmd)
	return cmd
}

// findTestFiles lists the test files of the working directory and of the
// test directory, in the order OpenTofu runs them (by path).
func findTestFiles(testDir string) ([]string, error) {
	var out []string
	for _, dir := range []string{".", testDir} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if os.IsNotExist(err) && dir != "." {
				continue
			}
			return nil, err
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() {
				names = append(names, e.Name())
			}
		}
		for _, n := range config.TestFiles(names) {
			p := n
			if dir != "." {
				p = filepath.ToSlash(filepath.Join(dir, n))
			}
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// parseTestFiles reads and decodes the test files at paths, keeping their
// sources for diagnostics.
func parseTestFiles(u *ui, paths []string) (map[string]*testfile.File, hcl.Diagnostics) {
	parsed := map[string]*testfile.File{}
	var diags hcl.Diagnostics
	for _, path := range paths {
		src, err := fs.ReadFile(os.DirFS("."), path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read test file", Detail: err.Error()})
			continue
		}
		tf, hf, d := testfile.Parse(src, path)
		if hf != nil {
			u.files[path] = hf
		}
		diags = append(diags, d...)
		parsed[path] = tf
	}
	return parsed, diags
}

// testCounts is the tally of run blocks for the summary line.
type testCounts struct{ pass, fail, errored, skip int }

func (c *testCounts) add(status string) {
	switch status {
	case "pass":
		c.pass++
	case "fail":
		c.fail++
	case "error":
		c.errored++
	default:
		c.skip++
	}
}

func runTests(ctx context.Context, g *globals, u *ui, f *testFlags) error {
	cfg, diags := u.loadConfigAndProviders(g)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	u.diagnostics(diags)
	if u.files == nil {
		u.files = map[string]*hcl.File{}
	}
	files, err := findTestFiles(f.testDir)
	if err != nil {
		return u.errorf("Failed to read the test directory", "%s", err)
	}
	// Every test file is read before any runs, filtered out or not: an
	// error in one stops them all, as OpenTofu loads them with the
	// configuration.
	parsed, setup := parseTestFiles(u, files)
	if setup.HasErrors() {
		return u.fail(setup)
	}
	if _, err := os.Stat(f.testDir); os.IsNotExist(err) && f.testDir != "tests" {
		// Only a directory asked for is worth a word: the default one is
		// optional (as in OpenTofu).
		setup = append(setup, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Test directory does not exist",
			Detail: fmt.Sprintf("Requested test directory %s does not exist.", filepath.Clean(f.testDir))})
	}
	if len(f.filters) > 0 {
		// Filters name files exactly as they are listed, not cleaned, as
		// OpenTofu matches them.
		want := map[string]bool{}
		for _, fl := range f.filters {
			want[fl] = true
		}
		var kept []string
		for _, p := range files {
			if want[p] {
				kept = append(kept, p)
			}
		}
		files = kept
		if len(files) == 0 {
			setup = append(setup, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "No tests were found",
				Detail: "-filter is being used but no tests were found. Make sure you're using a relative path to the current working directory."})
		}
	}
	cliVals, d := config.CollectVariableValues(os.DirFS("."), ".", cfg.Root, f.vars, g.deps.Env)
	if d.HasErrors() {
		return u.fail(d)
	}
	r, d := rulesEngine(ctx, nil)
	if d.HasErrors() {
		return u.fail(d)
	}
	view := testView{u}
	view.diagnostics("", "", setup)
	runs := map[string][]string{}
	for _, path := range files {
		runs[path] = []string{}
		for _, r := range parsed[path].Runs {
			runs[path] = append(runs[path], r.Name)
		}
	}
	view.abstract(files, runs)
	var total testCounts
	status := "pass"
	for _, path := range files {
		fr := &fileRun{g: g, u: u, f: f, cfg: cfg, cliVals: cliVals, file: parsed[path], rules: r}
		out := fr.run(ctx)
		total.pass += out.counts.pass
		total.fail += out.counts.fail
		total.errored += out.counts.errored
		total.skip += out.counts.skip
		status = worseStatus(status, out.status)
		view.file(path, out.status)
		for _, rr := range out.runs {
			view.run(path, rr)
			view.diagnostics(path, rr.name, rr.diags)
		}
		view.diagnostics(path, "", out.diags)
	}
	view.conclusion(total, status)
	if status != "pass" {
		return &exitError{1}
	}
	return nil
}

// colorStatus is a test's status in its colour, as OpenTofu shows it.
func (u *ui) colorStatus(s string) string {
	switch s {
	case "pass":
		return views.Colorize("[green]pass[reset]", u.color)
	case "fail", "error":
		return views.Colorize("[red]fail[reset]", u.color)
	}
	return views.Colorize("[light_gray]"+s+"[reset]", u.color)
}

// refuse is the diagnostic for a construct of the test language tenet
// does not carry out: it names the construct and where it is.
func refuse(what string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Unsupported test construct: %s", what),
		Detail:  fmt.Sprintf("tenet test does not support %s yet, and will not run a test that relies on it. Remove it or run this test with OpenTofu.", what),
		Subject: rng.Ptr()}
}
