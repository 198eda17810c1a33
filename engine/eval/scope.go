package eval

import (
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/config/funcs"
	"github.com/tenetplan/tenet/engine/providercall"
)

// Repetition is the count.index or each.key/each.value visible while
// evaluating one instance of a repeated block.
type Repetition struct {
	Kind  byte // 0 none, 'c' count, 'e' for_each
	index int
	Key   cty.Value
	Value cty.Value
}

// Evaluator builds evaluation contexts from the values store. One exists
// per plan or apply run.
type Evaluator struct {
	Cfg       *config.Config
	Fsys      fs.FS
	Values    *valueStore
	Exp       *expansion
	RootDir   string // path.root
	Cwd       string // path.cwd
	Workspace string
	Pure      bool // impure functions return unknowns (validate)
	// validating: module instances are stand-ins (package validating), so a
	// repeated module call's value is unknown rather than built from them.
	Validating bool

	PlanTime time.Time

	// checks collects the results of this run's conditions; condSeverity
	// is how their failures are reported (warnings in refresh-only plans).
	Checks       *CheckResults
	CondSeverity hcl.DiagnosticSeverity

	bodies bodyMemos

	// provFuncs gives each module its provider-defined functions (nil:
	// none); modFuncs caches the table of a module that has some.
	ProvFuncs *providercall.Functions

	funcsMu  sync.Mutex
	funcs    map[string]function.Function
	modFuncs map[*config.Module]map[string]function.Function
}

func (ev *Evaluator) functions(mod *config.Module) map[string]function.Function {
	ev.funcsMu.Lock()
	defer ev.funcsMu.Unlock()
	if ev.funcs == nil {
		// Paths in file functions resolve against the working directory, as
		// in OpenTofu (modules use path.module), so one table serves all.
		ev.funcs = funcs.Table(funcs.Options{FS: ev.Fsys, HostDir: ev.Cwd, Pure: ev.Pure, PlanTimestamp: ev.PlanTime})
	}
	if ev.ProvFuncs == nil || mod == nil {
		return ev.funcs
	}
	if t, ok := ev.modFuncs[mod]; ok {
		return t
	}
	t := ev.funcs
	if pf := ev.ProvFuncs.ForModule(mod); len(pf) > 0 {
		t = make(map[string]function.Function, len(ev.funcs)+len(pf))
		for k, f := range ev.funcs {
			t[k] = f
		}
		for k, f := range pf {
			t[k] = f
		}
	}
	if ev.modFuncs == nil {
		ev.modFuncs = map[*config.Module]map[string]function.Function{}
	}
	ev.modFuncs[mod] = t
	return t
}

// Scope is where an expression is evaluated: a module instance plus the
// repetition of the block being evaluated.
type Scope struct {
	Ev  *Evaluator
	Mod addrs.ModuleInstance
	Cfg *config.Module
	Rep Repetition
	// selfAvailable: the caller binds self (a postcondition), so a
	// reference to it is no error.
	selfAvailable bool
}

// EvalContext builds a context holding exactly the objects refs name.
// Building only what is referenced keeps each evaluation O(references),
// not O(everything in the module), which matters at 100k instances.
func (s *Scope) EvalContext(refs []*addrs.Reference) (*hcl.EvalContext, hcl.Diagnostics) {
	ctx, _, diags := s.evalContext(refs, false)
	return ctx, diags
}

// evalContext is EvalContext; with markDeprecated, deprecated module
// outputs carry a deprecationMark and marked reports whether any does, so
// the caller knows it must extract them (see deprecation.go).
func (s *Scope) evalContext(refs []*addrs.Reference, markDeprecated bool) (_ *hcl.EvalContext, marked bool, _ hcl.Diagnostics) {
	var diags hcl.Diagnostics
	// OpenTofu's validate sees module outputs as unknown, unmarked.
	markDeprecated = markDeprecated && !s.Ev.Validating
	mv := s.Ev.Values.Module(s.Mod)
	vars := make(map[string]cty.Value, 2)
	var varObj, localObj, callObj map[string]cty.Value
	var managed, data map[string]map[string]cty.Value // made on first use
	longForm := false
	for _, ref := range refs {
		longForm = longForm || ref.LongForm
		switch sub := ref.Subject.(type) {
		case addrs.InputVariable:
			addNamedValue(mv, 'v', sub.Name, &varObj)
		case addrs.LocalValue:
			addNamedValue(mv, 'l', sub.Name, &localObj)
		case addrs.ModuleCall:
			if callObj == nil {
				callObj = map[string]cty.Value{}
			}
			v, m := s.callValue(sub.Name, markDeprecated)
			callObj[sub.Name] = v
			marked = marked || m
		case addrs.Resource:
			s.addResource(mv, sub, &managed, &data)
		case addrs.ResourceInstance:
			s.addResource(mv, sub.Resource, &managed, &data)
		case addrs.CountAttr:
			// The name first, as OpenTofu checks it.
			if d := AttrProblem(ref); d != nil {
				diags = append(diags, d)
				vars["count"] = cty.DynamicVal // reported: no "Unknown variable" as well
				continue
			}
			if s.Rep.Kind != 'c' {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  `Reference to "count" in non-counted context`,
					Detail:   `The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`,
					Subject:  ref.SourceRange.Ptr(),
				})
				vars["count"] = cty.DynamicVal // reported: no "Unknown variable" as well
				continue
			}
			vars["count"] = cty.ObjectVal(map[string]cty.Value{"index": cty.NumberIntVal(int64(s.Rep.index))})
		case addrs.ForEachAttr:
			if d := AttrProblem(ref); d != nil {
				diags = append(diags, d)
				vars["each"] = cty.DynamicVal
				continue
			}
			if s.Rep.Kind != 'e' {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  `Reference to "each" in context without for_each`,
					Detail:   `The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`,
					Subject:  ref.SourceRange.Ptr(),
				})
				vars["each"] = cty.DynamicVal
				continue
			}
			vars["each"] = cty.ObjectVal(map[string]cty.Value{"key": s.Rep.Key, "value": s.Rep.Value})
		case addrs.PathAttr:
			if d := AttrProblem(ref); d != nil {
				diags = append(diags, d)
				continue
			}
			vars["path"] = cty.ObjectVal(map[string]cty.Value{
				"module": cty.StringVal(s.Cfg.SourceDir),
				"root":   cty.StringVal(s.Ev.RootDir),
				"cwd":    cty.StringVal(s.Ev.Cwd),
			})
		case addrs.TerraformAttr:
			if d := AttrProblem(ref); d != nil {
				diags = append(diags, d)
				continue
			}
			vars[sub.Root()] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal(s.Ev.Workspace)})
		case addrs.Self:
			if !s.selfAvailable {
				diags = append(diags, selfUnavailable(ref))
				vars["self"] = cty.DynamicVal // reported: no "Unknown variable" as well
			}
		}
	}
	if varObj != nil {
		vars["var"] = cty.ObjectVal(varObj)
	}
	if localObj != nil {
		vars["local"] = cty.ObjectVal(localObj)
	}
	if callObj != nil {
		vars["module"] = cty.ObjectVal(callObj)
	}
	var byType map[string]cty.Value
	if longForm {
		byType = make(map[string]cty.Value, len(managed))
	}
	for typ, byName := range managed {
		vars[typ] = cty.ObjectVal(byName)
		if longForm {
			byType[typ] = vars[typ]
		}
	}
	if longForm {
		vars["resource"] = cty.ObjectVal(byType)
	}
	if len(data) > 0 {
		byType := make(map[string]cty.Value, len(data))
		for typ, byName := range data {
			byType[typ] = cty.ObjectVal(byName)
		}
		vars["data"] = cty.ObjectVal(byType)
	}
	return &hcl.EvalContext{Variables: vars, Functions: s.Ev.functions(s.Cfg)}, marked, diags
}

// addNamedValue puts the module's value of kind ('v' variable, 'l' local)
// and name into *obj, made on first use; one not yet evaluated is unknown.
func addNamedValue(mv *moduleValues, kind byte, name string, obj *map[string]cty.Value) {
	if *obj == nil {
		*obj = map[string]cty.Value{}
	}
	v, ok := mv.Get(kind, name)
	if !ok {
		v = cty.DynamicVal
	}
	(*obj)[name] = v
}

func (s *Scope) addResource(mv *moduleValues, r addrs.Resource, managed, data *map[string]map[string]cty.Value) {
	v, ok := mv.Get('r', r.String())
	if !ok {
		v = cty.DynamicVal
	}
	target := managed
	if r.Mode == addrs.DataResourceMode {
		target = data
	}
	if *target == nil {
		*target = map[string]map[string]cty.Value{}
	}
	byName := (*target)[r.Type]
	if byName == nil {
		byName = map[string]cty.Value{}
		(*target)[r.Type] = byName
	}
	byName[r.Name] = v
}

// EvalExpr evaluates one expression, optionally converting to a type.
func (s *Scope) EvalExpr(expr hcl.Expression, want cty.Type) (cty.Value, hcl.Diagnostics) {
	refs, diags := config.ReferencesInExpr(expr)
	if diags.HasErrors() {
		return cty.UnknownVal(want), diags
	}
	ctx, marked, moreDiags := s.evalContext(refs, true)
	diags = append(diags, moreDiags...)
	if moreDiags.HasErrors() {
		return cty.UnknownVal(want), diags
	}
	v, moreDiags := expr.Value(ctx)
	diags = append(diags, moreDiags...)
	if marked {
		var warnings hcl.Diagnostics
		v, warnings = extractDeprecatedWithExpr(v, expr)
		diags = append(diags, warnings...)
	}
	if want != cty.DynamicPseudoType && !moreDiags.HasErrors() {
		cv, err := ConvertValue(v, want)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity:    hcl.DiagError,
				Summary:     "Incorrect value type",
				Detail:      fmt.Sprintf("Invalid expression value: %s.", err),
				Subject:     expr.Range().Ptr(),
				Expression:  expr,
				EvalContext: ctx,
			})
			return cty.UnknownVal(want), diags
		}
		v = cv
	}
	return v, diags
}

// BodyReferences lists the references a body makes when decoded with
// spec, including those inside dynamic blocks but not their iterators.
func BodyReferences(body hcl.Body, spec hcldec.Spec) ([]*addrs.Reference, hcl.Diagnostics) {
	traversals := dynblock.VariablesHCLDec(body, spec)
	return addrs.References(traversals)
}

// EvalBody decodes a resource or provider body against its schema spec.
func (s *Scope) EvalBody(body hcl.Body, spec hcldec.Spec, refs []*addrs.Reference) (cty.Value, hcl.Diagnostics) {
	ctx, marked, diags := s.evalContext(refs, true)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, moreDiags := s.decodeBody(ctx, body, spec)
	diags = append(diags, moreDiags...)
	if marked {
		var warnings hcl.Diagnostics
		v, warnings = extractDeprecatedWithBody(v, body)
		diags = append(diags, warnings...)
	}
	return v, diags
}

func (s *Scope) decodeBody(ctx *hcl.EvalContext, body hcl.Body, spec hcldec.Spec) (cty.Value, hcl.Diagnostics) {
	body, dynamic := s.Ev.bodies.prepare(body, spec)
	if dynamic {
		body = dynblock.Expand(body, ctx)
	} else if mb, ok := body.(*memoBody); ok && mb.attrs != nil {
		return mb.decodeAttributes(ctx)
	}
	return hcldec.Decode(body, spec, ctx)
}

// callValue assembles module.NAME for this module instance from the
// outputs of the called module's instances; with markDeprecated, the
// deprecated ones carry a deprecationMark, and marked says if any did.
func (s *Scope) callValue(name string, markDeprecated bool) (_ cty.Value, marked bool) {
	child := s.Cfg.Children[name]
	if child == nil {
		return cty.DynamicVal, false
	}
	var deprecated map[string]string
	if markDeprecated {
		deprecated = deprecatedOutputs(child)
	}
	kind := byte(0)
	if call := s.Cfg.ModuleCalls[name]; call != nil {
		if call.Count != nil {
			kind = 'c'
		} else if call.ForEach != nil {
			kind = 'e'
		}
	}
	if kind != 0 && s.Ev.Validating {
		return cty.DynamicVal, false
	}
	var keys []addrs.InstanceKey
	var vals []cty.Value
	for _, inst := range s.Ev.Exp.ModuleInstances(child.Path) {
		if !inst.Parent().Equal(s.Mod) {
			continue
		}
		mv := s.Ev.Values.Module(inst)
		outs := make(map[string]cty.Value, len(child.Outputs))
		for oname := range child.Outputs {
			v, ok := mv.Get('o', oname)
			if !ok {
				v = cty.DynamicVal
			}
			if msg, ok := deprecated[oname]; ok {
				v = v.WithMarks(outputDeprecationMark(s.Cfg, name, inst[len(inst)-1].Key, oname, msg))
				marked = true
			}
			outs[oname] = v
		}
		keys = append(keys, inst[len(inst)-1].Key)
		vals = append(vals, cty.ObjectVal(outs))
	}
	if kind == 'c' {
		// count instances must be in index order for the tuple.
		ordered := make([]cty.Value, len(vals))
		for i, k := range keys {
			if ik, ok := k.(addrs.IntKey); ok && int(ik) < len(ordered) {
				ordered[ik] = vals[i]
			}
		}
		vals = ordered
	}
	if kind == 0 && len(vals) == 0 {
		return cty.DynamicVal, false
	}
	return keyedValue(kind, keys, vals), marked
}
