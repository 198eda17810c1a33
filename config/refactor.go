package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
)

// MoveEndpointKind says what a moved endpoint names, before unification.
type MoveEndpointKind byte

const (
	// MoveModuleCall is a keyless module step last (module.a): every instance of the call.
	MoveModuleCall MoveEndpointKind = 'C'
	// MoveModuleInstance is a module step with a key last (module.a[0]).
	MoveModuleInstance MoveEndpointKind = 'M'
	// MoveResource is a resource without key (type.name): every instance.
	MoveResource MoveEndpointKind = 'R'
	// MoveResourceInstance is a resource with a key (type.name[0]).
	MoveResourceInstance MoveEndpointKind = 'I'
)

func (k MoveEndpointKind) String() string {
	switch k {
	case MoveModuleCall:
		return "module call"
	case MoveModuleInstance:
		return "module instance"
	case MoveResource:
		return "resource"
	case MoveResourceInstance:
		return "resource instance"
	}
	return "invalid"
}

// IsModule reports whether the endpoint names a module (call or instance).
func (k MoveEndpointKind) IsModule() bool { return k == MoveModuleCall || k == MoveModuleInstance }

// MoveEndpoint is one side of a moved block, relative to the declaring module.
type MoveEndpoint struct {
	Traversal   hcl.Traversal
	SourceRange hcl.Range
	Kind        MoveEndpointKind
	// Subject is an addrs.ModuleInstance (MoveModuleCall, MoveModuleInstance),
	// addrs.AbsResource (MoveResource) or addrs.AbsResourceInstance
	// (MoveResourceInstance), relative to the declaring module.
	Subject addrs.Targetable
}

func (e *MoveEndpoint) String() string { return e.Subject.String() }

// Moved is a `moved` block.
type Moved struct {
	From, To  *MoveEndpoint
	DeclRange hcl.Range
}

// RemoveEndpoint is the `from` of a removed block: a module (Resource nil)
// or a resource, relative to the declaring module, never with keys.
type RemoveEndpoint struct {
	Module      addrs.Module
	Resource    *addrs.Resource
	SourceRange hcl.Range
}

// ConfigResource gives the removed resource's static address relative to
// the declaring module; ok is false for a module endpoint.
func (e RemoveEndpoint) ConfigResource() (addrs.ConfigResource, bool) {
	if e.Resource == nil {
		return addrs.ConfigResource{}, false
	}
	return addrs.ConfigResource{Module: e.Module, Resource: *e.Resource}, true
}

func (e RemoveEndpoint) String() string {
	if e.Resource == nil {
		return e.Module.String()
	}
	r, _ := e.ConfigResource()
	return r.String()
}

// Removed is a `removed` block.
type Removed struct {
	From RemoveEndpoint
	// Destroy is false (forget) unless lifecycle { destroy = true }.
	Destroy, DestroySet bool
	Provisioners        []*Provisioner
	DeclRange           hcl.Range
}

// Import is an `import` block (root module only).
type Import struct {
	To hcl.Expression
	// ToTraversal and ToAddr are set when `to` is fully static (no
	// expressions in its index steps).
	ToTraversal hcl.Traversal
	ToAddr      *addrs.AbsResourceInstance
	// ToResource is the target's static resource, set even when index
	// keys are expressions, so the target's configuration can be found
	// before expansion.
	ToResource        addrs.ConfigResource
	ID                hcl.Expression
	ForEach           hcl.Expression
	ProviderConfigRef *ProviderConfigRef
	DeclRange         hcl.Range
}

var movedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "from", Required: true},
		{Name: "to", Required: true},
	},
}

func decodeMovedBlock(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	content, diags := block.Body.Content(movedSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	from, d := decodeMoveEndpoint(content.Attributes["from"].Expr)
	diags = append(diags, d...)
	to, d := decodeMoveEndpoint(content.Attributes["to"].Expr)
	diags = append(diags, d...)
	if from == nil || to == nil {
		return nil, diags
	}
	if from.Kind.IsModule() != to.Kind.IsModule() {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  `Invalid "moved" addresses`,
			Detail:   fmt.Sprintf("Cannot move %s (a %s) to %s (a %s): both addresses must name modules, or both must name resources.", from, from.Kind, to, to.Kind),
			Subject:  block.DefRange.Ptr(),
		})
		return nil, diags
	}
	return &Moved{From: from, To: to, DeclRange: block.DefRange}, diags
}

func decodeMoveEndpoint(expr hcl.Expression) (*MoveEndpoint, hcl.Diagnostics) {
	trav, diags := staticAddress(expr)
	if diags.HasErrors() {
		return nil, diags
	}
	target, diags := addrs.ParseTarget(trav)
	if diags.HasErrors() {
		return nil, diags
	}
	kind, ok := MoveEndpointKindOf(target.Subject)
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid address",
			Detail:   "A moved block endpoint must name a module or a resource.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return &MoveEndpoint{Traversal: trav, SourceRange: expr.Range(), Kind: kind, Subject: target.Subject}, nil
}

// MoveEndpointKindOf says what a parsed address names as a moved endpoint,
// for moved blocks and for moves team rules compute alike; ok is false for
// the root module, which no move can name (and for any address that is not
// a module or resource, which addrs.ParseTarget never gives).
func MoveEndpointKindOf(subject addrs.Targetable) (kind MoveEndpointKind, ok bool) {
	switch s := subject.(type) {
	case addrs.ModuleInstance:
		if len(s) == 0 {
			return 0, false
		}
		if s[len(s)-1].Key == nil {
			return MoveModuleCall, true
		}
		return MoveModuleInstance, true
	case addrs.AbsResource:
		return MoveResource, true
	case addrs.AbsResourceInstance:
		return MoveResourceInstance, true
	}
	return 0, false
}

// staticAddress reads an address argument: a bare traversal, or in JSON
// a string holding one.
func staticAddress(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	trav, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid address",
			Detail:   "An address is required here: a static reference such as terraform_data.example, module.example or module.example[0].terraform_data.example[\"key\"], without quotes or expressions.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return trav, nil
}

var removedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "provisioner", LabelNames: []string{"type"}},
	},
}

var removedLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "destroy"}},
}

func decodeRemovedBlock(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	rm := &Removed{DeclRange: block.DefRange}
	content, diags := block.Body.Content(removedSchema)
	attr, ok := content.Attributes["from"]
	if !ok {
		return nil, diags
	}
	from, d := decodeRemoveEndpoint(attr.Expr)
	diags = append(diags, d...)
	if d.HasErrors() {
		return nil, diags
	}
	rm.From = from

	seenLifecycle := false
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			if seenLifecycle {
				diags = append(diags, duplicate("Duplicate lifecycle block", "This removed block already has a lifecycle block; merge the two.", b.DefRange))
				continue
			}
			seenLifecycle = true
			lc, d := b.Body.Content(removedLifecycleSchema)
			diags = append(diags, d...)
			if attr, ok := lc.Attributes["destroy"]; ok {
				diags = append(diags, decodeLiteralBool(attr, &rm.Destroy)...)
				rm.DestroySet = true
			}
		case "provisioner":
			p, d := decodeProvisionerBlock(b)
			diags = append(diags, d...)
			if p == nil {
				continue
			}
			if p.When != "destroy" {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  `Invalid "removed.provisioner" block`,
					Detail:   `"removed" blocks can only contain destroy provisioners. "removed.provisioner.when = destroy" expected`,
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			if from.Resource == nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  `Invalid "removed" block`,
					Detail:   `"removed" blocks containing "provisioner"s can only target resources. Found one block that is targeting a module`,
					Subject:  block.DefRange.Ptr(),
				})
				continue
			}
			rm.Provisioners = append(rm.Provisioners, p)
		}
	}
	if diags.HasErrors() {
		return rm, diags
	}
	switch {
	case !rm.DestroySet:
		// Without destroy the object is only forgotten, which OpenTofu
		// asks people to say explicitly.
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Missing lifecycle from the removed block",
			Detail:   "It is recommended for each 'removed' block configured to have also the 'lifecycle' block defined. By not specifying if the resource should be destroyed or not, could lead to unwanted behavior.",
			Subject:  block.DefRange.Ptr(),
		})
	case !rm.Destroy && len(rm.Provisioners) > 0:
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Removed block provisioners will not be executed",
			Detail:   "The 'removed' block has marked the resource to be forgotten and not destroyed. Therefore, the provisioners configured for it will not be executed.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return rm, diags
}

func decodeRemoveEndpoint(expr hcl.Expression) (RemoveEndpoint, hcl.Diagnostics) {
	trav, diags := staticAddress(expr)
	if diags.HasErrors() {
		return RemoveEndpoint{}, diags
	}
	target, diags := addrs.ParseTarget(trav)
	if diags.HasErrors() {
		return RemoveEndpoint{}, diags
	}
	rng := expr.Range()
	var mod addrs.ModuleInstance
	ep := RemoveEndpoint{SourceRange: rng}
	switch s := target.Subject.(type) {
	case addrs.ModuleInstance:
		mod = s
		if len(s) == 0 {
			return ep, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid address",
				Detail:   "A removed block must name a module or a resource.",
				Subject:  rng.Ptr(),
			}}
		}
	case addrs.AbsResource:
		mod = s.Module
		res := s.Resource
		ep.Resource = &res
	case addrs.AbsResourceInstance:
		return ep, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Resource instance address with keys is not allowed",
			Detail:   "A removed block covers every instance of a resource; remove the instance key from the address.",
			Subject:  rng.Ptr(),
		}}
	}
	for _, step := range mod {
		if step.Key != nil {
			return ep, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Module instance address with keys is not allowed",
				Detail:   "A removed block covers every instance of a module; remove the instance keys from the address.",
				Subject:  rng.Ptr(),
			}}
		}
	}
	if ep.Resource != nil && ep.Resource.Mode == addrs.DataResourceMode {
		return ep, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Data source address is not allowed",
			Detail:   "Data sources are never stored beyond one run, so they cannot be removed; remove this block.",
			Subject:  rng.Ptr(),
		}}
	}
	ep.Module = mod.Module()
	return ep, nil
}

var importSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "to", Required: true},
		{Name: "id", Required: true},
		{Name: "for_each"},
		{Name: "provider"},
	},
}

func decodeImportBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	imp := &Import{DeclRange: block.DefRange, ID: content.Attributes["id"].Expr}
	toExpr := content.Attributes["to"].Expr
	if s, ok := literalString(toExpr); ok {
		if _, native := toExpr.(hclsyntax.Expression); !native {
			// JSON holds the address as a string; parse it as an expression
			// so index steps may still refer to each.key.
			rng := toExpr.Range()
			parsed, d := hclsyntax.ParseExpression([]byte(s), rng.Filename, rng.Start)
			diags = append(diags, d...)
			if d.HasErrors() {
				return nil, diags
			}
			toExpr = parsed
		}
	}
	imp.To = toExpr
	if attr, ok := content.Attributes["for_each"]; ok {
		imp.ForEach = attr.Expr
	}

	res, d := importTargetResource(toExpr)
	diags = append(diags, d...)
	if d.HasErrors() {
		return nil, diags
	}
	imp.ToResource = res
	if trav, d := hcl.AbsTraversalForExpr(toExpr); !d.HasErrors() {
		if addr, d := addrs.ParseAbsResourceInstance(trav); !d.HasErrors() {
			imp.ToTraversal = trav
			imp.ToAddr = &addr
		}
	}

	if attr, ok := content.Attributes["provider"]; ok {
		if len(res.Module) > 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import provider argument",
				Detail:   "The provider argument can only be used in import blocks that target a resource in the root module; a resource in a module gets its provider from that module.",
				Subject:  attr.Range.Ptr(),
			})
		} else {
			ref, d := decodeProviderConfigRef(attr.Expr, "provider")
			diags = append(diags, d...)
			imp.ProviderConfigRef = ref
		}
	}
	return imp, diags
}

// importTargetResource finds the static resource of an import target whose
// index steps may be expressions: module.a[each.key].type.name[each.value].
func importTargetResource(expr hcl.Expression) (addrs.ConfigResource, hcl.Diagnostics) {
	var names []string
	invalid := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid import address",
		Detail:   "The import target must be a resource instance address such as terraform_data.example or module.example[0].terraform_data.example[\"key\"]; only the index keys may be expressions.",
		Subject:  expr.Range().Ptr(),
	}}
	// addSteps names each step ("" for an index); false at a step of
	// another kind. (The parser puts a root step only first in a scope
	// traversal.)
	addSteps := func(t hcl.Traversal) bool {
		for _, step := range t {
			switch s := step.(type) {
			case hcl.TraverseRoot:
				names = append(names, s.Name)
			case hcl.TraverseAttr:
				names = append(names, s.Name)
			case hcl.TraverseIndex:
				names = append(names, "")
			default:
				return false
			}
		}
		return true
	}
	// Flatten the expression into its name steps, skipping index steps.
	var walk func(e hclsyntax.Expression) bool
	walk = func(e hclsyntax.Expression) bool {
		switch e := e.(type) {
		case *hclsyntax.ScopeTraversalExpr:
			return addSteps(e.Traversal)
		case *hclsyntax.RelativeTraversalExpr:
			return walk(e.Source) && addSteps(e.Traversal)
		case *hclsyntax.IndexExpr:
			if !walk(e.Collection) {
				return false
			}
			names = append(names, "")
			return true
		}
		return false
	}
	native, ok := expr.(hclsyntax.Expression)
	if !ok || !walk(native) {
		return addrs.ConfigResource{}, invalid
	}
	// names: (module NAME [""])* [data] TYPE NAME [""]
	var out addrs.ConfigResource
	i := 0
	for i < len(names) && names[i] == "module" {
		if i+1 >= len(names) || names[i+1] == "" {
			return out, invalid
		}
		out.Module = append(out.Module, names[i+1])
		i += 2
		if i < len(names) && names[i] == "" {
			i++
		}
	}
	rest := names[i:]
	if len(rest) > 0 && rest[0] == "data" {
		return out, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid import address",
			Detail:   "Only managed resources can be imported; a data source cannot be an import target.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	if len(rest) < 2 || len(rest) > 3 || rest[0] == "" || rest[1] == "" || (len(rest) == 3 && rest[2] != "") {
		return out, invalid
	}
	out.Resource = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: rest[0], Name: rest[1]}
	return out, nil
}
