package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/config"
)

// Conditions (preconditions, postconditions, output preconditions, check
// assertions, variable validations) are evaluated where OpenTofu evaluates
// them: they are expressions the author wrote, not planning decisions the
// rules make, so they run in Go beside the walk and their failures are
// diagnostics.

// Summaries of a failed condition, by the kind of block it belongs to.
const (
	ResourcePreconditionFailed  = "Resource precondition failed"
	ResourcePostconditionFailed = "Resource postcondition failed"
	OutputPreconditionFailed    = "Module output value precondition failed"
	CheckAssertionFailed        = "Check block assertion failed"
)

// Statuses of a checkable object, as the JSON plan and the state spell them.
const (
	checkPass    = "pass"
	checkFail    = "fail"
	checkError   = "error"
	checkUnknown = "unknown"
)

// conditionResult is the outcome of one rule.
type conditionResult struct {
	status  string
	message string // the error_message of a failed rule
}

// EvalConditions evaluates rules in scope s (self, when not cty.NilVal,
// is what `self` means) and reports failures as summary diagnostics of
// the given severity. The status combines every rule: a failure wins over
// an unknown result, which wins over a pass.
func EvalConditions(s *Scope, rules []*config.CheckRule, self cty.Value, summary string, severity hcl.DiagnosticSeverity) (string, []string, hcl.Diagnostics) {
	status := checkPass
	var messages []string
	var diags hcl.Diagnostics
	for _, rule := range rules {
		r, d := evalCondition(s, rule, self, summary, severity)
		diags = append(diags, d...)
		switch {
		case r.status == checkError || status == checkError:
			status = checkError
		case r.status == checkFail || status == checkFail:
			status = checkFail
		case r.status == checkUnknown:
			status = checkUnknown
		}
		if r.status == checkFail {
			messages = append(messages, r.message)
		}
	}
	return status, messages, diags
}

func evalCondition(s *Scope, rule *config.CheckRule, self cty.Value, summary string, severity hcl.DiagnosticSeverity) (conditionResult, hcl.Diagnostics) {
	refs, diags := config.ReferencesInExpr(rule.Condition)
	msgRefs, d := config.ReferencesInExpr(rule.ErrorMessage)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return conditionResult{status: checkError}, Downgrade(diags, severity)
	}
	if self != cty.NilVal {
		withSelf := *s
		withSelf.selfAvailable = true
		s = &withSelf
	}
	ctx, marked, d := s.evalContext(append(refs, msgRefs...), true)
	diags = append(diags, d...)
	if d.HasErrors() {
		return conditionResult{status: checkError}, Downgrade(diags, severity)
	}
	if self != cty.NilVal {
		ctx.Variables["self"] = self
	}
	rng := rule.Condition.Range().Ptr()
	v, d := rule.Condition.Value(ctx)
	diags = append(diags, d...)
	if marked {
		v, d = extractDeprecatedWithExpr(v, rule.Condition)
		diags = append(diags, d...)
	}
	if d.HasErrors() {
		return conditionResult{status: checkError}, Downgrade(diags, severity)
	}
	if !v.IsKnown() {
		// Decided later, at apply, once the values it needs are known. A
		// check block's assertion says so (its failure would only warn, so
		// the reader learns now that nothing was checked yet); other
		// conditions stop the apply if they fail, so they stay silent.
		if summary == CheckAssertionFailed {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning, Summary: "Check block assertion known after apply", Subject: rng,
				Detail:     "The condition could not be evaluated at this time, a result will be known when this plan is applied.",
				Expression: rule.Condition, EvalContext: ctx,
			})
		}
		return conditionResult{status: checkUnknown}, diags
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return conditionResult{status: checkError}, append(diags, &hcl.Diagnostic{
			Severity: severity, Summary: "Invalid condition result", Subject: rng,
			Detail: "The condition expression returned null. A condition must return either true or false.",
		})
	}
	b, err := convert.Convert(v, cty.Bool)
	if err != nil {
		return conditionResult{status: checkError}, append(diags, &hcl.Diagnostic{
			Severity: severity, Summary: "Invalid condition result", Subject: rng,
			Detail: fmt.Sprintf("The condition expression must return true or false: %s.", err),
		})
	}
	if b.True() {
		return conditionResult{status: checkPass}, diags
	}
	msg, d := conditionMessage(rule, ctx, marked)
	diags = append(diags, Downgrade(d, severity)...)
	return conditionResult{status: checkFail, message: msg}, append(diags, &hcl.Diagnostic{
		Severity: severity, Summary: summary, Detail: msg, Subject: rng,
		Expression: rule.Condition, EvalContext: ctx, Extra: ConditionResult{},
	})
}

// ConditionResult is the Extra of a failed condition's diagnostic: each
// one reports its own rule, so the CLI never folds them together as it
// folds repeated warnings.
type ConditionResult struct{}

// DoNotConsolidateDiagnostic keeps the diagnostic apart.
func (ConditionResult) DoNotConsolidateDiagnostic() bool { return true }

// conditionMessage evaluates a failed rule's error_message.
func conditionMessage(rule *config.CheckRule, ctx *hcl.EvalContext, marked bool) (string, hcl.Diagnostics) {
	v, diags := rule.ErrorMessage.Value(ctx)
	if diags.HasErrors() {
		return "Failed to evaluate the condition's error message.", diags
	}
	if marked {
		var warnings hcl.Diagnostics
		v, warnings = extractDeprecatedWithExpr(v, rule.ErrorMessage)
		diags = append(diags, warnings...)
	}
	if !v.IsKnown() {
		return "The condition's error message refers to values that are not known yet.", diags
	}
	if v.IsMarked() {
		return "The error message included a sensitive value, so it will not be displayed.", diags
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil || s.IsNull() {
		return "The condition's error message is not a string.", append(diags, Errorf(rule.ErrorMessage.Range().Ptr(), "Invalid error message", "The error_message must be a string."))
	}
	return strings.TrimSpace(s.AsString()), diags
}

// Downgrade turns errors into diagnostics of the given severity: check
// blocks and refresh-only plans only warn.
func Downgrade(diags hcl.Diagnostics, severity hcl.DiagnosticSeverity) hcl.Diagnostics {
	if severity == hcl.DiagError {
		return diags
	}
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		if c.Severity == hcl.DiagError {
			c.Severity = severity
		}
		out[i] = &c
	}
	return out
}

// FromCheckBlock is the Extra of a diagnostic a check block produced: an
// assertion's result or a problem of a data source declared in the block.
// An apply that asks no approval leaves out those of its plan, as
// OpenTofu does, since the apply runs the checks again. Had is the Extra
// the diagnostic carried before (a provider diagnostic's resource address).
type FromCheckBlock struct{ Had any }

// DiagnosticFromCheckBlock tells the CLI where the diagnostic came from.
func (FromCheckBlock) DiagnosticFromCheckBlock() bool { return true }

// DoNotConsolidateDiagnostic keeps a check block's diagnostics apart, as
// condition results are (ConditionResult).
func (FromCheckBlock) DoNotConsolidateDiagnostic() bool { return true }

// DiagnosticResourceAddress passes on the address the diagnostic had.
func (f FromCheckBlock) DiagnosticResourceAddress() string {
	if a, ok := f.Had.(interface{ DiagnosticResourceAddress() string }); ok {
		return a.DiagnosticResourceAddress()
	}
	return ""
}

// MarkFromCheckBlock returns copies of diags marked as a check block's.
func MarkFromCheckBlock(diags hcl.Diagnostics) hcl.Diagnostics {
	if len(diags) == 0 {
		return diags
	}
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		if _, done := c.Extra.(FromCheckBlock); !done {
			c.Extra = FromCheckBlock{Had: c.Extra}
		}
		out[i] = &c
	}
	return out
}
