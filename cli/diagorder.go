package cli

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// sortedForPeople orders diagnostics as OpenTofu's human output does, so
// that what the walk found concurrently reads the same every run:
// warnings before errors; then those without a source range; then by file
// (shallower paths first, then by name) and position. Diagnostics equal
// in all of these keep their order. The JSON stream keeps the order they
// were found in, as OpenTofu's does.
func sortedForPeople(diags hcl.Diagnostics) hcl.Diagnostics {
	out := slices.Clone(diags)
	slices.SortStableFunc(out, func(a, b *hcl.Diagnostic) int {
		if a.Severity != b.Severity {
			if a.Severity == hcl.DiagWarning {
				return -1
			}
			if b.Severity == hcl.DiagWarning {
				return 1
			}
		}
		switch {
		case a.Subject == nil && b.Subject == nil:
			return 0
		case a.Subject == nil:
			return -1
		case b.Subject == nil:
			return 1
		}
		ra, rb := a.Subject, b.Subject
		if ra.Filename != rb.Filename {
			da, db := strings.Count(ra.Filename, string(filepath.Separator)), strings.Count(rb.Filename, string(filepath.Separator))
			if da != db {
				return da - db
			}
			return strings.Compare(ra.Filename, rb.Filename)
		}
		if ra.Start.Byte != rb.Start.Byte {
			return ra.Start.Byte - rb.Start.Byte
		}
		return ra.End.Byte - rb.End.Byte
	})
	return out
}
