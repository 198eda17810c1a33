package providercall

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/internal/attrpath"
)

// ContractPath renders where inside an instance a provider broke the
// protocol: the instance address followed by the attribute path, such
// as test_thing.a.rule[0].uid.
func ContractPath(addr addrs.AbsResourceInstance, path cty.Path) string {
	s := attrpath.String(path)
	if len(path) > 0 && isAttr(path[0]) {
		s = "." + s
	}
	return addr.String() + s
}

func isAttr(s cty.PathStep) bool {
	_, ok := s.(cty.GetAttrStep)
	return ok
}

// contractError splits a check's error into the attribute it concerns and
// its message.
func contractError(addr addrs.AbsResourceInstance, err error) (string, string) {
	var pe cty.PathError
	if errors.As(err, &pe) {
		return ContractPath(addr, pe.Path), pe.Error()
	}
	return addr.String(), err.Error()
}

// eachContractError makes one diagnostic per error, from the attribute the
// error concerns and its message.
func eachContractError(addr addrs.AbsResourceInstance, errs []error, diag func(where, msg string) *hcl.Diagnostic) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, err := range errs {
		diags = append(diags, diag(contractError(addr, err)))
	}
	return diags
}

// BugNote ends every contract diagnostic: the fix belongs to the provider.
const BugNote = "\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker."

// InvalidPlanDiags reports the problems of a planned value, one error per
// problem, each naming the provider, the instance and the attribute.
func InvalidPlanDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, errs []error) hcl.Diagnostics {
	return eachContractError(addr, errs, func(where, msg string) *hcl.Diagnostic {
		return diagf(rng, "Provider produced invalid plan",
			"Provider %q planned an invalid value for %s: %s."+BugNote, provider, where, msg)
	})
}

// InconsistentFinalPlanDiags reports a final plan (made at apply with the
// now-known configuration) that contradicts the plan the user approved.
func InconsistentFinalPlanDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, errs []error) hcl.Diagnostics {
	return eachContractError(addr, errs, func(where, msg string) *hcl.Diagnostic {
		return diagf(rng, "Provider produced inconsistent final plan",
			"When expanding the plan for %s to include new values learned so far during apply, provider %q produced an invalid new value for %s: %s."+BugNote,
			addr, provider, where, msg)
	})
}

// InconsistentResultDiags reports an applied object that differs from the
// final plan in a value the plan promised.
func InconsistentResultDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, errs []error) hcl.Diagnostics {
	return eachContractError(addr, errs, func(where, msg string) *hcl.Diagnostic {
		return diagf(rng, "Provider produced inconsistent result after apply",
			"When applying changes to %s, provider %q produced an unexpected new value: %s: %s."+BugNote,
			addr, provider, where, msg)
	})
}

// InvalidObjectDiags reports an object that does not fit the schema.
func InvalidObjectDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, what string, errs []error) hcl.Diagnostics {
	return eachContractError(addr, errs, func(where, msg string) *hcl.Diagnostic {
		return diagf(rng, "Provider produced invalid object",
			"Provider %q produced an invalid value %s for %s: %s."+BugNote, provider, what, where, msg)
	})
}

// UnknownResultDiags reports, one error per path, the unknowns a provider
// left in an applied object.
func UnknownResultDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, paths []cty.Path) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range paths {
		diags = append(diags, diagf(rng, "Provider returned invalid result object after apply",
			"After the apply operation, provider %q returned an object for %s whose value at %s is still unknown. All values must be known after apply, so this is always a bug in the provider. tenet saved the object with that value set to null.",
			provider, addr, ContractPath(addr, p)))
	}
	return diags
}

// FinalActionDiag reports a final plan whose action differs from the
// approved one, for example an update that now requires replacement.
func FinalActionDiag(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, planned, final action.Action, paths []cty.Path) *hcl.Diagnostic {
	because := ""
	if len(paths) > 0 {
		var ps []string
		for _, p := range paths {
			ps = append(ps, ContractPath(addr, p))
		}
		because = fmt.Sprintf(" (replacement required by %s)", strings.Join(ps, ", "))
	}
	return diagf(rng, "Provider produced inconsistent final plan",
		"When expanding the plan for %s to include new values learned so far during apply, provider %q changed the planned action from %s to %s%s."+BugNote,
		addr, provider, planned, final, because)
}

func diagf(rng *hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng}
}
