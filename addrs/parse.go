package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Targetable is anything -target, -exclude or -replace can name: a module
// instance, a module (keyless last step), a resource or a resource instance.
type Targetable interface {
	targetableSigil()
	String() string
}

func (ModuleInstance) targetableSigil()      {}
func (AbsResource) targetableSigil()         {}
func (AbsResourceInstance) targetableSigil() {}

// Target is a parsed target address with the range it came from.
type Target struct {
	Subject     Targetable
	SourceRange hcl.Range
}

// ParseTarget reads a traversal such as module.a[0].aws_instance.b["k"].
// A trailing resource without a key is an AbsResource; a traversal that
// ends in a module step is a ModuleInstance.
func ParseTarget(traversal hcl.Traversal) (*Target, hcl.Diagnostics) {
	mod, rest, diags := parseModuleInstancePrefix(traversal)
	if diags.HasErrors() {
		return nil, diags
	}
	rng := traversal.SourceRange()
	if len(rest) == 0 {
		return &Target{Subject: mod, SourceRange: rng}, diags
	}
	res, key, hasKey, moreDiags := parseResourceSteps(rest)
	diags = append(diags, moreDiags...)
	if diags.HasErrors() {
		return nil, diags
	}
	if !hasKey {
		return &Target{Subject: AbsResource{Module: mod, Resource: res}, SourceRange: rng}, diags
	}
	return &Target{Subject: AbsResourceInstance{Module: mod, Resource: ResourceInstance{Resource: res, Key: key}}, SourceRange: rng}, diags
}

// ParseTargetStr parses a target given on the command line.
func ParseTargetStr(s string) (*Target, hcl.Diagnostics) {
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, invalidAddress(s, "it is not a valid address", hcl.Range{})
	}
	return ParseTarget(traversal)
}

// ParseAbsResourceInstance reads a resource instance address. A resource
// address without a key is accepted as its NoKey instance.
func ParseAbsResourceInstance(traversal hcl.Traversal) (AbsResourceInstance, hcl.Diagnostics) {
	t, diags := ParseTarget(traversal)
	if diags.HasErrors() {
		return AbsResourceInstance{}, diags
	}
	switch s := t.Subject.(type) {
	case AbsResourceInstance:
		return s, diags
	case AbsResource:
		return s.Instance(NoKey), diags
	}
	return AbsResourceInstance{}, append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid resource instance address",
		Detail:   "A resource instance address is required here; a module address was given.",
		Subject:  traversal.SourceRange().Ptr(),
	})
}

// ParseAbsResourceInstanceStr parses a resource instance address string.
func ParseAbsResourceInstanceStr(s string) (AbsResourceInstance, hcl.Diagnostics) {
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return AbsResourceInstance{}, invalidAddress(s, "it is not a valid resource instance address", hcl.Range{})
	}
	return ParseAbsResourceInstance(traversal)
}

// ParseAbsResourceStr parses a resource address (no instance key allowed).
func ParseAbsResourceStr(s string) (AbsResource, hcl.Diagnostics) {
	t, diags := ParseTargetStr(s)
	if diags.HasErrors() {
		return AbsResource{}, diags
	}
	if r, ok := t.Subject.(AbsResource); ok {
		return r, diags
	}
	return AbsResource{}, invalidAddress(s, "a resource address without an instance key is required", hcl.Range{})
}

// ParseModuleInstanceStr parses module.a[0].module.b (or "" for root).
func ParseModuleInstanceStr(s string) (ModuleInstance, hcl.Diagnostics) {
	if s == "" {
		return RootModuleInstance, nil
	}
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, invalidAddress(s, "it is not a valid module instance address", hcl.Range{})
	}
	mod, rest, diags := parseModuleInstancePrefix(traversal)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(rest) > 0 {
		return nil, invalidAddress(s, "only module steps are allowed in a module instance address", rest.SourceRange())
	}
	return mod, nil
}

func parseModuleInstancePrefix(traversal hcl.Traversal) (ModuleInstance, hcl.Traversal, hcl.Diagnostics) {
	var mod ModuleInstance
	remain := traversal
	for len(remain) > 0 {
		if stepName(remain[0]) != "module" {
			break
		}
		if len(remain) < 2 {
			return nil, nil, addressError("The keyword \"module\" must be followed by a module name.", remain.SourceRange())
		}
		nameStep, ok := remain[1].(hcl.TraverseAttr)
		if !ok {
			return nil, nil, addressError("The keyword \"module\" must be followed by a module name.", remain[1].SourceRange())
		}
		remain = remain[2:]
		step := ModuleInstanceStep{Name: nameStep.Name}
		if len(remain) > 0 {
			if idx, ok := remain[0].(hcl.TraverseIndex); ok {
				key, diags := keyFromIndex(idx)
				if diags.HasErrors() {
					return nil, nil, diags
				}
				step.Key = key
				remain = remain[1:]
			}
		}
		mod = append(mod, step)
	}
	return mod, remain, nil
}

func parseResourceSteps(remain hcl.Traversal) (Resource, InstanceKey, bool, hcl.Diagnostics) {
	var res Resource
	mode := ManagedResourceMode
	if stepName(remain[0]) == "data" {
		mode = DataResourceMode
		remain = remain[1:]
	}
	if len(remain) < 2 {
		return res, nil, false, addressError("A resource address needs a resource type and a name, such as terraform_data.example.", remain.SourceRange())
	}
	typ := stepName(remain[0])
	nameStep, ok := remain[1].(hcl.TraverseAttr)
	if typ == "" || !ok {
		return res, nil, false, addressError("A resource address needs a resource type and a name, such as terraform_data.example.", remain.SourceRange())
	}
	res = Resource{Mode: mode, Type: typ, Name: nameStep.Name}
	remain = remain[2:]
	if len(remain) == 0 {
		return res, nil, false, nil
	}
	idx, ok := remain[0].(hcl.TraverseIndex)
	if !ok || len(remain) > 1 {
		return res, nil, false, addressError("A resource instance address may end with one index such as [0] or [\"key\"], and nothing after it.", remain.SourceRange())
	}
	key, diags := keyFromIndex(idx)
	return res, key, true, diags
}

func keyFromIndex(idx hcl.TraverseIndex) (InstanceKey, hcl.Diagnostics) {
	key, err := KeyFromValue(idx.Key)
	if err != nil {
		return nil, addressError(fmt.Sprintf("Invalid instance key: %s.", err), idx.SrcRange)
	}
	return key, nil
}

func stepName(step hcl.Traverser) string {
	switch s := step.(type) {
	case hcl.TraverseRoot:
		return s.Name
	case hcl.TraverseAttr:
		return s.Name
	}
	return ""
}

func invalidAddress(s, why string, rng hcl.Range) hcl.Diagnostics {
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid address",
		Detail:   fmt.Sprintf("The address %q is not valid: %s.", s, why),
	}
	if rng.Filename != "" {
		d.Subject = rng.Ptr()
	}
	return hcl.Diagnostics{d}
}

// addressError is the error for an address that is not valid: detail
// says why, rng where.
func addressError(detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid address", Detail: detail, Subject: rng.Ptr()}}
}
