package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"
)

// ParseRef reads the object a traversal refers to, as OpenTofu 1.10 reads
// references: var, local, count, each, path, terraform and tofu take one
// attribute; module.NAME may be followed by an instance key and an output
// name; data.TYPE.NAME and resource.TYPE.NAME (the long form of TYPE.NAME)
// name resources, as does any other root; template, lazy and arg are
// reserved. A resource's instance key is taken from a literal index after
// its name.
//
// A malformed single-attribute reference (var alone, path[0]) is refused
// but, as OpenTofu's, still yields a reference with an empty name and no
// source range, which OpenTofu goes on to look up: the callers report
// that lookup too (see the engine's handling of empty names).
func ParseRef(traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	root := traversal.RootName()
	rootRng := traversal[0].SourceRange()
	switch root {
	case "var":
		return singleAttrRef(traversal, func(n string) Referenceable { return InputVariable{Name: n} })
	case "local":
		return singleAttrRef(traversal, func(n string) Referenceable { return LocalValue{Name: n} })
	case "count":
		return singleAttrRef(traversal, func(n string) Referenceable { return CountAttr{Name: n} })
	case "each":
		return singleAttrRef(traversal, func(n string) Referenceable { return ForEachAttr{Name: n} })
	case "path":
		return singleAttrRef(traversal, func(n string) Referenceable { return PathAttr{Name: n} })
	case "terraform":
		return singleAttrRef(traversal, func(n string) Referenceable { return TerraformAttr{Name: n} })
	case "tofu":
		return singleAttrRef(traversal, func(n string) Referenceable { return TerraformAttr{Name: n, Alias: "tofu"} })
	case "module":
		return moduleCallRef(traversal)
	case "self":
		return &Reference{Subject: Self{}, SourceRange: rootRng, Remaining: traversal[1:]}, nil
	case "data", "resource":
		mode, what := DataResourceMode, "data source"
		if root == "resource" {
			mode, what = ManagedResourceMode, "resource"
		}
		if len(traversal) < 3 {
			return nil, referenceError(fmt.Sprintf("The %q object must be followed by two attribute names: the %s type and the resource name.", root, what), traversal.SourceRange())
		}
		ref, diags := resourceRef(mode, rootRng, traversal, 1)
		if ref != nil && root == "resource" {
			ref.LongForm = true
		}
		return ref, diags
	case "template", "lazy", "arg":
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Reserved symbol name",
			Detail:   fmt.Sprintf("The symbol name %q is reserved for use in a future tenet version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root),
			Subject:  rootRng.Ptr(),
		}}
	default:
		return resourceRef(ManagedResourceMode, rootRng, traversal, 0)
	}
}

// singleAttrRef reads ROOT.NAME. See ParseRef for what a malformed one
// yields.
func singleAttrRef(traversal hcl.Traversal, subject func(name string) Referenceable) (*Reference, hcl.Diagnostics) {
	root := traversal.RootName()
	if len(traversal) < 2 {
		return &Reference{Subject: subject("")}, referenceError(fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", root), traversal[0].SourceRange())
	}
	a, ok := traversal[1].(hcl.TraverseAttr)
	if !ok {
		return &Reference{Subject: subject("")}, referenceError(fmt.Sprintf("The %q object does not support this operation.", root), traversal[1].SourceRange())
	}
	return &Reference{Subject: subject(a.Name), SourceRange: hcl.RangeBetween(traversal[0].SourceRange(), a.SrcRange), Remaining: traversal[2:]}, nil
}

// moduleCallRef reads module.NAME, module.NAME[KEY] and either followed
// by an output name; the subject is the call, the rest Remaining.
func moduleCallRef(traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	ref, diags := singleAttrRef(traversal, func(n string) Referenceable { return ModuleCall{Name: n} })
	if diags.HasErrors() {
		return nil, diags
	}
	rest := ref.Remaining
	if len(rest) > 0 {
		if idx, ok := rest[0].(hcl.TraverseIndex); ok {
			if _, err := instanceKey(idx.Key); err != nil {
				return nil, invalidKey("module", err, idx.SrcRange)
			}
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		if _, ok := rest[0].(hcl.TraverseAttr); !ok {
			return nil, referenceError("Module instance objects do not support this operation.", rest[0].SourceRange())
		}
	}
	return ref, nil
}

// resourceRef reads TYPE.NAME, optionally followed by a literal instance
// key, from traversal[skip:]; rootRng starts the reference's range.
func resourceRef(mode ResourceMode, rootRng hcl.Range, traversal hcl.Traversal, skip int) (*Reference, hcl.Diagnostics) {
	rest := traversal[skip:]
	if len(rest) < 2 {
		return nil, referenceError("A reference to a resource type must be followed by at least one attribute access, specifying the resource name.", hcl.RangeBetween(rest[0].SourceRange(), rest[len(rest)-1].SourceRange()))
	}
	var typ string
	switch step := rest[0].(type) {
	case hcl.TraverseRoot:
		typ = step.Name
	case hcl.TraverseAttr:
		typ = step.Name
	default:
		return nil, referenceError(`The "data" object does not support this operation.`, rest[0].SourceRange())
	}
	nameStep, ok := rest[1].(hcl.TraverseAttr)
	if !ok {
		what := "resource type"
		if mode == DataResourceMode {
			what = "data source"
		}
		return nil, referenceError(fmt.Sprintf("A reference to a %s must be followed by at least one attribute access, specifying the resource name.", what), rest[1].SourceRange())
	}
	res := Resource{Mode: mode, Type: typ, Name: nameStep.Name}
	rng := hcl.RangeBetween(rootRng, nameStep.SrcRange)
	rest = rest[2:]
	if len(rest) > 0 {
		if idx, ok := rest[0].(hcl.TraverseIndex); ok {
			key, err := instanceKey(idx.Key)
			if err != nil {
				return nil, invalidKey("resource", err, idx.SrcRange)
			}
			return &Reference{Subject: ResourceInstance{Resource: res, Key: key}, SourceRange: hcl.RangeBetween(rng, idx.SrcRange), Remaining: rest[1:]}, nil
		}
	}
	return &Reference{Subject: res, SourceRange: rng, Remaining: rest}, nil
}

// instanceKey reads a literal index as an instance key: a string, or a
// number that fits a whole int (in go-cty's words otherwise).
func instanceKey(v cty.Value) (InstanceKey, error) {
	switch v.Type() {
	case cty.String:
		return StringKey(v.AsString()), nil
	case cty.Number:
		var i int
		if err := gocty.FromCtyValue(v, &i); err != nil {
			return nil, err
		}
		return IntKey(i), nil
	}
	return nil, fmt.Errorf("either a string or an integer is required")
}

func invalidKey(what string, err error, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid index key",
		Detail:   fmt.Sprintf("Invalid index for %s instance: %s.", what, err),
		Subject:  rng.Ptr(),
	}}
}

// referenceError is the error for a reference that is not valid: detail
// says why, rng where.
func referenceError(detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid reference", Detail: detail, Subject: rng.Ptr()}}
}
