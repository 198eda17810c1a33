package cli

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

// OpenTofu folds diagnostics that share a summary into the first of them,
// which then ends "(and N more similar warnings elsewhere)": a language
// feature used across a large configuration warns once, not a hundred
// times. Warnings are folded unless -consolidate-warnings=false, errors
// only with -consolidate-errors; diagnostics without a source range and
// the results of conditions and checks are never folded. The JSON view
// keeps every diagnostic.

// registerConsolidation adds -consolidate-warnings and -consolidate-errors
// to the commands OpenTofu takes them on; newUI reads them.
func registerConsolidation(cmd *cobra.Command) {
	cmd.Flags().Bool("consolidate-warnings", true, "fold warnings that share a summary into one (=false shows each)")
	cmd.Flags().Bool("consolidate-errors", false, "fold errors that share a summary into one")
}

// consolidationFlags reads the flags registerConsolidation adds; commands
// without them fold warnings and not errors, as OpenTofu's do.
func consolidationFlags(cmd *cobra.Command) (warnings, errors bool) {
	warnings = true
	if f := cmd.Flags().Lookup("consolidate-warnings"); f != nil {
		warnings = f.Value.String() == "true"
	}
	if f := cmd.Flags().Lookup("consolidate-errors"); f != nil {
		errors = f.Value.String() == "true"
	}
	return warnings, errors
}

// keptApart marks diagnostics that are never folded (condition results).
type keptApart interface{ DoNotConsolidateDiagnostic() bool }

// consolidate folds the diagnostics of severity sev that share a summary
// into the first one, in place of it.
func consolidate(diags hcl.Diagnostics, sev hcl.DiagnosticSeverity) hcl.Diagnostics {
	out := make(hcl.Diagnostics, 0, len(diags))
	group := map[string]int{} // summary → index in out
	extra := map[int]int{}    // index in out → how many were folded into it
	for _, d := range diags {
		if k, ok := d.Extra.(keptApart); d.Severity != sev || d.Subject == nil || (ok && k.DoNotConsolidateDiagnostic()) {
			out = append(out, d)
			continue
		}
		if i, ok := group[d.Summary]; ok {
			extra[i]++
			continue
		}
		group[d.Summary] = len(out)
		out = append(out, d)
	}
	for i, n := range extra {
		c := *out[i]
		kind := "warning"
		if sev == hcl.DiagError {
			kind = "error"
		}
		msg := fmt.Sprintf("(and %d more similar %ss elsewhere)", n, kind)
		if n == 1 {
			msg = fmt.Sprintf("(and one more similar %s elsewhere)", kind)
		}
		if c.Detail != "" {
			c.Detail += "\n\n" + msg
		} else {
			c.Detail = msg
		}
		out[i] = &c
	}
	return out
}
