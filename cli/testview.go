package cli

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/cli/views"
)

// testView prints what tenet test did: for people, or as OpenTofu's JSON
// stream with -json (where a run that failed for other reasons than an
// assertion is "error", not "fail").
type testView struct{ u *ui }

// abstract announces the files and runs about to run (JSON only).
func (v testView) abstract(files []string, runs map[string][]string) {
	if v.u.json == nil {
		return
	}
	n := 0
	for _, path := range files {
		n += len(runs[path])
	}
	msg := fmt.Sprintf("Found %s and %s", plural(len(files), "file", "files"), plural(n, "run block", "run blocks"))
	v.u.json.TestAbstract(msg, runs)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func (v testView) file(path, status string) {
	if v.u.json != nil {
		v.u.json.TestFile(fmt.Sprintf("%s... %s", path, humanStatus(status)), path, status)
		return
	}
	fmt.Fprintf(v.u.out, "%s... %s\n", path, v.u.colorStatus(status))
}

func (v testView) run(path string, rr runReport) {
	if v.u.json != nil {
		v.u.json.TestRun(fmt.Sprintf("  %q... %s", rr.name, humanStatus(rr.status)), path, rr.name, rr.status)
		if rr.verboseJSON != nil {
			what := "plan"
			if rr.verboseKind == "test_state" {
				what = "state"
			}
			v.u.json.TestVerbose("-verbose flag enabled, printing "+what, rr.verboseKind, json.RawMessage(rr.verboseJSON), path, rr.name)
		}
		return
	}
	fmt.Fprintf(v.u.out, "  run %q... %s\n", rr.name, v.u.colorStatus(rr.status))
	if rr.verbose != "" {
		fmt.Fprint(v.u.out, rr.verbose)
	}
}

// diagnostics prints diagnostics of a file (run "") or of one of its runs.
func (v testView) diagnostics(path, run string, diags hcl.Diagnostics) {
	if v.u.json == nil || path == "" || len(diags) == 0 {
		v.u.diagnostics(diags)
		return
	}
	v.u.addVarFileSources(diags)
	v.u.json.TestDiagnostics(diags, v.u.files, path, run)
}

// conclusion is the summary line.
func (v testView) conclusion(total testCounts, status string) {
	word := "Success!"
	if status != "pass" {
		word = "Failure!"
	}
	line := fmt.Sprintf(" %d passed, %d failed", total.pass, total.fail+total.errored)
	if total.skip > 0 {
		line += fmt.Sprintf(", %d skipped.", total.skip)
	} else {
		line += "."
	}
	if v.u.json != nil {
		v.u.json.TestSummary(word+line, status, total.pass, total.fail, total.errored, total.skip)
		return
	}
	color := "[green]"
	if status != "pass" {
		color = "[red]"
	}
	fmt.Fprintf(v.u.out, "\n%s%s\n", views.Colorize(color+word+"[reset]", v.u.color), line)
}

// humanStatus is how a status reads in the human output: an error shows
// as a failure there.
func humanStatus(s string) string {
	if s == "error" {
		return "fail"
	}
	return s
}
