package eval

import (
	"fmt"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
)

// The problems of references to the built-in objects (path, terraform,
// self) that parse but name nothing, with OpenTofu's texts. Without them
// HCL would report an unknown variable or attribute, in other words.

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

// terraformAttrProblem refuses terraform.NAME for a NAME other than
// workspace; env, its name before Terraform 0.12, gets its own word.
func terraformAttrProblem(a addrs.TerraformAttr, ref *addrs.Reference) *hcl.Diagnostic {
	root := "terraform"
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
