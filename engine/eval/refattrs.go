package eval

import (
	"fmt"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
)

// The problems of references to the built-in objects (path, terraform,
// count, each, self) that parse but name nothing, with OpenTofu's texts.
// Without them HCL would report an unknown variable or attribute, in
// other words.

// AttrProblem refuses a reference to an attribute the path, terraform
// (or tofu), count or each object does not have; nil for any other
// reference. The graph also asks it about the empty-named references a
// malformed one leaves (see addrs.ParseRef), which OpenTofu reports so.
func AttrProblem(ref *addrs.Reference) *hcl.Diagnostic {
	switch sub := ref.Subject.(type) {
	case addrs.PathAttr:
		return pathAttrProblem(sub, ref)
	case addrs.TerraformAttr:
		return terraformAttrProblem(sub, ref)
	case addrs.CountAttr:
		if sub.Name == "index" {
			return nil
		}
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  `Invalid "count" attribute`,
			Detail:   fmt.Sprintf(`The "count" object does not have an attribute named %q. The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.`, sub.Name),
			Subject:  ref.SourceRange.Ptr(),
		}
	case addrs.ForEachAttr:
		if sub.Name == "key" || sub.Name == "value" {
			return nil
		}
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  `Invalid "each" attribute`,
			Detail:   fmt.Sprintf(`The "each" object does not have an attribute named %q. The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.`, sub.Name),
			Subject:  ref.SourceRange.Ptr(),
		}
	}
	return nil
}

// pathAttrProblem refuses path.NAME for a NAME other than cwd, module
// and root, suggesting the nearest.
func pathAttrProblem(a addrs.PathAttr, ref *addrs.Reference) *hcl.Diagnostic {
	var suggestion string
	for _, name := range []string{"cwd", "module", "root"} {
		if name == a.Name {
			return nil
		}
		if suggestion == "" && levenshtein.Distance(a.Name, name, nil) < 3 {
			suggestion = fmt.Sprintf(" Did you mean %q?", name)
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  `Invalid "path" attribute`,
		Detail:   fmt.Sprintf(`The "path" object does not have an attribute named %q.%s`, a.Name, suggestion),
		Subject:  ref.SourceRange.Ptr(),
	}
}

// terraformAttrProblem refuses terraform.NAME (or tofu.NAME) for a NAME
// other than workspace; env, its name before Terraform 0.12, gets its
// own word.
func terraformAttrProblem(a addrs.TerraformAttr, ref *addrs.Reference) *hcl.Diagnostic {
	root := a.Root()
	detail := fmt.Sprintf(`The %q object does not have an attribute named %q. The only supported attribute is %s.workspace, the name of the currently-selected workspace.`, root, a.Name, root)
	switch a.Name {
	case "workspace":
		return nil
	case "env":
		detail = fmt.Sprintf(`The %s.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the %s.workspace attribute.`, root, root)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %q attribute", root),
		Detail:   detail,
		Subject:  ref.SourceRange.Ptr(),
	}
}

// selfUnavailable refuses self where nothing binds it.
func selfUnavailable(ref *addrs.Reference) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  `Invalid "self" reference`,
		Detail:   `The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`,
		Subject:  ref.SourceRange.Ptr(),
	}
}
