package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/plan"
)

// contractPath renders where inside an instance a provider broke the
// protocol: the instance address followed by the attribute path, such
// as test_thing.a.rule[0].uid.
func contractPath(addr addrs.AbsResourceInstance, path cty.Path) string {
	var b strings.Builder
	b.WriteString(addr.String())
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteByte('.')
			b.WriteString(s.Name)
		case cty.IndexStep:
			b.WriteByte('[')
			switch k := s.Key; {
			case !k.IsKnown() || k.IsNull():
				b.WriteString("?")
			case k.Type() == cty.String:
				b.WriteString(strconv.Quote(k.AsString()))
			case k.Type() == cty.Number:
				b.WriteString(k.AsBigFloat().Text('f', -1))
			default:
				b.WriteString("...") // set elements have no key worth showing
			}
			b.WriteByte(']')
		}
	}
	return b.String()
}

// contractError splits a check's error into the attribute it concerns and
// its message.
func contractError(addr addrs.AbsResourceInstance, err error) (string, string) {
	var pe cty.PathError
	if errors.As(err, &pe) {
		return contractPath(addr, pe.Path), pe.Error()
	}
	return addr.String(), err.Error()
}

const providerBug = "\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker."

// invalidPlanDiags reports the problems of a planned value, one error per
// problem, each naming the provider, the instance and the attribute.
func invalidPlanDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, errs []error) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, err := range errs {
		where, msg := contractError(addr, err)
		diags = append(diags, errorf(rng, "Provider produced invalid plan",
			"Provider %q planned an invalid value for %s: %s."+providerBug, provider, where, msg))
	}
	return diags
}

// inconsistentFinalPlanDiags reports a final plan (made at apply with the
// now-known configuration) that contradicts the plan the user approved.
func inconsistentFinalPlanDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, errs []error) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, err := range errs {
		where, msg := contractError(addr, err)
		diags = append(diags, errorf(rng, "Provider produced inconsistent final plan",
			"When expanding the plan for %s to include new values learned so far during apply, provider %q produced an invalid new value for %s: %s."+providerBug,
			addr, provider, where, msg))
	}
	return diags
}

// inconsistentResultDiags reports an applied object that differs from the
// final plan in a value the plan promised.
func inconsistentResultDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, errs []error) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, err := range errs {
		where, msg := contractError(addr, err)
		diags = append(diags, errorf(rng, "Provider produced inconsistent result after apply",
			"When applying changes to %s, provider %q produced an unexpected new value: %s: %s."+providerBug,
			addr, provider, where, msg))
	}
	return diags
}

// invalidObjectDiags reports an object that does not fit the schema.
func invalidObjectDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, what string, errs []error) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, err := range errs {
		where, msg := contractError(addr, err)
		diags = append(diags, errorf(rng, "Provider produced invalid object",
			"Provider %q produced an invalid value %s for %s: %s."+providerBug, provider, what, where, msg))
	}
	return diags
}

// unknownResultDiags reports, one error per path, the unknowns a provider
// left in an applied object.
func unknownResultDiags(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, paths []cty.Path) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range paths {
		diags = append(diags, errorf(rng, "Provider returned invalid result object after apply",
			"After the apply operation, provider %q returned an object for %s whose value at %s is still unknown. All values must be known after apply, so this is always a bug in the provider. tenet saved the object with that value set to null.",
			provider, addr, contractPath(addr, p)))
	}
	return diags
}

// finalActionDiag reports a final plan whose action differs from the
// approved one, for example an update that now requires replacement.
func finalActionDiag(rng *hcl.Range, provider addrs.Provider, addr addrs.AbsResourceInstance, planned, final plan.Action, paths []cty.Path) *hcl.Diagnostic {
	because := ""
	if len(paths) > 0 {
		var ps []string
		for _, p := range paths {
			ps = append(ps, contractPath(addr, p))
		}
		because = fmt.Sprintf(" (replacement required by %s)", strings.Join(ps, ", "))
	}
	return errorf(rng, "Provider produced inconsistent final plan",
		"When expanding the plan for %s to include new values learned so far during apply, provider %q changed the planned action from %s to %s%s."+providerBug,
		addr, provider, planned, final, because)
}
