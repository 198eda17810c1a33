package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Check is a `check` block: assertions about the whole configuration that
// warn, never block, plus data sources read only for them.
type Check struct {
	Name    string
	Asserts []*CheckRule
	// DataResources are the check's scoped data sources, also registered
	// in the module's DataResources with CheckName set.
	DataResources []*Resource
	DeclRange     hcl.Range
}

func (c *Check) declRange() hcl.Range { return c.DeclRange }

var checkBlockSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "assert"},
		{Type: "data", LabelNames: []string{"type", "name"}},
	},
}

func decodeCheckBlock(block *hcl.Block) (*Check, hcl.Diagnostics) {
	c := &Check{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkName("Invalid check block name", "check block name", c.Name, block.LabelRanges[0])
	content, d := block.Body.Content(checkBlockSchema)
	diags = append(diags, d...)
	for _, b := range content.Blocks {
		switch b.Type {
		case "assert":
			rule, d := decodeCheckRule(b)
			diags = append(diags, d...)
			if rule != nil {
				c.Asserts = append(c.Asserts, rule)
			}
		case "data":
			if len(c.DataResources) > 0 {
				// As OpenTofu: a check block reads at most one data source.
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Multiple data resource blocks",
					Detail:   fmt.Sprintf("This check block already has a data resource defined at %s.", c.DataResources[0].DeclRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			r, d := decodeResourceBlock(b)
			diags = append(diags, d...)
			if r != nil {
				r.CheckName = c.Name
				c.DataResources = append(c.DataResources, r)
			}
		}
	}
	if len(c.Asserts) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Zero assert blocks",
			Detail:   "Check blocks must have at least one assert block.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return c, diags
}
