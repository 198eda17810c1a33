package config

import (
	"fmt"
	"maps"
	"slices"

	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/tenetplan/tenet/addrs"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/config/funcs"
)

// newStaticEval sets up early evaluation for m: a root module takes its
// variables from inputs, a child from the arguments of the call in its
// parent, computed early in the parent when the child needs them.
func newStaticEval(m *Module, rootDir string, inputs StaticInputs, call *ModuleCall) *staticEval {
	e := &staticEval{mod: m, rootDir: rootDir, workspace: inputs.Workspace}
	switch {
	case m.Parent != nil && call != nil && m.Parent.static != nil:
		e.vars = m.Parent.static.callVars(call)
	case inputs.Variable != nil:
		e.vars = func(v *Variable) (cty.Value, hcl.Diagnostics) { return inputs.Variable(m, v) }
	default:
		e.vars = func(v *Variable) (cty.Value, hcl.Diagnostics) {
			if !v.Required() {
				return v.Default, nil
			}
			return cty.NilVal, hcl.Diagnostics{NoInputForVariable(v)}
		}
	}
	return e
}

// NoInputForVariable is OpenTofu's error for a root module variable that
// an early value needs, that was given no value and could not be asked
// for (-input=false, or no terminal to ask at).
func NoInputForVariable(v *Variable) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Failed to request input from user for variable var.%s", v.Name),
		Subject:  v.DeclRange.Ptr(),
	}
}

// callVars gives the child of call its variables' values: the call's
// arguments computed early here, or the variables' defaults.
func (e *staticEval) callVars(call *ModuleCall) func(v *Variable) (cty.Value, hcl.Diagnostics) {
	attrs, _ := call.Config.JustAttributes()
	return func(v *Variable) (cty.Value, hcl.Diagnostics) {
		a, ok := attrs[v.Name]
		if !ok {
			if v.Required() {
				return cty.NilVal, hcl.Diagnostics{{
					Severity: hcl.DiagError,
					Summary:  "Missing required variable in module call",
					Subject:  call.Config.MissingItemRange().Ptr(),
				}}
			}
			return v.Default, nil
		}
		f := staticFrame{module: e.mod.Path.Child(call.Name), subject: "var." + v.Name, declRange: a.Range}
		return e.evaluate(a.Expr, []staticFrame{f})
	}
}

// decodeStaticFields computes the source and version of every module call
// of m.
func (m *Module) decodeStaticFields() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		diags = append(diags, m.static.moduleCallFields(m.ModuleCalls[name])...)
	}
	return diags
}

func (e *staticEval) moduleCallFields(mc *ModuleCall) hcl.Diagnostics {
	var diags hcl.Diagnostics
	mc.SourceAddr, mc.Version = "", ""
	if a := mc.VersionAttr; a != nil {
		f := staticFrame{module: e.mod.Path, subject: fmt.Sprintf("module.%s.version", mc.Name), declRange: a.Range}
		v, d := e.evaluate(a.Expr, []staticFrame{f})
		diags = append(diags, d...)
		switch {
		case d.HasErrors():
		case v.IsNull():
			// A null version is no version.
			mc.VersionAttr = nil
		case v.HasMark(funcs.SensitiveMark):
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid version constraint",
				Detail:   "Sensitive values, or values derived from sensitive values, cannot be used as version arguments.",
				Subject:  a.Expr.Range().Ptr(),
			})
		default:
			v, _ = v.UnmarkDeep()
			s, err := convertString(v)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid version constraint",
					Detail:   "A string value is required for version.",
					Subject:  a.Expr.Range().Ptr(),
				})
			} else {
				mc.Version = s
			}
		}
	}
	if mc.SourceExpr == nil {
		return diags // reported as missing
	}
	f := staticFrame{module: e.mod.Path, subject: fmt.Sprintf("module.%s.source", mc.Name), declRange: mc.SourceExpr.Range()}
	s, d := e.staticString(mc.SourceExpr, f)
	diags = append(diags, d...)
	if d.HasErrors() {
		return diags
	}
	if s == "" {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid module source address",
			Detail:   "The module source address must not be empty.",
			Subject:  mc.SourceAddrRange.Ptr(),
		})
	}
	if mc.VersionAttr != nil && isLocalSource(s) {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid registry module source address",
			Detail:   fmt.Sprintf("Failed to parse module registry address: can't use local directory %q as a module registry address.\n\ntenet assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", s),
			Subject:  mc.SourceAddrRange.Ptr(),
		})
	}
	mc.SourceAddr = s
	return diags
}

// convertString is v as a string; unknown and null give "".
func convertString(v cty.Value) (string, error) {
	s, err := convert.Convert(v, cty.String)
	if err != nil || !s.IsKnown() || s.IsNull() {
		return "", err
	}
	return s.AsString(), nil
}

// ReadModule reads the module in diskDir as module installation needs
// it: its module calls with their sources and versions computed early.
// Its files are named shown/NAME and shown is its path.module. A child
// module (parent and call set) takes its variables from the call's
// arguments; the root, from inputs. The diagnostics are those of reading
// the files and computing the early values only: loading the installed
// configuration reports the rest.
func ReadModule(diskDir, shown string, p addrs.Module, parent *Module, call *ModuleCall, inputs StaticInputs) (*Module, hcl.Diagnostics) {
	l := &loader{fsys: os.DirFS(diskDir), parser: hclparse.NewParser(), digest: map[string][]byte{}, static: inputs}
	files, diags := l.parseDirNamed(".", shown, call)
	if diags.HasErrors() {
		return nil, diags
	}
	m := newModule(p, shown, parent)
	for _, f := range files {
		m.decodeFile(f.file, f.override)
	}
	rootDir := shown
	for r := m; r.Parent != nil; r = r.Parent {
		rootDir = r.Parent.SourceDir
	}
	m.static = newStaticEval(m, rootDir, inputs, call)
	return m, append(diags, m.decodeStaticFields()...)
}

// StaticBody computes the arguments of a block of m early, the way the
// backend block's are: subject names the block in messages
// ("backend.s3"). A sensitive value is an error, since the settings are
// saved in plain text.
func (m *Module) StaticBody(body hcl.Body, subject string, declRange hcl.Range) (map[string]cty.Value, hcl.Diagnostics) {
	attrs, diags := body.JustAttributes()
	if m == nil || m.static == nil {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Configuration not loaded", Detail: "The root module could not be read, so the " + subject + " block cannot be evaluated."})
	}
	names := slices.Sorted(maps.Keys(attrs))
	var refs []*addrs.Reference
	for _, name := range names {
		r, d := addrs.References(attrs[name].Expr.Variables())
		diags = append(diags, d...)
		refs = append(refs, r...)
	}
	// As OpenTofu, provider functions are not looked for here: they are
	// unknown functions when the arguments are evaluated.
	ctx, d := m.static.evalContext(refs, nil, []staticFrame{{subject: subject, declRange: declRange}})
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, diags
	}
	out := map[string]cty.Value{}
	sensitive := false
	for _, name := range names {
		v, d := attrs[name].Expr.Value(ctx)
		diags = append(diags, d...)
		v, marks := v.UnmarkDeep()
		if _, ok := marks[funcs.SensitiveMark]; ok {
			sensitive = true
		}
		out[name] = v
	}
	if sensitive {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Backend config contains sensitive values",
			Detail:   "The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply sensitive credentials via backend specific environment variables",
			Subject:  declRange.Ptr(),
		})
	}
	return out, diags
}
