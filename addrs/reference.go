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

// TerraformAttr is terraform.NAME or tofu.NAME (e.g. "workspace"); Alias
// is the root it was written with, "" standing for "terraform".
type TerraformAttr struct{ Name, Alias string }

// Root is the name the reference was written with.
func (v TerraformAttr) Root() string {
	if v.Alias == "" {
		return "terraform"
	}
	return v.Alias
}

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
func (v TerraformAttr) String() string { return v.Root() + "." + v.Name }
func (Self) String() string            { return "self" }

// Reference is one use of a referenceable object in an expression, with
// the rest of the traversal (attribute and index steps after the object).
type Reference struct {
	Subject     Referenceable
	SourceRange hcl.Range
	Remaining   hcl.Traversal
	// LongForm: a managed resource written resource.TYPE.NAME, which an
	// evaluation context must then offer under "resource" too.
	LongForm bool
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
