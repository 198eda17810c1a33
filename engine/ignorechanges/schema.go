package ignorechanges

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/providers"
)

// CheckAgainstSchema checks each ignore_changes path of a managed
// resource block against its schema, once per block, as validate and plan
// both do: an unknown root attribute is an error, a computed-only
// attribute a redundant element.
func CheckAgainstSchema(res *config.Resource, schema *providers.Schema) hcl.Diagnostics {
	if res == nil || res.Managed == nil || schema == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, t := range res.Managed.IgnoreChanges {
		path, ok := Path(t)
		if !ok || len(path) == 0 {
			continue
		}
		ga, _ := path[0].(cty.GetAttrStep)
		name := ga.Name
		block := schema.Block
		a, isAttr := block.Attributes[name]
		_, isBlock := block.BlockTypes[name]
		if !isAttr && !isBlock {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported attribute",
				Detail:   fmt.Sprintf("This object has no argument, nested block, or exported attribute named %q.", name),
				Subject:  t.SourceRange().Ptr(),
			})
			continue
		}
		if !isAttr {
			a = block.AttributeByPath(path)
		}
		if a != nil && a.Computed && !a.Optional {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Redundant ignore_changes element",
				Detail:   fmt.Sprintf("Adding an attribute name to ignore_changes tells tenet to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute %s is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.", strings.TrimPrefix(addrs.TraversalString(t), ".")),
				Subject:  res.TypeRange.Ptr(), // OpenTofu points at the block's type, not the element
			})
		}
	}
	return diags
}
