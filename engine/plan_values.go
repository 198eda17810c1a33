package engine

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/plan"
)

func convertValue(v cty.Value, want cty.Type) (cty.Value, error) {
	return convert.Convert(v, want)
}

// scopeFor is the scope of module instance m (no repetition).
func (ev *evaluator) scopeFor(m addrs.ModuleInstance, mod *config.Module) *scope {
	return &scope{ev: ev, mod: m, cfg: mod}
}

// convertVariable applies a variable's optional-attribute defaults and
// converts the value to its declared type.
func convertVariable(v *config.Variable, raw cty.Value) (cty.Value, error) {
	want := v.ConstraintType
	if want == cty.NilType {
		want = cty.DynamicPseudoType
	}
	if v.TypeDefaults != nil && !raw.IsNull() {
		raw = v.TypeDefaults.Apply(raw)
	}
	return convert.Convert(raw, want)
}

// evalVariable decides one input variable's value in one module instance.
func evalVariable(ev *evaluator, v *config.Variable, m addrs.ModuleInstance, raw cty.Value, rawRange *hcl.Range, given bool) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	subject := rawRange
	if subject == nil {
		subject = v.DeclRange.Ptr()
	}
	if !given || (raw.IsNull() && !v.Nullable) {
		if v.Default == cty.NilVal {
			if given {
				return cty.UnknownVal(v.ConstraintType), hcl.Diagnostics{errorf(subject, "Required variable not set",
					"Unsuitable value for var.%s set from outside of the configuration: required variable may not be set to null.", v.Name)}
			}
			return cty.UnknownVal(v.ConstraintType), hcl.Diagnostics{errorf(v.DeclRange.Ptr(), "No value for required variable",
				"The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", v.Name)}
		}
		raw = v.Default
	}
	val, err := convertVariable(v, raw)
	if err != nil {
		want := v.ConstraintType
		if want == cty.NilType {
			want = cty.DynamicPseudoType
		}
		where := "set from outside of the configuration"
		if !m.IsRoot() {
			where = "passed by the calling module"
		}
		return cty.UnknownVal(want), hcl.Diagnostics{errorf(subject, "Invalid value for input variable",
			"Unsuitable value for var.%s %s: %s.", v.Name, where, err)}
	}
	if v.Sensitive {
		val = val.Mark(sensitiveMark)
	}
	return val, append(diags, validateVariable(ev, v, m, val, subject)...)
}

// validateVariable runs a variable's validation rules. They see the
// variable itself and, since OpenTofu 1.9, the other variables, locals and
// data of the module (the graph orders the variable after them).
func validateVariable(ev *evaluator, v *config.Variable, m addrs.ModuleInstance, val cty.Value, subject *hcl.Range) hcl.Diagnostics {
	if len(v.Validations) == 0 {
		return nil
	}
	var diags hcl.Diagnostics
	cfg := checkable{kind: "var", module: m.Module(), name: v.Name}
	obj := checkedObject{module: m}
	report := func(status string, msgs ...string) {
		if ev.checks != nil {
			ev.checks.report(cfg, obj, status, msgs)
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
			diags = append(diags, errorf(rule.Condition.Range().Ptr(), "Invalid variable validation result", "The validation condition returned null; it must return true or false."))
			report(checkError)
			continue
		}
		if cond.Type() != cty.Bool {
			cv, err := convert.Convert(cond, cty.Bool)
			if err != nil {
				diags = append(diags, errorf(rule.Condition.Range().Ptr(), "Invalid variable validation result", "The validation condition must return a boolean: %s.", err))
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
func validationContext(ev *evaluator, v *config.Variable, m addrs.ModuleInstance, val cty.Value, rule *config.CheckRule) (*hcl.EvalContext, hcl.Diagnostics) {
	refs, diags := config.ReferencesInExpr(rule.Condition)
	msgRefs, d := config.ReferencesInExpr(rule.ErrorMessage)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, diags
	}
	mod := ev.cfg.Descendant(m.Module())
	if mod == nil {
		mod = ev.cfg.Root
	}
	ctx, d := ev.scopeFor(m, mod).evalContext(append(refs, msgRefs...))
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

func (w *planWalker) visitVariable(n *gnode) hcl.Diagnostics {
	return visitVariable(w.ev, w.opts.Variables, n)
}

// visitVariable evaluates a variable in every instance of its module.
func visitVariable(ev *evaluator, rootVals map[string]config.VariableValue, n *gnode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if n.mod.Path.IsRoot() {
		vv, given := rootVals[n.name]
		var rng *hcl.Range
		if given && vv.SourceRange.Filename != "" {
			rng = vv.SourceRange.Ptr()
		}
		raw := vv.Value
		if given && raw == cty.NilVal {
			given = false
		}
		val, d := evalVariable(ev, n.variable, addrs.RootModuleInstance, raw, rng, given)
		diags = append(diags, d...)
		ev.values.module(addrs.RootModuleInstance).set('v', n.name, val)
		return diags
	}
	parent := n.mod.Parent
	call := parent.ModuleCalls[n.mod.Path[len(n.mod.Path)-1]]
	var expr hcl.Expression
	if call != nil {
		attrs, _ := call.Config.JustAttributes()
		if a, ok := attrs[n.name]; ok {
			expr = a.Expr
		}
	}
	for _, mi := range ev.exp.moduleInstances(n.mod.Path) {
		raw := cty.NilVal
		given := false
		var rng *hcl.Range
		if expr != nil {
			s := &scope{ev: ev, mod: mi.Parent(), cfg: parent, rep: ev.exp.repetitionFor(mi)}
			v, d := s.evalExpr(expr, cty.DynamicPseudoType)
			diags = append(diags, d...)
			raw, given, rng = v, true, expr.Range().Ptr()
		}
		if !given && n.variable.Default == cty.NilVal {
			diags = append(diags, errorf(call.DeclRange.Ptr(), "Missing required argument",
				"The argument %q is required, but no definition was found.", n.name))
			ev.values.module(mi).set('v', n.name, cty.DynamicVal)
			continue
		}
		val, d := evalVariable(ev, n.variable, mi, raw, rng, given)
		diags = append(diags, d...)
		ev.values.module(mi).set('v', n.name, val)
	}
	return diags
}

func (w *planWalker) visitLocal(n *gnode) hcl.Diagnostics {
	return visitLocal(w.ev, n)
}

func visitLocal(ev *evaluator, n *gnode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, mi := range ev.exp.moduleInstances(n.mod.Path) {
		v, d := ev.scopeFor(mi, n.mod).evalExpr(n.local.Expr, cty.DynamicPseudoType)
		diags = append(diags, d...)
		ev.values.module(mi).set('l', n.name, v)
	}
	return diags
}

func (w *planWalker) visitOutput(n *gnode) hcl.Diagnostics {
	return visitOutput(w.ev, n)
}

func visitOutput(ev *evaluator, n *gnode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	cfg := checkable{kind: "output", module: n.mod.Path, name: n.name}
	if len(n.output.Preconditions) > 0 {
		ev.checks.declare(cfg)
	}
	for _, mi := range ev.exp.moduleInstances(n.mod.Path) {
		if len(n.output.Preconditions) > 0 {
			status, msgs, d := evalConditions(ev.scopeFor(mi, n.mod), n.output.Preconditions, cty.NilVal, outputPreconditionFailed, ev.condSeverity)
			diags = append(diags, d...)
			ev.checks.report(cfg, checkedObject{module: mi}, status, msgs)
			if d.HasErrors() {
				// The value is not evaluated: what it reads may be what
				// the precondition guards against.
				ev.values.module(mi).set('o', n.name, cty.DynamicVal)
				continue
			}
		}
		v, d := ev.scopeFor(mi, n.mod).evalExpr(n.output.Expr, cty.DynamicPseudoType)
		if !d.HasErrors() && mi.IsRoot() {
			d = append(d, checkValueDepth(v, n.output.Expr.Range().Ptr(), "The value of output "+n.name)...)
		}
		diags = append(diags, d...)
		if !d.HasErrors() && mi.IsRoot() {
			diags = append(diags, sensitiveOutputDiags(n, v)...)
		}
		if n.output.Sensitive {
			v = v.Mark(sensitiveMark)
		}
		ev.values.module(mi).set('o', n.name, v)
	}
	return diags
}

// sensitiveOutputDiags reports a root output that holds sensitive values
// without saying sensitive = true.
func sensitiveOutputDiags(n *gnode, v cty.Value) hcl.Diagnostics {
	if n.output.Sensitive || !v.ContainsMarked() {
		return nil
	}
	return hcl.Diagnostics{errorf(n.output.Expr.Range().Ptr(), "Output refers to sensitive values",
		"To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, tenet requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true")}
}

func (w *planWalker) visitCall(n *gnode) hcl.Diagnostics {
	return visitCall(w.ev, n)
}

// visitCall expands a module call in every instance of the calling module.
func visitCall(ev *evaluator, n *gnode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	childPath := n.mod.Path.Child(n.name)
	var kind byte
	var insts []addrs.ModuleInstance
	var reps []repetition
	for _, mi := range ev.exp.moduleInstances(n.mod.Path) {
		ik, d := ev.scopeFor(mi, n.mod).expand(n.call.Count, n.call.ForEach)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		kind = ik.kind
		if len(insts)+len(ik.keys) > maxInstances {
			return append(diags, tooManyInstancesInAll(repetitionRange(n.call.Count, n.call.ForEach), repetitionName(ik.kind)))
		}
		for i, k := range ik.keys {
			insts = append(insts, mi.Child(n.name, k))
			reps = append(reps, ik.reps[i])
		}
	}
	if n.call.Count != nil {
		kind = 'c'
	} else if n.call.ForEach != nil {
		kind = 'e'
	}
	ev.exp.addModuleInstances(childPath, kind, insts, reps)
	return diags
}

// rootOutputChanges compares root outputs with the prior state.
func (w *planWalker) rootOutputChanges() hcl.Diagnostics {
	root := w.ev.values.module(addrs.RootModuleInstance)
	seen := map[string]bool{}
	for name, out := range w.cfg.Root.Outputs {
		seen[name] = true
		after, ok := root.get('o', name)
		if !ok {
			continue
		}
		oc := &plan.OutputChange{Name: name, Sensitive: out.Sensitive || after.ContainsMarked()}
		after, _ = after.UnmarkDeep()
		oc.After = after
		prev := w.prevRun.Outputs[name]
		if w.opts.Mode == plan.DestroyMode {
			if prev == nil {
				continue
			}
			oc.Before, oc.After, oc.Action = prev.Value, cty.NullVal(cty.DynamicPseudoType), plan.Delete
			oc.Sensitive = oc.Sensitive || prev.Sensitive
			w.outputs = append(w.outputs, oc)
			continue
		}
		switch {
		case prev == nil:
			oc.Before = cty.NullVal(cty.DynamicPseudoType)
			oc.Action = plan.Create
			if after.IsNull() {
				oc.Action = plan.NoOp
			}
		default:
			oc.Before = prev.Value
			oc.Sensitive = oc.Sensitive || prev.Sensitive
			if after.IsWhollyKnown() && prev.Value.Type().Equals(after.Type()) && prev.Value.RawEquals(after) && prev.Sensitive == (out.Sensitive || oc.Sensitive) {
				oc.Action = plan.NoOp
			} else if after.IsWhollyKnown() && valuesEqual(prev.Value, after) && prev.Sensitive == oc.Sensitive {
				oc.Action = plan.NoOp
			} else {
				oc.Action = plan.Update
			}
		}
		w.outputs = append(w.outputs, oc)
	}
	for name, prev := range w.prevRun.Outputs {
		if seen[name] {
			continue
		}
		w.outputs = append(w.outputs, &plan.OutputChange{Name: name, Action: plan.Delete, Before: prev.Value, After: cty.NullVal(cty.DynamicPseudoType), Sensitive: prev.Sensitive})
	}
	return nil
}

// valuesEqual compares two known values semantically (types may differ
// in ways JSON cannot tell apart, e.g. tuple vs list from state).
func valuesEqual(a, b cty.Value) bool {
	if !a.IsWhollyKnown() || !b.IsWhollyKnown() {
		return false
	}
	ja, err1 := marshalDynamic(a)
	jb, err2 := marshalDynamic(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
