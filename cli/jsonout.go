package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/cli/views"
)

// writeValidateJSON prints `validate -json` output.
func writeValidateJSON(u *ui, diags hcl.Diagnostics) error {
	type out struct {
		FormatVersion string                    `json:"format_version"`
		Valid         bool                      `json:"valid"`
		ErrorCount    int                       `json:"error_count"`
		WarningCount  int                       `json:"warning_count"`
		Diagnostics   []views.DiagnosticMessage `json:"diagnostics"`
	}
	o := out{FormatVersion: "1.0", Valid: !diags.HasErrors(), Diagnostics: []views.DiagnosticMessage{}}
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			o.ErrorCount++
		} else {
			o.WarningCount++
		}
		o.Diagnostics = append(o.Diagnostics, views.DiagnosticJSON(d, u.files))
	}
	js, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintln(u.out, string(js))
	if diags.HasErrors() {
		return &exitError{1}
	}
	return nil
}

// writeUnifiedDiff writes a unified diff of two versions of a file,
// computed over lines with a longest-common-subsequence table (files
// given to fmt are small).
func writeUnifiedDiff(w io.Writer, name string, a, b []byte) {
	al := strings.SplitAfter(string(a), "\n")
	bl := strings.SplitAfter(string(b), "\n")
	n, m := len(al), len(bl)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if al[i] == bl[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else if lcs[i+1][j] >= lcs[i][j+1] {
				lcs[i][j] = lcs[i+1][j]
			} else {
				lcs[i][j] = lcs[i][j+1]
			}
		}
	}
	fmt.Fprintf(w, "--- old/%s\n+++ new/%s\n", name, name)
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && al[i] == bl[j]:
			fmt.Fprintf(w, " %s", ensureNewline(al[i]))
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(w, "+%s", ensureNewline(bl[j]))
			j++
		default:
			fmt.Fprintf(w, "-%s", ensureNewline(al[i]))
			i++
		}
	}
}

func ensureNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
