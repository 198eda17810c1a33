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
		return nil, diags
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
	return AbsResourceInstance{}, addressError("A resource instance address is required here. The module path must be followed by a resource instance specification.", traversal.SourceRange())
}

// The parsers of strings below report a string that is no traversal with
// HCL's own diagnostics, as OpenTofu does (they name no file: the string
// came from the command line or a state file).

// ParseAbsResourceInstanceStr parses a resource instance address string.
func ParseAbsResourceInstanceStr(s string) (AbsResourceInstance, hcl.Diagnostics) {
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return AbsResourceInstance{}, diags
	}
	return ParseAbsResourceInstance(traversal)
}

// ParseAbsResourceStr parses a resource address (no instance key allowed).
func ParseAbsResourceStr(s string) (AbsResource, hcl.Diagnostics) {
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return AbsResource{}, diags
	}
	t, diags := ParseTarget(traversal)
	if diags.HasErrors() {
		return AbsResource{}, diags
	}
	switch r := t.Subject.(type) {
	case AbsResource:
		return r, diags
	case AbsResourceInstance:
		return AbsResource{}, addressError("A resource address is required. This instance key identifies a specific resource instance, which is not expected here.", traversal[len(traversal)-1].SourceRange())
	}
	return AbsResource{}, addressError("A resource address is required here. The module path must be followed by a resource specification.", traversal.SourceRange())
}

// ParseModuleInstanceStr parses module.a[0].module.b (or "" for root).
func ParseModuleInstanceStr(s string) (ModuleInstance, hcl.Diagnostics) {
	if s == "" {
		return RootModuleInstance, nil
	}
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	mod, rest, diags := parseModuleInstancePrefix(traversal)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(rest) > 0 {
		detail := "The module instance address is followed by additional invalid content."
		if len(rest) == len(traversal) {
			detail = "A module instance address must begin with \"module.\"."
		}
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid module instance address", Detail: detail, Subject: rest.SourceRange().Ptr()}}
	}
	return mod, nil
}

func parseModuleInstancePrefix(traversal hcl.Traversal) (ModuleInstance, hcl.Traversal, hcl.Diagnostics) {
	var mod ModuleInstance
	remain := traversal
	for len(remain) > 0 {
		switch remain[0].(type) {
		case hcl.TraverseRoot, hcl.TraverseAttr:
		default:
			return nil, nil, operatorError("Module address prefix must be followed by dot and then a name.", remain[0].SourceRange())
		}
		if stepName(remain[0]) != "module" {
			break
		}
		if len(remain) < 2 {
			return nil, nil, operatorError("Prefix \"module.\" must be followed by a module name.", remain[0].SourceRange())
		}
		nameStep, ok := remain[1].(hcl.TraverseAttr)
		if !ok {
			return nil, nil, operatorError("Prefix \"module.\" must be followed by a module name.", remain[1].SourceRange())
		}
		remain = remain[2:]
		step := ModuleInstanceStep{Name: nameStep.Name}
		if len(remain) > 0 {
			if idx, ok := remain[0].(hcl.TraverseIndex); ok {
				key, err := KeyFromValue(idx.Key)
				if err != nil {
					return nil, nil, operatorError(fmt.Sprintf("Invalid module index: %s.", err), idx.SrcRange)
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
		return res, nil, false, addressError("Resource specification must include a resource type and name.", remain.SourceRange())
	}
	typ := stepName(remain[0])
	if typ == "" {
		detail := "A resource type name is required."
		if mode == DataResourceMode {
			detail = "A data source name is required."
		}
		return res, nil, false, addressError(detail, remain[0].SourceRange())
	}
	nameStep, ok := remain[1].(hcl.TraverseAttr)
	if !ok {
		return res, nil, false, addressError("A resource name is required.", remain[1].SourceRange())
	}
	res = Resource{Mode: mode, Type: typ, Name: nameStep.Name}
	remain = remain[2:]
	switch {
	case len(remain) == 0:
		return res, nil, false, nil
	case len(remain) > 1:
		return res, nil, false, addressError("Unexpected extra operators after address.", remain[1].SourceRange())
	}
	idx, ok := remain[0].(hcl.TraverseIndex)
	if !ok {
		return res, nil, false, addressError("Resource instance key must be given in square brackets.", remain[0].SourceRange())
	}
	key, err := KeyFromValue(idx.Key)
	if err != nil {
		return res, nil, false, addressError(fmt.Sprintf("Invalid resource instance key: %s.", err), idx.SrcRange)
	}
	return res, key, true, nil
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

// addressError is the error for an address that is not valid: detail
// says why, rng where.
func addressError(detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid address", Detail: detail, Subject: rng.Ptr()}}
}

// operatorError is the error for a module step that is not valid.
func operatorError(detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid address operator", Detail: detail, Subject: rng.Ptr()}}
}
