package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// Resource is a `resource` or `data` block.
type Resource struct {
	Mode       addrs.ResourceMode
	Type, Name string

	Count, ForEach hcl.Expression // nil when absent
	// Config is the body without the meta-arguments (count, for_each,
	// provider, depends_on, lifecycle, connection, provisioner). Dynamic
	// blocks stay in it; the engine expands them against the schema.
	Config            hcl.Body
	DependsOn         []hcl.Traversal
	ProviderConfigRef *ProviderConfigRef // nil when implied from the type

	Managed *ManagedResource // nil for data resources

	Preconditions  []*CheckRule
	Postconditions []*CheckRule

	// CheckName names the check block a scoped data source is declared
	// in; empty for every other resource.
	CheckName string

	DeclRange, TypeRange hcl.Range
}

// Addr is the resource's address within its module.
func (r *Resource) Addr() addrs.Resource {
	return addrs.Resource{Mode: r.Mode, Type: r.Type, Name: r.Name}
}

// ManagedResource holds what only managed resources have.
type ManagedResource struct {
	CreateBeforeDestroy, PreventDestroy       bool
	CreateBeforeDestroySet, PreventDestroySet bool

	CreateBeforeDestroyRange, PreventDestroyRange hcl.Range

	// IgnoreChanges are relative traversals: a root name followed by
	// attribute and literal index steps.
	IgnoreChanges    []hcl.Traversal
	IgnoreAllChanges bool

	ReplaceTriggeredBy []hcl.Expression

	Connection   hcl.Body // nil when absent
	Provisioners []*Provisioner
}

// ProviderConfigRef names a provider configuration by local name and alias.
type ProviderConfigRef struct {
	Name, Alias string
	NameRange   hcl.Range
}

// String gives the "name" or "name.alias" form used as a configuration key.
func (r ProviderConfigRef) String() string {
	if r.Alias == "" {
		return r.Name
	}
	return r.Name + "." + r.Alias
}

// decodeRepetition reads the count and for_each meta-arguments of a what
// (resource, data source, module call), which may use only one of them.
func decodeRepetition(content *hcl.BodyContent) (count, forEach hcl.Expression, diags hcl.Diagnostics) {
	if attr, ok := content.Attributes["count"]; ok {
		count = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		forEach = attr.Expr
		if count != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid combination of "count" and "for_each"`,
				Detail:   `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.`,
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	return count, forEach, diags
}

var resourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"},
		{Name: "for_each"},
		{Name: "provider"},
		{Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "_"}, // reserved for future escaping; rejected below
	},
}

var lifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "create_before_destroy"},
		{Name: "prevent_destroy"},
		{Name: "ignore_changes"},
		{Name: "replace_triggered_by"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "precondition"},
		{Type: "postcondition"},
	},
}

// managedOnlyLifecycle are the lifecycle arguments a data resource may not use.
var managedOnlyLifecycle = []string{"create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by"}

func decodeResourceBlock(block *hcl.Block) (*Resource, hcl.Diagnostics) {
	r := &Resource{
		Type:      block.Labels[0],
		Name:      block.Labels[1],
		DeclRange: block.DefRange,
		TypeRange: labelRange(block, 0),
	}
	var diags hcl.Diagnostics
	if block.Type == "data" {
		r.Mode = addrs.DataResourceMode
		diags = append(diags, checkName("Invalid data source name", "data source type", r.Type, labelRange(block, 0))...)
		diags = append(diags, checkName("Invalid data source name", "data source name", r.Name, labelRange(block, 1))...)
	} else {
		r.Mode = addrs.ManagedResourceMode
		r.Managed = &ManagedResource{}
		diags = append(diags, checkName("Invalid resource type name", "resource type", r.Type, labelRange(block, 0))...)
		diags = append(diags, checkName("Invalid resource name", "resource name", r.Name, labelRange(block, 1))...)
	}

	content, remain, d := block.Body.PartialContent(resourceSchema)
	diags = append(diags, d...)
	r.Config = remain

	r.Count, r.ForEach, d = decodeRepetition(content)
	diags = append(diags, d...)
	if attr, ok := content.Attributes["provider"]; ok {
		ref, d := decodeProviderConfigRef(attr.Expr, "provider")
		diags = append(diags, d...)
		r.ProviderConfigRef = ref
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, d := decodeDependsOn(attr)
		diags = append(diags, d...)
		r.DependsOn = deps
	}

	seenLifecycle := false
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			if seenLifecycle {
				diags = append(diags, duplicate("Duplicate lifecycle block", "This resource already has a lifecycle block; merge the two.", b.DefRange))
				continue
			}
			seenLifecycle = true
			diags = append(diags, r.decodeLifecycle(b)...)
		case "connection":
			if r.Managed == nil {
				diags = append(diags, notForData("connection", b.DefRange))
				continue
			}
			if r.Managed.Connection != nil {
				diags = append(diags, duplicate("Duplicate connection block", "This resource already has a connection block; merge the two.", b.DefRange))
				continue
			}
			r.Managed.Connection = b.Body
		case "provisioner":
			if r.Managed == nil {
				diags = append(diags, notForData("provisioner", b.DefRange))
				continue
			}
			p, d := decodeProvisionerBlock(b)
			diags = append(diags, d...)
			if p != nil {
				r.Managed.Provisioners = append(r.Managed.Provisioners, p)
			}
		case "_":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved block type name in resource block",
				Detail:   `The block type name "_" is reserved for use by OpenTofu in a future version.`,
				Subject:  b.TypeRange.Ptr(),
			})
		}
	}
	if r.Managed != nil && r.Managed.Connection != nil && r.Managed.hasDestroyProvisioner() {
		// The resource's connection block is the base of every
		// provisioner's, destroy-time ones included.
		diags = append(diags, onlySelfReferences(r.Managed.Connection)...)
	}
	return r, diags
}

func notForData(block string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported block type",
		Detail:   fmt.Sprintf("Blocks of type %q are not expected in a data resource.", block),
		Subject:  rng.Ptr(),
	}
}

func (r *Resource) decodeLifecycle(block *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var content *hcl.BodyContent
	if r.Managed == nil {
		// Data resources only take conditions; every managed-only argument
		// gets its own explanation rather than "unsupported argument".
		var d hcl.Diagnostics
		content, _, d = block.Body.PartialContent(lifecycleSchema)
		diags = append(diags, d...)
		for _, name := range managedOnlyLifecycle {
			if attr, ok := content.Attributes[name]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid data resource lifecycle argument",
					Detail:   fmt.Sprintf("The lifecycle argument %q is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", name),
					Subject:  attr.NameRange.Ptr(),
				})
			}
		}
		// Anything else in the block is still unsupported.
		_, d = block.Body.Content(&hcl.BodySchema{
			Attributes: lifecycleSchema.Attributes,
			Blocks:     lifecycleSchema.Blocks,
		})
		diags = append(diags, d...)
	} else {
		var d hcl.Diagnostics
		content, d = block.Body.Content(lifecycleSchema)
		diags = append(diags, d...)
		mr := r.Managed
		if attr, ok := content.Attributes["create_before_destroy"]; ok {
			diags = append(diags, decodeLiteralBool(attr, &mr.CreateBeforeDestroy)...)
			mr.CreateBeforeDestroySet = true
			mr.CreateBeforeDestroyRange = attr.Range
		}
		if attr, ok := content.Attributes["prevent_destroy"]; ok {
			diags = append(diags, decodeLiteralBool(attr, &mr.PreventDestroy)...)
			mr.PreventDestroySet = true
			mr.PreventDestroyRange = attr.Range
		}
		if attr, ok := content.Attributes["ignore_changes"]; ok {
			d := mr.decodeIgnoreChanges(attr)
			diags = append(diags, d...)
		}
		if attr, ok := content.Attributes["replace_triggered_by"]; ok {
			exprs, d := decodeReplaceTriggeredBy(attr.Expr)
			diags = append(diags, d...)
			mr.ReplaceTriggeredBy = exprs
		}
	}
	for _, b := range content.Blocks {
		rule, d := decodeCheckRule(b)
		diags = append(diags, d...)
		if rule == nil {
			continue
		}
		if b.Type == "precondition" {
			r.Preconditions = append(r.Preconditions, rule)
		} else {
			r.Postconditions = append(r.Postconditions, rule)
		}
	}
	return diags
}

// decodeLiteralBool decodes an argument that the language evaluates
// without any variables or functions.
func decodeLiteralBool(attr *hcl.Attribute, out *bool) hcl.Diagnostics {
	// Evaluate first so a reference gets one error, not a second one
	// about the unknown result's type.
	if _, diags := attr.Expr.Value(nil); diags.HasErrors() {
		return diags
	}
	return gohcl.DecodeExpression(attr.Expr, nil, out)
}

func (mr *ManagedResource) decodeIgnoreChanges(attr *hcl.Attribute) hcl.Diagnostics {
	if kw := hcl.ExprAsKeyword(attr.Expr); kw != "" {
		if kw == "all" {
			mr.IgnoreAllChanges = true
			return nil
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes keyword",
			Detail:   `The only keyword allowed for ignore_changes is "all"; otherwise give a list of attribute references.`,
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return diags
	}
	sawWildcard := false
	for _, expr := range exprs {
		if s, ok := literalString(expr); ok && s == "*" {
			sawWildcard = true
			if len(exprs) == 1 {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid ignore_changes wildcard",
					Detail:   `The ["*"] form of ignore_changes wildcard is was deprecated and is now invalid. Use "ignore_changes = all" to ignore changes to all attributes.`,
					Subject:  attr.Expr.Range().Ptr(),
				})
			}
			continue
		}
		trav, d := relativeTraversalForExpr(expr)
		diags = append(diags, d...)
		if trav != nil {
			mr.IgnoreChanges = append(mr.IgnoreChanges, trav)
		}
	}
	if sawWildcard && len(exprs) > 1 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes ruleset",
			Detail:   `A single static list of references is required for ignore_changes; the "*" wildcard cannot be mixed with other references.`,
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	return diags
}

// relativeTraversalForExpr reads an ignore_changes element: a bare
// traversal (name, .attr, [literal]) or, deprecated, the same in quotes.
func relativeTraversalForExpr(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	if s, ok := literalString(expr); ok {
		rng := expr.Range()
		trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), rng.Filename, rng.Start)
		if diags.HasErrors() {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid ignore_changes reference",
				Detail:   fmt.Sprintf("%q is not a valid attribute reference.", s),
				Subject:  rng.Ptr(),
			}}
		}
		if _, isNative := expr.(hclsyntax.Expression); isNative {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Quoted references are deprecated",
				Detail:   quotedReferenceDetail,
				Subject:  rng.Ptr(),
			})
		}
		return makeRelative(trav), diags
	}
	trav, diags := hcl.RelTraversalForExpr(expr)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes reference",
			Detail:   "Each ignore_changes element must be an attribute of this resource, such as name, tags[\"Owner\"] or block[0].attr, without any expressions.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return trav, nil
}

// makeRelative turns an absolute traversal's root into a leading
// attribute step, the form ignore_changes paths take.
func makeRelative(t hcl.Traversal) hcl.Traversal {
	if len(t) == 0 {
		return t
	}
	out := make(hcl.Traversal, len(t))
	copy(out, t)
	if root, ok := out[0].(hcl.TraverseRoot); ok {
		out[0] = hcl.TraverseAttr{Name: root.Name, SrcRange: root.SrcRange}
	}
	return out
}

// literalString reports the value of a constant string expression,
// native or JSON.
func literalString(expr hcl.Expression) (string, bool) {
	if tmpl, ok := expr.(*hclsyntax.TemplateExpr); ok {
		if !tmpl.IsStringLiteral() {
			return "", false
		}
	} else if _, ok := expr.(hclsyntax.Expression); ok {
		if _, lit := expr.(*hclsyntax.LiteralValueExpr); !lit {
			return "", false
		}
	} else if len(expr.Variables()) > 0 {
		return "", false
	}
	// A JSON expression that evaluates to a string without variables is a
	// literal; JSON strings are templates, so check Variables first.
	v, diags := expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || !v.Type().Equals(cty.String) {
		return "", false
	}
	return v.AsString(), true
}

func decodeReplaceTriggeredBy(expr hcl.Expression) ([]hcl.Expression, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(expr)
	if diags.HasErrors() {
		return nil, diags
	}
	out := make([]hcl.Expression, 0, len(exprs))
	for _, e := range exprs {
		// JSON strings hold the reference as text; parse it so the engine
		// sees the same expression shape as in native syntax.
		if _, native := e.(hclsyntax.Expression); !native {
			if s, ok := literalString(e); ok {
				rng := e.Range()
				parsed, d := hclsyntax.ParseExpression([]byte(s), rng.Filename, rng.Start)
				diags = append(diags, d...)
				if d.HasErrors() {
					continue
				}
				e = parsed
			}
		}
		diags = append(diags, checkTriggerExpr(e)...)
		out = append(out, e)
	}
	return out, diags
}

// checkTriggerExpr enforces the static part of the replace_triggered_by
// rules: exactly one resource reference, and otherwise only count.index
// and each.key.
func checkTriggerExpr(e hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	resources := 0
	for _, t := range e.Variables() {
		switch t.RootName() {
		case "count", "each":
			ref, d := addrs.ParseRef(t)
			if d.HasErrors() {
				diags = append(diags, d...)
				continue
			}
			switch s := ref.Subject.(type) {
			case addrs.CountAttr:
				if s.Name == "index" {
					continue
				}
			case addrs.ForEachAttr:
				if s.Name == "key" {
					continue
				}
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Invalid %s reference in replace_triggered_by expression", t.RootName()),
				Detail:   "Only count.index and each.key may be used to index a replace_triggered_by reference.",
				Subject:  t.SourceRange().Ptr(),
			})
		case "var", "local", "module", "path", "terraform", "self", "data":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference in replace_triggered_by expression",
				Detail:   "Only resources, count.index, and each.key may be referenced in replace_triggered_by.",
				Subject:  t.SourceRange().Ptr(),
			})
		default:
			resources++
		}
	}
	switch {
	case resources == 0 && !diags.HasErrors():
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing resource reference in replace_triggered_by expression",
			Detail:   "A replace_triggered_by element must reference a managed resource, such as terraform_data.example or terraform_data.example.input.",
			Subject:  e.Range().Ptr(),
		})
	case resources > 1:
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Multiple resource references in replace_triggered_by expression",
			Detail:   "Each replace_triggered_by element may reference only one resource; use one element per resource.",
			Subject:  e.Range().Ptr(),
		})
	}
	return diags
}

// decodeDependsOn reads a list of references to resources or module calls.
func decodeDependsOn(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var out []hcl.Traversal
	for _, e := range exprs {
		e, d := unquoteReference(e)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		t, d := hcl.AbsTraversalForExpr(e)
		if d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   "Each depends_on element must be a static reference to a resource or module, such as terraform_data.example or module.example, without any expressions.",
				Subject:  e.Range().Ptr(),
			})
			continue
		}
		ref, d := addrs.ParseRef(t)
		if d.HasErrors() {
			diags = append(diags, d...)
			continue
		}
		switch ref.Subject.(type) {
		case addrs.Resource, addrs.ResourceInstance, addrs.ModuleCall:
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   fmt.Sprintf("References to %s are not allowed in depends_on; only resources and modules can be dependencies.", ref.Subject),
				Subject:  e.Range().Ptr(),
			})
			continue
		}
		out = append(out, t)
	}
	return out, diags
}

// decodeProviderConfigRef reads `provider = name` or `provider = name.alias`.
func decodeProviderConfigRef(expr hcl.Expression, argName string) (*ProviderConfigRef, hcl.Diagnostics) {
	if s, ok := literalString(expr); ok {
		rng := expr.Range()
		t, d := hclsyntax.ParseTraversalAbs([]byte(s), rng.Filename, rng.Start)
		if d.HasErrors() {
			return nil, invalidProviderRef(argName, rng)
		}
		ref, diags := providerRefFromTraversal(t, argName, rng)
		if _, native := expr.(hclsyntax.Expression); native && ref != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Quoted references are deprecated",
				Detail:   quotedReferenceDetail,
				Subject:  rng.Ptr(),
			})
		}
		return ref, diags
	}
	t, d := hcl.AbsTraversalForExpr(expr)
	if d.HasErrors() {
		return nil, invalidProviderRef(argName, expr.Range())
	}
	return providerRefFromTraversal(t, argName, expr.Range())
}

func providerRefFromTraversal(t hcl.Traversal, argName string, rng hcl.Range) (*ProviderConfigRef, hcl.Diagnostics) {
	ref := &ProviderConfigRef{Name: t.RootName(), NameRange: t[0].SourceRange()}
	switch len(t) {
	case 1:
	case 2:
		a, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			return nil, invalidProviderRef(argName, rng)
		}
		ref.Alias = a.Name
	default:
		return nil, invalidProviderRef(argName, rng)
	}
	if !hclsyntax.ValidIdentifier(ref.Name) {
		return nil, invalidProviderRef(argName, rng)
	}
	return ref, nil
}

func invalidProviderRef(argName string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider reference",
		Detail:   fmt.Sprintf("The %s argument requires a provider name, optionally followed by a period and an alias, such as aws or aws.west.", argName),
		Subject:  rng.Ptr(),
	}}
}
