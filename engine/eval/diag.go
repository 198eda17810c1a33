package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Errorf is an error diagnostic at rng.
func Errorf(rng *hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng}
}
