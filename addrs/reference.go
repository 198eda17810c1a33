package addrs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Referenceable is anything an expression can refer to.
type Referenceable interface {
	referenceableSigil()
	String() string
}

// InputVariable is var.NAME.
type InputVariable struct{ Name string }

// LocalValue is local.NAME.
type LocalValue struct{ Name string }

// ModuleCall is module.NAME (the whole call; its outputs via Remaining).
type ModuleCall struct{ Name string }

// CountAttr is count.NAME (only "index").
type CountAttr struct{ Name string }

// ForEachAttr is each.NAME ("key" or "value").
type ForEachAttr struct{ Name string }

// PathAttr is path.NAME ("module", "root", "cwd").
type PathAttr struct{ Name string }

// TerraformAttr is terraform.NAME (e.g. "workspace").
type TerraformAttr struct{ Name string }

// Self is `self` inside provisioner and condition blocks.
type Self struct{}

func (InputVariable) referenceableSigil()    {}
func (LocalValue) referenceableSigil()       {}
func (ModuleCall) referenceableSigil()       {}
func (CountAttr) referenceableSigil()        {}
func (ForEachAttr) referenceableSigil()      {}
func (PathAttr) referenceableSigil()         {}
func (TerraformAttr) referenceableSigil()    {}
func (Self) referenceableSigil()             {}
func (Resource) referenceableSigil()         {}
func (ResourceInstance) referenceableSigil() {}

func (v InputVariable) String() string { return "var." + v.Name }
func (v LocalValue) String() string    { return "local." + v.Name }
func (v ModuleCall) String() string    { return "module." + v.Name }
func (v CountAttr) String() string     { return "count." + v.Name }
func (v ForEachAttr) String() string   { return "each." + v.Name }
func (v PathAttr) String() string      { return "path." + v.Name }
func (v TerraformAttr) String() string { return "terraform." + v.Name }
func (Self) String() string            { return "self" }

// Reference is one use of a referenceable object in an expression, with
// the rest of the traversal (attribute and index steps after the object).
type Reference struct {
	Subject     Referenceable
	SourceRange hcl.Range
	Remaining   hcl.Traversal
}

// ParseRef reads the object a traversal refers to. Resource references
// take an instance key from the step after the name only when it is a
// literal index; otherwise the Subject is the whole Resource.
func ParseRef(traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	root := traversal.RootName()
	rng := traversal.SourceRange()
	attrAfterRoot := func(what string) (string, hcl.Diagnostics) {
		if len(traversal) < 2 {
			return "", referenceError(fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes, such as %s.", root, what), rng)
		}
		a, ok := traversal[1].(hcl.TraverseAttr)
		if !ok {
			return "", referenceError(fmt.Sprintf("The %q object does not support this operation; access one of its attributes, such as %s.", root, what), traversal[1].SourceRange())
		}
		return a.Name, nil
	}
	named := func(subject Referenceable, what string) (*Reference, hcl.Diagnostics) {
		return &Reference{Subject: subject, SourceRange: traversal[:2].SourceRange(), Remaining: traversal[2:]}, nil
	}
	switch root {
	case "var":
		name, diags := attrAfterRoot("var.example")
		if diags.HasErrors() {
			return nil, diags
		}
		return named(InputVariable{Name: name}, "")
	case "local":
		name, diags := attrAfterRoot("local.example")
		if diags.HasErrors() {
			return nil, diags
		}
		return named(LocalValue{Name: name}, "")
	case "module":
		name, diags := attrAfterRoot("module.example.output")
		if diags.HasErrors() {
			return nil, diags
		}
		return named(ModuleCall{Name: name}, "")
	case "count":
		name, diags := attrAfterRoot("count.index")
		if diags.HasErrors() {
			return nil, diags
		}
		return named(CountAttr{Name: name}, "")
	case "each":
		name, diags := attrAfterRoot("each.key")
		if diags.HasErrors() {
			return nil, diags
		}
		return named(ForEachAttr{Name: name}, "")
	case "path":
		name, diags := attrAfterRoot("path.module")
		if diags.HasErrors() {
			return nil, diags
		}
		return named(PathAttr{Name: name}, "")
	case "terraform":
		name, diags := attrAfterRoot("terraform.workspace")
		if diags.HasErrors() {
			return nil, diags
		}
		return named(TerraformAttr{Name: name}, "")
	case "self":
		return &Reference{Subject: Self{}, SourceRange: traversal[:1].SourceRange(), Remaining: traversal[1:]}, nil
	case "data":
		if len(traversal) < 3 {
			return nil, referenceError("A reference to a data source must be followed by at least one attribute access, specifying the resource type and name.", rng)
		}
		return parseResourceRef(DataResourceMode, traversal, traversal[1:])
	default:
		return parseResourceRef(ManagedResourceMode, traversal, traversal)
	}
}

func parseResourceRef(mode ResourceMode, whole, remain hcl.Traversal) (*Reference, hcl.Diagnostics) {
	typ := stepName(remain[0])
	if len(remain) < 2 {
		return nil, referenceError("A reference to a resource type must be followed by at least one attribute access, specifying the resource name.", whole.SourceRange())
	}
	nameStep, ok := remain[1].(hcl.TraverseAttr)
	if !ok {
		return nil, referenceError("A resource type must be followed by the resource name, as in type.name.", remain[1].SourceRange())
	}
	res := Resource{Mode: mode, Type: typ, Name: nameStep.Name}
	consumed := len(whole) - len(remain) + 2
	if len(whole) > consumed {
		if idx, ok := whole[consumed].(hcl.TraverseIndex); ok {
			if key, err := KeyFromValue(idx.Key); err == nil {
				return &Reference{
					Subject:     ResourceInstance{Resource: res, Key: key},
					SourceRange: whole[:consumed+1].SourceRange(),
					Remaining:   whole[consumed+1:],
				}, nil
			}
		}
	}
	return &Reference{Subject: res, SourceRange: whole[:consumed].SourceRange(), Remaining: whole[consumed:]}, nil
}

// References parses every traversal an expression or body uses, skipping
// the ones that are not references (diagnostics for the malformed ones).
func References(traversals []hcl.Traversal) ([]*Reference, hcl.Diagnostics) {
	var refs []*Reference
	var diags hcl.Diagnostics
	for _, t := range traversals {
		ref, d := ParseRef(t)
		diags = append(diags, d...)
		if ref != nil {
			refs = append(refs, ref)
		}
	}
	return refs, diags
}

// TraversalString writes a traversal as it reads in configuration, e.g.
// module.m.aws_instance.web, var.name or .tags["Name"] for relative steps.
// Index keys other than strings and numbers (and splats) are left out.
func TraversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteByte('.')
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			switch s.Key.Type() {
			case cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			}
		}
	}
	return b.String()
}

// referenceError is the error for a reference that is not valid: detail
// says why, rng where.
func referenceError(detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid reference", Detail: detail, Subject: rng.Ptr()}}
}
