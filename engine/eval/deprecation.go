package eval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
)

// A deprecated module output (`deprecated = "..."` in its output block)
// reaches the expressions that read it carrying a deprecationMark, as in
// OpenTofu, so the warning can say which part of the result derives from
// it (through for expressions, functions, conditionals). The mark never
// outlives one evaluation: EvalExpr, EvalBody and conditions extract it
// into warnings, so stored values, plans and state never see it, and
// the sensitivity checks (which look for any mark) are not misled.
type deprecationMark struct {
	By      string // module.NAME[KEY].OUTPUT
	Message string
	Remote  bool // see callFromRemoteModule
}

// DeprecationWarning is the Extra of a deprecation warning: -deprecation
// filters on it.
type DeprecationWarning struct {
	// FromRemoteModule: the warning concerns a module call made from
	// inside a module that is not local (registry, git, ...), which
	// -deprecation=module:local hides.
	FromRemoteModule bool
}

// DeprecationFromRemoteModule tells the CLI, which may not import this
// package, that the diagnostic is a deprecation warning and whether it
// concerns a call made from a remote module.
func (w DeprecationWarning) DeprecationFromRemoteModule() bool { return w.FromRemoteModule }

// DeprecationFromRemoteModule passes on the deprecation warning a check
// block's diagnostic carried, if any; ok is false when it was none.
func (f FromCheckBlock) DeprecationFromRemoteModule() (remote, ok bool) {
	w, ok := f.Had.(DeprecationWarning)
	return w.FromRemoteModule, ok
}

// IsDeprecationWarning reports whether d is a deprecation warning about a
// module's variable or output, and its cause.
func IsDeprecationWarning(d *hcl.Diagnostic) (DeprecationWarning, bool) {
	extra := d.Extra
	if f, ok := extra.(FromCheckBlock); ok {
		extra = f.Had
	}
	w, ok := extra.(DeprecationWarning)
	return w, ok
}

// deprecatedOutputs gives the deprecation message of each deprecated
// output of child; nil when there are none, the common case, without
// allocating.
func deprecatedOutputs(child *config.Module) map[string]string {
	var msgs map[string]string
	for name, o := range child.Outputs {
		if o.Deprecated == "" {
			continue
		}
		if msgs == nil {
			msgs = map[string]string{}
		}
		msgs[name] = o.Deprecated
	}
	return msgs
}

// outputDeprecationMark is the mark for output name of the instance key
// of module call callName made from caller.
func outputDeprecationMark(caller *config.Module, callName string, key addrs.InstanceKey, name, msg string) cty.ValueMarks {
	by := "module." + callName
	if key != nil {
		by += key.String()
	}
	return cty.NewValueMarks(deprecationMark{By: by + "." + name, Message: msg, Remote: callFromRemoteModule(caller, callName)})
}

// callFromRemoteModule follows OpenTofu's rule for what
// -deprecation=module:local hides: m is itself from a non-local source,
// or a call on the way up from m is. Its first step looks callName up in
// m's parent, not in m, as OpenTofu 1.10 does.
func callFromRemoteModule(m *config.Module, callName string) bool {
	if m.Parent != nil {
		if call := m.Parent.ModuleCalls[m.Path[len(m.Path)-1]]; call != nil && !isLocalSource(call.SourceAddr) {
			return true
		}
	}
	name := callName
	for p := m.Parent; p != nil; p = p.Parent {
		call, ok := p.ModuleCalls[name]
		if !ok {
			return false
		}
		if !isLocalSource(call.SourceAddr) {
			return true
		}
		if len(p.Path) == 0 {
			return false
		}
		name = p.Path[len(p.Path)-1]
	}
	return false
}

func isLocalSource(src string) bool {
	for _, prefix := range []string{"./", "../", ".\\", "..\\"} {
		if strings.HasPrefix(src, prefix) {
			return true
		}
	}
	return false
}

// VariableDeprecated is the warning for a value given in a module call
// to a variable its module declares deprecated.
func VariableDeprecated(child *config.Module, v *config.Variable, expr hcl.Expression) *hcl.Diagnostic {
	remote := false
	if p := child.Parent; p != nil && len(child.Path) > 0 {
		remote = callFromRemoteModule(child, child.Path[len(child.Path)-1])
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Variable marked as deprecated by the module author",
		Detail:   fmt.Sprintf("Variable %q is marked as deprecated with the following message:\n%s", v.Name, v.Deprecated),
		Subject:  expr.Range().Ptr(),
		Extra:    DeprecationWarning{FromRemoteModule: remote},
	}
}

// pathDeprecation is one deprecation mark found at a path of a value.
type pathDeprecation struct {
	path cty.Path
	mark deprecationMark
}

// removeDeprecationMarks returns v without its deprecation marks (other
// marks stay where they were) and where those marks were.
func removeDeprecationMarks(v cty.Value) (cty.Value, []pathDeprecation) {
	if !containsMark(v) {
		return v, nil
	}
	uv, pvms := v.UnmarkDeepWithPaths()
	var found []pathDeprecation
	kept := pvms[:0]
	for _, pm := range pvms {
		rest := cty.ValueMarks{}
		for m := range pm.Marks {
			if dm, ok := m.(deprecationMark); ok {
				found = append(found, pathDeprecation{path: pm.Path, mark: dm})
				continue
			}
			rest[m] = struct{}{}
		}
		if len(rest) > 0 {
			kept = append(kept, cty.PathValueMarks{Path: pm.Path, Marks: rest})
		}
	}
	if len(found) == 0 {
		return v, nil
	}
	return uv.MarkWithPaths(kept), found
}

const derivedFromDeprecated = "Value derived from a deprecated source"

// extractDeprecatedWithExpr turns the deprecation marks in v, the value
// of expr, into warnings on expr, and returns v without them.
func extractDeprecatedWithExpr(v cty.Value, expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
	v, found := removeDeprecationMarks(v)
	var diags hcl.Diagnostics
	for _, f := range found {
		source := "This value"
		if attr := strings.TrimPrefix(formatPath(f.path), "."); attr != "" {
			source += "'s attribute " + attr
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity:   hcl.DiagWarning,
			Summary:    derivedFromDeprecated,
			Detail:     fmt.Sprintf("%s is derived from %s, which is deprecated with the following message:\n\n%s", source, f.mark.By, f.mark.Message),
			Subject:    expr.Range().Ptr(),
			Expression: expr,
			Extra:      DeprecationWarning{FromRemoteModule: f.mark.Remote},
		})
	}
	return v, diags
}

// extractDeprecatedWithBody turns the deprecation marks in v, decoded
// from body, into warnings on the attribute each path leads to (as
// OpenTofu words them for a block: without the path), and returns v
// without them.
func extractDeprecatedWithBody(v cty.Value, body hcl.Body) (cty.Value, hcl.Diagnostics) {
	v, found := removeDeprecationMarks(v)
	var diags hcl.Diagnostics
	for _, f := range found {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  derivedFromDeprecated,
			Detail:   fmt.Sprintf("This value is derived from %s, which is deprecated with the following message:\n\n%s", f.mark.By, f.mark.Message),
			Subject:  rangeInBody(body, f.path).Ptr(),
			Extra:    DeprecationWarning{FromRemoteModule: f.mark.Remote},
		})
	}
	return v, diags
}

// rangeInBody finds where in body the value at path was written: the
// expression of the attribute path names, following nested blocks by
// type (and index) on the way, or the deepest body's missing-item range
// when it leads nowhere, as OpenTofu's attribute diagnostics do.
func rangeInBody(body hcl.Body, path cty.Path) hcl.Range {
	if len(path) == 0 {
		return body.MissingItemRange()
	}
	if _, ok := path[0].(cty.IndexStep); ok {
		return body.MissingItemRange()
	}
	steps := path
	for len(steps) > 1 {
		ga, ok := steps[0].(cty.GetAttrStep)
		if !ok {
			break
		}
		content, _, _ := body.PartialContent(&hcl.BodySchema{
			Attributes: []hcl.AttributeSchema{{Name: ga.Name}},
			Blocks:     []hcl.BlockHeaderSchema{{Type: ga.Name}},
		})
		if content == nil {
			break
		}
		if a, ok := content.Attributes[ga.Name]; ok {
			return a.Expr.Range()
		}
		blocks := content.Blocks.OfType(ga.Name)
		if len(blocks) == 0 {
			break
		}
		next := steps[1:]
		i := 0
		if idx, ok := next[0].(cty.IndexStep); ok {
			next = next[1:]
			if idx.Key.Type() == cty.Number && idx.Key.IsKnown() {
				n, _ := idx.Key.AsBigFloat().Int64()
				i = int(n)
			}
		}
		if i < 0 || i >= len(blocks) {
			break
		}
		body, steps = blocks[i].Body, next
		if len(steps) == 0 {
			return body.MissingItemRange()
		}
	}
	if ga, ok := steps[0].(cty.GetAttrStep); ok {
		content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: ga.Name}}})
		if content != nil {
			if a, ok := content.Attributes[ga.Name]; ok {
				return a.Expr.Range()
			}
		}
	}
	return body.MissingItemRange()
}

// formatPath writes path as OpenTofu's diagnostics do: .name, [0],
// ["key"].
func formatPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			b.WriteByte('[')
			k := s.Key
			switch {
			case k.IsNull():
				b.WriteString("null")
			case !k.IsKnown():
				b.WriteString("(not yet known)")
			case k.Type() == cty.Number:
				b.WriteString(k.AsBigFloat().Text('g', -1))
			case k.Type() == cty.String:
				b.WriteString(strconv.Quote(k.AsString()))
			default:
				b.WriteString("...")
			}
			b.WriteByte(']')
		}
	}
	return b.String()
}
