package cli

import (
	"encoding/json"
	"fmt"

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
	u.addVarFileSources(diags)
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
