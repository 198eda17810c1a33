package backend

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Error is a single error diagnostic without a source range: backends
// report on operations, not on configuration text.
func Error(summary, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail}}
}

// Errorf is Error with a formatted detail.
func Errorf(summary, format string, args ...any) hcl.Diagnostics {
	return Error(summary, fmt.Sprintf(format, args...))
}

// LockHeld is the Extra of the diagnostic saying someone else holds a
// lock; Holder is nil when the backend cannot tell who.
type LockHeld struct {
	Holder *LockInfo
}

// LockConflict reports that the lock of the state at where is held by
// someone else, naming the holder when known.
func LockConflict(where string, holder *LockInfo, reason string) hcl.Diagnostics {
	detail := fmt.Sprintf("The state at %s is locked by another operation", where)
	if reason != "" {
		detail += " (" + reason + ")"
	}
	detail += "."
	if holder != nil {
		detail += "\n\nLock Info:\n" + holder.String()
	}
	detail += "\nWait for that operation to finish and try again, or pass -lock-timeout to wait for it. If you are sure no one is using the state, release the lock with `tenet force-unlock` and the holder's ID."
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Error acquiring the state lock",
		Detail:   detail,
		Extra:    LockHeld{Holder: holder},
	}}
}

// Holder returns the lock holder carried by a LockConflict diagnostic, and
// whether diags contain one.
func Holder(diags hcl.Diagnostics) (*LockInfo, bool) {
	for _, d := range diags {
		if h, ok := d.Extra.(LockHeld); ok {
			return h.Holder, true
		}
	}
	return nil, false
}

// workspacesUnsupported is the Extra of the diagnostic a backend with only
// the default workspace answers a workspace operation with.
type workspacesUnsupported struct{}

// WorkspacesUnsupported reports that a backend of type typ keeps only the
// default workspace.
func WorkspacesUnsupported(typ string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("The %s backend does not support workspaces", typ),
		Detail:   fmt.Sprintf("The %s backend stores one state at its address, so it has only the default workspace. Configure another address (a separate backend configuration) for each environment instead.", typ),
		Extra:    workspacesUnsupported{},
	}}
}

// IsWorkspacesUnsupported says whether diags hold a WorkspacesUnsupported
// diagnostic, which commands report in OpenTofu's words.
func IsWorkspacesUnsupported(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if _, ok := d.Extra.(workspacesUnsupported); ok {
			return true
		}
	}
	return false
}
