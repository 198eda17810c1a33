package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func TestSortedForPeople(t *testing.T) {
	at := func(file string, start, end int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Byte: start}, End: hcl.Pos{Byte: end}}
	}
	diag := func(summary string, sev hcl.DiagnosticSeverity, r *hcl.Range) *hcl.Diagnostic {
		return &hcl.Diagnostic{Summary: summary, Severity: sev, Subject: r}
	}
	tests := []struct {
		name string
		in   hcl.Diagnostics
		want []string
	}{
		{"warnings before errors", hcl.Diagnostics{
			diag("e1", hcl.DiagError, at("main.tf", 1, 2)),
			diag("w1", hcl.DiagWarning, at("main.tf", 9, 10)),
		}, []string{"w1", "e1"}},
		{"no range first", hcl.Diagnostics{
			diag("ranged", hcl.DiagWarning, at("main.tf", 1, 2)),
			diag("unranged", hcl.DiagWarning, nil),
		}, []string{"unranged", "ranged"}},
		{"shallower files first, then by name", hcl.Diagnostics{
			diag("deep", hcl.DiagError, at("modules/a/main.tf", 0, 1)),
			diag("z", hcl.DiagError, at("z.tf", 5, 6)),
			diag("a", hcl.DiagError, at("a.tf", 50, 60)),
		}, []string{"a", "z", "deep"}},
		{"by start, then end", hcl.Diagnostics{
			diag("later", hcl.DiagWarning, at("main.tf", 30, 40)),
			diag("longer", hcl.DiagWarning, at("main.tf", 10, 25)),
			diag("shorter", hcl.DiagWarning, at("main.tf", 10, 20)),
		}, []string{"shorter", "longer", "later"}},
		{"equal ones keep their order", hcl.Diagnostics{
			diag("first", hcl.DiagWarning, at("main.tf", 10, 20)),
			diag("second", hcl.DiagWarning, at("main.tf", 10, 20)),
			diag("third", hcl.DiagWarning, nil),
			diag("fourth", hcl.DiagWarning, nil),
		}, []string{"third", "fourth", "first", "second"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range sortedForPeople(tt.in) {
				got = append(got, d.Summary)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
