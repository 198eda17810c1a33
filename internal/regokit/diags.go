package regokit

import (
	"bytes"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
)

// ErrorDiags turns OPA's parse and compile errors into diagnostics naming
// file and line, one per error. An error that is not a list of OPA errors
// becomes one diagnostic with summary and the error's text.
func ErrorDiags(summary string, err error) hcl.Diagnostics {
	errs, ok := err.(ast.Errors)
	if !ok {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error() + "."}}
	}
	diags := make(hcl.Diagnostics, 0, len(errs))
	for _, e := range errs {
		diags = append(diags, LocatedDiag(summary, e.Location, e.Message+"."))
	}
	return diags
}

// LocatedDiag is an error diagnostic whose detail starts with FILE:LINE
// and whose subject is that position (the first line of loc's text).
func LocatedDiag(summary string, loc *ast.Location, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
	if loc == nil {
		return d
	}
	d.Detail = fmt.Sprintf("%s:%d: %s", loc.File, loc.Row, detail)
	text := loc.Text
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	start := hcl.Pos{Line: loc.Row, Column: loc.Col, Byte: loc.Offset}
	end := start
	end.Column += len(text)
	end.Byte += len(text)
	d.Subject = &hcl.Range{Filename: loc.File, Start: start, End: end}
	return d
}

// diagLine is the line a diagnostic points at (0 for none), by which
// diagnostics of one file are ordered.
func diagLine(d *hcl.Diagnostic) int {
	if d.Subject == nil {
		return 0
	}
	return d.Subject.Start.Line
}
