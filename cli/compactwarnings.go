package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/cli/views"
)

// writeCompactWarnings is -compact-warnings, as OpenTofu prints it on
// standard output: each warning's summary, with the file and line it is
// about, then where to find the rest. Only warnings that come without
// errors are shown this way.
func writeCompactWarnings(w io.Writer, diags hcl.Diagnostics, color bool) {
	var b strings.Builder
	b.WriteString("\n")
	b.WriteString(views.Colorize("[bold][yellow]Warnings:[reset]\n\n", color))
	for _, d := range diags {
		b.WriteString("- " + d.Summary + "\n")
		if d.Subject != nil && d.Subject.Filename != "" {
			fmt.Fprintf(&b, "  on %s line %d\n", d.Subject.Filename, d.Subject.Start.Line)
		}
	}
	b.WriteString("\nTo see the full warning notes, run tenet without -compact-warnings.\n")
	io.WriteString(w, b.String())
}
