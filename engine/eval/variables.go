package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
)

func ConvertValue(v cty.Value, want cty.Type) (cty.Value, error) {
	return convert.Convert(v, want)
}

// ScopeFor is the scope of module instance m (no repetition).
func (ev *Evaluator) ScopeFor(m addrs.ModuleInstance, mod *config.Module) *Scope {
	return &Scope{Ev: ev, Mod: m, Cfg: mod}
}

// ConvertVariable applies a variable's optional-attribute defaults and
// converts the value to its declared type.
func ConvertVariable(v *config.Variable, raw cty.Value) (cty.Value, error) {
	want := v.ConstraintType
	if want == cty.NilType {
		want = cty.DynamicPseudoType
	}
	if v.TypeDefaults != nil && !raw.IsNull() {
		raw = v.TypeDefaults.Apply(raw)
	}
	return convert.Convert(raw, want)
}

// EvalVariable decides one input variable's value in a module instance
// called by another module; rawRange is the argument of the module call.
func EvalVariable(ev *Evaluator, v *config.Variable, m addrs.ModuleInstance, raw cty.Value, rawRange *hcl.Range, given bool) (cty.Value, hcl.Diagnostics) {
	subject := rawRange
	if subject == nil {
		subject = v.DeclRange.Ptr()
	}
	where := "passed by the calling module"
	if m.IsRoot() {
		where = "set from outside of the configuration"
	}
	unsuitable := func(err error) *hcl.Diagnostic {
		return Errorf(subject, "Invalid value for input variable", "Unsuitable value for var.%s %s: %s.", v.Name, where, err)
	}
	return evalVariable(ev, v, m, raw, given, unsuitable, subject, subject)
}

// EvalRootVariable decides a root module variable's value from the value
// given for it (if given). Its diagnostics name where the value came from
// the way OpenTofu does: the environment variable or -var option, pointing
// at the declaration, or the variables file, pointing at the value.
func EvalRootVariable(ev *Evaluator, v *config.Variable, vv config.VariableValue, given bool) (cty.Value, hcl.Diagnostics) {
	decl := v.DeclRange.Ptr()
	var where string
	switch vv.SourceType {
	case config.ValueFromEnv:
		where = fmt.Sprintf("set using the TF_VAR_%s environment variable", v.Name)
	case config.ValueFromCLI:
		where = fmt.Sprintf("set using -var=\"%s=...\"", v.Name)
	case config.ValueFromInput:
		where = "set using an interactive prompt"
	default:
		where = "set from outside of the configuration"
	}
	unsuitable := func(err error) *hcl.Diagnostic {
		return Errorf(decl, "Invalid value for input variable", "Unsuitable value for var.%s %s: %s.", v.Name, where, err)
	}
	nullSubject := decl
	if vv.SourceType == config.ValueFromFile && vv.SourceRange.Filename != "" {
		valueRange := vv.SourceRange.Ptr()
		nullSubject = valueRange
		unsuitable = func(err error) *hcl.Diagnostic {
			return Errorf(valueRange, "Invalid value for input variable",
				"The given value is not suitable for var.%s declared at %s: %s.", v.Name, declPos(v.DeclRange), err)
		}
	}
	return evalVariable(ev, v, addrs.RootModuleInstance, vv.Value, given, unsuitable, nullSubject, decl)
}

// declPos is a declaration's range as OpenTofu's messages print it:
// file:line,column-column.
func declPos(r hcl.Range) string {
	return fmt.Sprintf("%s:%d,%d-%d", r.Filename, r.Start.Line, r.Start.Column, r.End.Column)
}

// evalVariable converts and validates a variable's value; unsuitable
// describes a conversion failure, nullSubject is where a null for a
// required variable is reported and ruleSubject where failed rules are.
func evalVariable(ev *Evaluator, v *config.Variable, m addrs.ModuleInstance, raw cty.Value, given bool, unsuitable func(error) *hcl.Diagnostic, nullSubject, ruleSubject *hcl.Range) (cty.Value, hcl.Diagnostics) {
	if !given || (raw.IsNull() && !v.Nullable) {
		if v.Default == cty.NilVal {
			if given {
				return cty.UnknownVal(v.ConstraintType), hcl.Diagnostics{Errorf(nullSubject, "Required variable not set",
					"Unsuitable value for var.%s set from outside of the configuration: required variable may not be set to null.", v.Name)}
			}
			return cty.UnknownVal(v.ConstraintType), hcl.Diagnostics{config.NoValueForRequiredVariable(v)}
		}
		raw = v.Default
	}
	val, err := ConvertVariable(v, raw)
	if err != nil {
		want := v.ConstraintType
		if want == cty.NilType {
			want = cty.DynamicPseudoType
		}
		return cty.UnknownVal(want), hcl.Diagnostics{unsuitable(err)}
	}
	if v.Sensitive {
		val = val.Mark(SensitiveMark)
	}
	return val, validateVariable(ev, v, m, val, ruleSubject)
}

// validateVariable runs a variable's validation rules. They see the
// variable itself and, since OpenTofu 1.9, the other variables, locals and
// data of the module (the graph orders the variable after them).
func validateVariable(ev *Evaluator, v *config.Variable, m addrs.ModuleInstance, val cty.Value, subject *hcl.Range) hcl.Diagnostics {
	if len(v.Validations) == 0 {
		return nil
	}
	var diags hcl.Diagnostics
	cfg := Checkable{Kind: "var", Module: m.Module(), Name: v.Name}
	obj := CheckedObject{Module: m}
	report := func(status string, msgs ...string) {
		if ev.Checks != nil {
			ev.Checks.Report(cfg, obj, status, msgs)
		}
	}
	for _, rule := range v.Validations {
		ctx, d := validationContext(ev, v, m, val, rule)
		if d.HasErrors() {
			diags = append(diags, d...)
			report(checkError)
			continue
		}
		cond, d := rule.Condition.Value(ctx)
		if d.HasErrors() {
			diags = append(diags, d...)
			report(checkError)
			continue
		}
		if !cond.IsKnown() {
			report(checkUnknown)
			continue
		}
		cond, _ = cond.Unmark()
		if cond.IsNull() {
			diags = append(diags, Errorf(rule.Condition.Range().Ptr(), "Invalid variable validation result", "The validation condition returned null; it must return true or false."))
			report(checkError)
			continue
		}
		if cond.Type() != cty.Bool {
			cv, err := convert.Convert(cond, cty.Bool)
			if err != nil {
				diags = append(diags, Errorf(rule.Condition.Range().Ptr(), "Invalid variable validation result", "The validation condition must return a boolean: %s.", err))
				report(checkError)
				continue
			}
			cond = cv
		}
		if cond.True() {
			report(checkPass)
			continue
		}
		msg := "The variable failed its validation rule."
		if mv, d := rule.ErrorMessage.Value(ctx); !d.HasErrors() && mv.IsKnown() && !mv.IsNull() {
			if sv, err := convert.Convert(mv, cty.String); err == nil {
				if sv.IsMarked() {
					msg = "The error message included a sensitive value, so it will not be displayed."
				} else {
					msg = sv.AsString()
				}
			}
		}
		report(checkFail, msg)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for variable",
			Detail:   fmt.Sprintf("%s\n\nThis was checked by the validation rule at %s.", msg, rule.DeclRange.String()),
			Subject:  subject,
			// The values the condition saw, shown under the excerpt.
			Expression:  rule.Condition,
			EvalContext: ctx,
		})
	}
	return diags
}

// validationContext builds the evaluation context of one validation rule
// of v in module instance m, where v has the value val.
func validationContext(ev *Evaluator, v *config.Variable, m addrs.ModuleInstance, val cty.Value, rule *config.CheckRule) (*hcl.EvalContext, hcl.Diagnostics) {
	refs, diags := config.ReferencesInExpr(rule.Condition)
	msgRefs, d := config.ReferencesInExpr(rule.ErrorMessage)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, diags
	}
	mod := ev.Cfg.Descendant(m.Module())
	if mod == nil {
		mod = ev.Cfg.Root
	}
	ctx, d := ev.ScopeFor(m, mod).EvalContext(append(refs, msgRefs...))
	diags = append(diags, d...)
	vars := map[string]cty.Value{}
	if obj, ok := ctx.Variables["var"]; ok && obj.Type().IsObjectType() {
		for name, av := range obj.AsValueMap() {
			vars[name] = av
		}
	}
	vars[v.Name] = val
	ctx.Variables["var"] = cty.ObjectVal(vars)
	return ctx, diags
}
