package cli

import (
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// writeCompactWarnings is -compact-warnings, as OpenTofu prints it on
// standard output: each warning's summary once, then where to find the
// rest. Only warnings that come without errors are shown this way.
func writeCompactWarnings(w io.Writer, diags hcl.Diagnostics) {
	var b strings.Builder
	b.WriteString("\nWarnings:\n\n")
	seen := map[string]bool{}
	for _, d := range diags {
		if seen[d.Summary] {
			continue
		}
		seen[d.Summary] = true
		b.WriteString("- " + d.Summary + "\n")
	}
	b.WriteString("\nTo see the full warning notes, run tenet without -compact-warnings.\n")
	io.WriteString(w, b.String())
}
