package phase

import (
	"github.com/hashicorp/hcl/v2"
)

// ReportHaltOnce keeps one "execution halted" error however many nodes
// were cut short, and adds it when the walk itself was cut short.
func ReportHaltOnce(diags hcl.Diagnostics, walkHalted bool) hcl.Diagnostics {
	out := diags[:0:0]
	halted := walkHalted
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary == haltedSummary && d.Detail == "" {
			halted = true
			continue
		}
		out = append(out, d)
	}
	if halted {
		// First, as OpenTofu lists it, before the errors of the
		// operations the interrupt stopped.
		out = append(hcl.Diagnostics{HaltedDiag()}, out...)
	}
	return out
}

const haltedSummary = "execution halted"

// HaltedDiag reports a walk cut short by an interrupt: what did not run
// is not in the result. OpenTofu words it the same way.
func HaltedDiag() *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: haltedSummary}
}
