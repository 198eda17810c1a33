package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config/funcs"
)

// This file is early evaluation: the few expressions that must have a
// value before anything else can be read (module sources and versions,
// the backend block) may use input variables, locals, path.* and
// terraform.workspace, and functions. Everything else a module can
// refer to (resources, data, module outputs, count and each, provider
// functions) only exists once the plan walk has started, so referring to
// it here is an error at the reference.

// StaticInputs are what early evaluation takes from outside the
// configuration.
type StaticInputs struct {
	// Variable gives the value a root module variable was given (on the
	// command line, in a tfvars file, in the environment, or at a prompt),
	// its default when it was given none, or the diagnostics that say why
	// there is none. root is the root module, whose variables are all
	// declared by then. Nil means no values were given: defaults only.
	Variable func(root *Module, v *Variable) (cty.Value, hcl.Diagnostics)
	// Workspace is terraform.workspace; "" means "default".
	Workspace string
}

// staticFrame is one value being computed early: its name in messages
// ("module.m.source", "local.x", "module.c:var.y") and where it stands.
type staticFrame struct {
	module    addrs.Module
	subject   string
	declRange hcl.Range
}

func (f staticFrame) String() string {
	if len(f.module) == 0 {
		return f.subject
	}
	return f.module.String() + ":" + f.subject
}

// staticEval evaluates early expressions in one module: its variables come
// from vars (the inputs for the root, the calling module's arguments for
// a child).
type staticEval struct {
	mod       *Module
	vars      func(v *Variable) (cty.Value, hcl.Diagnostics)
	rootDir   string
	workspace string
	funcs     map[string]function.Function
}

func (e *staticEval) functions() map[string]function.Function {
	if e.funcs == nil {
		// Files are read relative to the working directory, as the
		// engine's functions read them; impure functions run.
		e.funcs = funcs.Table(funcs.Options{})
	}
	return e.funcs
}

// evaluate computes expr for the value the frame names (the bottom of
// the stack): references are checked first, then each one is resolved,
// and evaluation happens only when all of them could be.
func (e *staticEval) evaluate(expr hcl.Expression, stack []staticFrame) (cty.Value, hcl.Diagnostics) {
	refs, diags := addrs.References(expr.Variables())
	if len(refs) == 0 && !diags.HasErrors() && isLiteral(expr) {
		// The common case, a literal source: no context to build.
		return expr.Value(nil)
	}
	ctx, d := e.evalContext(refs, providerFunctionCalls(expr), stack)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, d := expr.Value(ctx)
	return v, append(diags, d...)
}

// evalContext builds the context for refs, or the reasons they cannot be
// used early.
func (e *staticEval) evalContext(refs []*addrs.Reference, provFuncs []*hclsyntax.FunctionCallExpr, stack []staticFrame) (*hcl.EvalContext, hcl.Diagnostics) {
	ctx := &hcl.EvalContext{Functions: e.functions(), Variables: map[string]cty.Value{}}
	top := stack[len(stack)-1]
	var diags hcl.Diagnostics
	for _, ref := range refs {
		switch subj := ref.Subject.(type) {
		case addrs.LocalValue, addrs.InputVariable, addrs.PathAttr, addrs.TerraformAttr:
			continue
		case addrs.ModuleCall:
			// module.NAME.OUTPUT: an output, named as such.
			if len(ref.Remaining) > 0 {
				if a, ok := ref.Remaining[0].(hcl.TraverseAttr); ok {
					diags = append(diags, staticRefError("Module output not supported in static context", subj.String()+"."+a.Name, top, hcl.RangeBetween(ref.SourceRange, a.SrcRange)))
					continue
				}
			}
		}
		diags = append(diags, staticRefError("Dynamic value in static context", ref.Subject.String(), top, ref.SourceRange))
	}
	for _, call := range provFuncs {
		diags = append(diags, staticRefError("Provider function in static context", call.Name, top, call.NameRange))
	}
	if diags.HasErrors() {
		return ctx, diags
	}
	vars, locals, paths, tf := map[string]cty.Value{}, map[string]cty.Value{}, map[string]cty.Value{}, map[string]cty.Value{}
	for _, ref := range refs {
		var v cty.Value
		var d hcl.Diagnostics
		switch subj := ref.Subject.(type) {
		case addrs.InputVariable:
			v, d = e.variable(subj, ref.SourceRange, stack)
			vars[subj.Name] = v
		case addrs.LocalValue:
			v, d = e.local(subj, ref.SourceRange, stack)
			locals[subj.Name] = v
		case addrs.PathAttr:
			v, d = e.pathAttr(subj, ref.SourceRange)
			paths[subj.Name] = v
		case addrs.TerraformAttr:
			v, d = e.terraformAttr(subj, ref.SourceRange)
			tf[subj.Name] = v
		}
		diags = append(diags, d...)
	}
	for name, m := range map[string]map[string]cty.Value{"var": vars, "local": locals, "path": paths, "terraform": tf} {
		if len(m) > 0 {
			ctx.Variables[name] = cty.ObjectVal(m)
		}
	}
	return ctx, diags
}

func staticRefError(summary, what string, top staticFrame, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf("Unable to use %s in static context, which is required by %s", what, top),
		Subject:  rng.Ptr(),
	}
}

// providerFunctionCalls finds the calls of provider-defined functions in
// expr: providers are not running yet when early values are computed.
func providerFunctionCalls(expr hcl.Expression) []*hclsyntax.FunctionCallExpr {
	se, ok := expr.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	var out []*hclsyntax.FunctionCallExpr
	hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.HasPrefix(call.Name, "provider::") {
			out = append(out, call)
		}
		return nil
	})
	return out
}

// isLiteral says expr is a quoted string or other literal without
// interpolations or function calls (in native syntax).
func isLiteral(expr hcl.Expression) bool {
	switch x := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		for _, part := range x.Parts {
			if _, ok := part.(*hclsyntax.LiteralValueExpr); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// push is stack with f on top, or the error that f is already being
// computed further down.
func push(stack []staticFrame, f staticFrame) ([]staticFrame, hcl.Diagnostics) {
	for _, g := range stack {
		if g.String() == f.String() {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Circular reference",
				Detail:   fmt.Sprintf("%s is self referential", f),
				Subject:  f.declRange.Ptr(),
			}}
		}
	}
	return append(append([]staticFrame(nil), stack...), f), nil
}

// dependsOn adds, when diags has errors, the error that the value on top
// of stack could not be computed for want of dep.
func dependsOn(stack []staticFrame, dep staticFrame, diags hcl.Diagnostics) hcl.Diagnostics {
	if !diags.HasErrors() {
		return diags
	}
	top := stack[len(stack)-1]
	return append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unable to compute static value",
		Detail:   fmt.Sprintf("%s depends on %s which is not available", top, dep),
		Subject:  top.declRange.Ptr(),
	})
}

func (e *staticEval) local(ref addrs.LocalValue, rng hcl.Range, stack []staticFrame) (cty.Value, hcl.Diagnostics) {
	l, ok := e.mod.Locals[ref.Name]
	if !ok {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Undefined local",
			Detail:   fmt.Sprintf("Undefined local %s", ref),
			Subject:  rng.Ptr(),
		}}
	}
	f := staticFrame{module: e.mod.Path, subject: "local." + l.Name, declRange: l.DeclRange}
	inner, diags := push(stack, f)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, diags := e.evaluate(l.Expr, inner)
	return v, dependsOn(stack, f, diags)
}

// variable is a variable's value as the module sees it: converted to its
// type, with its default for null when it is not nullable, and marked
// sensitive when it is declared so.
func (e *staticEval) variable(ref addrs.InputVariable, rng hcl.Range, stack []staticFrame) (cty.Value, hcl.Diagnostics) {
	v, ok := e.mod.Variables[ref.Name]
	if !ok {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Undefined variable",
			Detail:   fmt.Sprintf("Undefined variable %s", ref),
			Subject:  rng.Ptr(),
		}}
	}
	f := staticFrame{module: e.mod.Path, subject: "var." + v.Name, declRange: v.DeclRange}
	val, diags := e.vars(v)
	if diags.HasErrors() {
		return cty.DynamicVal, dependsOn(stack, f, diags)
	}
	if v.TypeDefaults != nil && !val.IsNull() {
		val = v.TypeDefaults.Apply(val)
	}
	converted, err := convert.Convert(val, v.ConstraintType)
	if err != nil {
		// As OpenTofu, this error alone: the values depending on it
		// are not reported again.
		return cty.UnknownVal(v.Type), append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for input variable",
			Detail:   fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.", f.subject, f.declRange, err),
		})
	}
	val = converted
	if val.IsNull() && !v.Nullable {
		if v.Default != cty.NilVal {
			val = v.Default
		} else {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Required variable not set",
				Detail:   fmt.Sprintf("The given value is not suitable for %s defined at %s: required variable may not be set to null.", f.subject, f.declRange),
				Subject:  f.declRange.Ptr(),
			})
		}
	}
	if v.Sensitive {
		val = val.Mark(funcs.SensitiveMark)
	}
	return val, dependsOn(stack, f, diags)
}

func (e *staticEval) pathAttr(ref addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch ref.Name {
	case "cwd":
		wd, err := os.Getwd()
		if err == nil {
			wd, err = filepath.Abs(wd)
		}
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Failed to get working directory",
				Detail:   fmt.Sprintf("The value for path.cwd cannot be determined due to a system error: %s", err),
				Subject:  rng.Ptr(),
			}}
		}
		return cty.StringVal(filepath.ToSlash(wd)), nil
	case "module":
		return cty.StringVal(e.mod.SourceDir), nil
	case "root":
		return cty.StringVal(e.rootDir), nil
	}
	detail := fmt.Sprintf("The \"path\" object does not have an attribute named %q.", ref.Name)
	if s := nameSuggestion(ref.Name, []string{"cwd", "module", "root"}); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid "path" attribute`,
		Detail:   detail,
		Subject:  rng.Ptr(),
	}}
}

func (e *staticEval) terraformAttr(ref addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch ref.Name {
	case "workspace":
		ws := e.workspace
		if ws == "" {
			ws = "default"
		}
		return cty.StringVal(ws), nil
	case "env":
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Invalid "terraform" attribute`,
			Detail:   `The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.`,
			Subject:  rng.Ptr(),
		}}
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid "terraform" attribute`,
		Detail:   fmt.Sprintf(`The "terraform" object does not have an attribute named %q. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.`, ref.Name),
		Subject:  rng.Ptr(),
	}}
}

// nameSuggestion is the candidate closest to name (edit distance below
// three), or "".
func nameSuggestion(name string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// staticString evaluates expr as a string for the frame: sensitive,
// unknown and null values and other types are errors.
func (e *staticEval) staticString(expr hcl.Expression, f staticFrame) (string, hcl.Diagnostics) {
	v, diags := e.evaluate(expr, []staticFrame{f})
	if diags.HasErrors() {
		return "", diags
	}
	v, marks := v.UnmarkDeep()
	if _, ok := marks[funcs.SensitiveMark]; ok {
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Sensitive value not allowed",
			Detail:   fmt.Sprintf("Sensitive values, or values derived from sensitive values, cannot be used as %s.", f),
			Subject:  expr.Range().Ptr(),
		})
	}
	s, d := stringValue(v, expr)
	return s, append(diags, d...)
}

// stringValue converts v as gohcl would decode it into a string.
func stringValue(v cty.Value, expr hcl.Expression) (string, hcl.Diagnostics) {
	unsuitable := func(msg string) hcl.Diagnostics {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsuitable value type",
			Detail:   "Unsuitable value: " + msg,
			Subject:  expr.StartRange().Ptr(),
			Context:  expr.Range().Ptr(),
		}}
	}
	s, err := convert.Convert(v, cty.String)
	switch {
	case err != nil:
		return "", unsuitable(err.Error())
	case !s.IsKnown():
		return "", unsuitable("value must be known")
	case s.IsNull():
		return "", unsuitable("null value is not allowed")
	}
	return s.AsString(), nil
}
