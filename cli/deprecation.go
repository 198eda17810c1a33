package cli

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// deprecationLevel is -deprecation=module:LEVEL: which warnings about
// modules' deprecated variables and outputs human output shows. As in
// OpenTofu, -json output shows them all.
type deprecationLevel uint8

const (
	deprecationAll   deprecationLevel = iota
	deprecationLocal                  // hide those about calls made inside non-local modules
	deprecationNone
)

// parseDeprecationLevel reads the flag's value; OpenTofu takes any value
// it does not know (or one without "module:") as all.
func parseDeprecationLevel(s string) deprecationLevel {
	switch strings.TrimPrefix(s, "module:") {
	case "local":
		return deprecationLocal
	case "none":
		return deprecationNone
	}
	return deprecationAll
}

// filter leaves out the deprecation warnings the level hides.
func (l deprecationLevel) filter(diags hcl.Diagnostics) hcl.Diagnostics {
	if l == deprecationAll {
		return diags
	}
	var kept hcl.Diagnostics
	for _, d := range diags {
		if remote, ok := deprecationWarning(d); ok && (l == deprecationNone || remote) {
			continue
		}
		kept = append(kept, d)
	}
	return kept
}

// deprecationWarning reports whether d warns about a module's deprecated
// variable or output (the evaluator marks them), and whether it concerns
// a call made from a remote module.
func deprecationWarning(d *hcl.Diagnostic) (remote, ok bool) {
	switch x := d.Extra.(type) {
	case interface{ DeprecationFromRemoteModule() bool }:
		return x.DeprecationFromRemoteModule(), true
	case interface{ DeprecationFromRemoteModule() (bool, bool) }:
		return x.DeprecationFromRemoteModule()
	}
	return false, false
}
