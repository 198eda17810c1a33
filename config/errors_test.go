package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestErrorFixtures loads each testdata/errors/*.tf as the main.tf of a
// root module and checks that every line marked `# ERROR: summary` or
// `# WARNING: summary` gets exactly those diagnostics, and no other line
// gets any.
func TestErrorFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.tf")
	if err != nil || len(files) == 0 {
		t.Fatal("no fixtures")
	}
	// Child modules the fixtures call live in subdirectories.
	children, _ := filepath.Glob("testdata/errors/*/*.tf")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			fsys := fstest.MapFS{"main.tf": {Data: src}}
			for _, c := range children {
				data, err := os.ReadFile(c)
				if err != nil {
					t.Fatal(err)
				}
				rel, _ := filepath.Rel("testdata/errors", c)
				fsys[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
			}
			_, diags := Load(fsys, ".")
			if diff := cmp.Diff(markers(string(src)), diagLines(t, diags)); diff != "" {
				t.Errorf("diagnostics by line (-want +got):\n%s", diff)
			}
		})
	}
}

func markers(src string) map[int][]string {
	out := map[int][]string{}
	for i, line := range strings.Split(src, "\n") {
		// A line may carry several markers: "# ERROR: A # ERROR: B".
		for _, kind := range []string{"ERROR", "WARNING"} {
			for _, after := range strings.Split(line, "# "+kind+": ")[1:] {
				summary, _, _ := strings.Cut(after, " # ")
				out[i+1] = append(out[i+1], kind+": "+strings.TrimSpace(summary))
			}
		}
	}
	return out
}

func diagLines(t *testing.T, diags hcl.Diagnostics) map[int][]string {
	t.Helper()
	out := map[int][]string{}
	for _, d := range diags {
		kind := "ERROR"
		if d.Severity == hcl.DiagWarning {
			kind = "WARNING"
		}
		line := 0
		if d.Subject != nil {
			line = d.Subject.Start.Line
		}
		if d.Subject != nil && d.Subject.Filename != "main.tf" {
			t.Errorf("diagnostic in unexpected file: %s", d.Error())
		}
		out[line] = append(out[line], fmt.Sprintf("%s: %s", kind, d.Summary))
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}
