package config

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// overrideBlock merges one block of an override file into the primary
// block of the same identity and decodes the result again. Arguments in
// the override replace the primary's; nested blocks of a type the
// override mentions replace all the primary's blocks of that type, except
// that lifecycle blocks merge argument by argument.
func (m *Module) overrideBlock(block *hcl.Block) hcl.Diagnostics {
	switch block.Type {
	case "terraform":
		return m.decodeTerraformBlock(block, true)
	case "locals":
		attrs, diags := block.Body.JustAttributes()
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			attr := attrs[name]
			if _, ok := m.Locals[name]; !ok {
				diags = append(diags, missingBase("local value", name, attr.NameRange))
				continue
			}
			m.Locals[name] = &Local{Name: name, Expr: attr.Expr, DeclRange: attr.Range}
		}
		return diags
	case "moved", "removed", "import", "check":
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported override block",
			Detail:   fmt.Sprintf("A %s block cannot be overridden; move it into a primary configuration file.", block.Type),
			Subject:  block.DefRange.Ptr(),
		}}
	}

	key := blockKey(block)
	if block.Type == "provider" {
		p, diags := decodeProviderBlock(block)
		if p == nil {
			return diags
		}
		key = "provider." + p.Key()
	}
	base, ok := m.rawBlocks[key]
	if !ok {
		return hcl.Diagnostics{missingBase(block.Type, key, block.DefRange)}
	}
	merged := &hcl.Block{
		Type:        base.Type,
		Labels:      base.Labels,
		Body:        &mergedBody{base: base.Body, over: block.Body},
		DefRange:    base.DefRange,
		TypeRange:   base.TypeRange,
		LabelRanges: base.LabelRanges,
	}
	var diags hcl.Diagnostics
	switch block.Type {
	case "provider":
		p, d := decodeProviderBlock(merged)
		diags = d
		if p != nil {
			delete(m.ProviderConfigs, key[len("provider."):])
			m.ProviderConfigs[p.Key()] = p
		}
	case "variable":
		v, d := decodeVariableBlock(merged)
		diags = d
		m.Variables[v.Name] = v
	case "output":
		o, d := decodeOutputBlock(merged)
		diags = d
		m.Outputs[o.Name] = o
	case "module":
		mc, d := decodeModuleBlock(merged)
		diags = d
		m.ModuleCalls[mc.Name] = mc
	case "resource", "data":
		r, d := decodeResourceBlock(merged)
		diags = d
		if r.Mode == 0 {
			break
		}
		if r.Managed != nil {
			m.ManagedResources[r.Addr().String()] = r
		} else {
			m.DataResources[r.Addr().String()] = r
		}
	}
	m.rawBlocks[key] = merged
	return diags
}

func missingBase(what, name string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Missing base %s to override", what),
		Detail:   fmt.Sprintf("There is no %s named %q in a primary configuration file for this override to apply to. An override file can only change blocks declared elsewhere.", what, name),
		Subject:  rng.Ptr(),
	}
}

// mergedBody is a primary body with an override body laid over it.
type mergedBody struct {
	base, over hcl.Body
}

// mergeInBlocks are nested block types merged rather than replaced.
var mergeInBlocks = map[string]bool{"lifecycle": true}

func optionalSchema(schema *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Blocks: schema.Blocks}
	for _, a := range schema.Attributes {
		a.Required = false
		out.Attributes = append(out.Attributes, a)
	}
	return out
}

func (b *mergedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	opt := optionalSchema(schema)
	baseC, diags := b.base.Content(opt)
	overC, d := b.over.Content(opt)
	diags = append(diags, d...)
	content := b.merge(baseC, overC)
	diags = append(diags, checkRequired(schema, content, b.MissingItemRange())...)
	return content, diags
}

func (b *mergedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	opt := optionalSchema(schema)
	baseC, baseRemain, diags := b.base.PartialContent(opt)
	overC, overRemain, d := b.over.PartialContent(opt)
	diags = append(diags, d...)
	content := b.merge(baseC, overC)
	diags = append(diags, checkRequired(schema, content, b.MissingItemRange())...)
	return content, &mergedBody{base: baseRemain, over: overRemain}, diags
}

func (b *mergedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.base.JustAttributes()
	over, d := b.over.JustAttributes()
	diags = append(diags, d...)
	out := make(hcl.Attributes, len(attrs)+len(over))
	for k, v := range attrs {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out, diags
}

func (b *mergedBody) MissingItemRange() hcl.Range { return b.base.MissingItemRange() }

func (b *mergedBody) merge(base, over *hcl.BodyContent) *hcl.BodyContent {
	out := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: base.MissingItemRange}
	for k, v := range base.Attributes {
		out.Attributes[k] = v
	}
	for k, v := range over.Attributes {
		out.Attributes[k] = v
	}
	overTypes := map[string][]*hcl.Block{}
	for _, blk := range over.Blocks {
		overTypes[blk.Type] = append(overTypes[blk.Type], blk)
	}
	for _, blk := range base.Blocks {
		overs, replaced := overTypes[blk.Type]
		if !replaced {
			out.Blocks = append(out.Blocks, blk)
			continue
		}
		if mergeInBlocks[blk.Type] && len(overs) == 1 {
			merged := *blk
			merged.Body = &mergedBody{base: blk.Body, over: overs[0].Body}
			out.Blocks = append(out.Blocks, &merged)
			overTypes[blk.Type] = nil // consumed
		}
	}
	for _, blk := range over.Blocks {
		if overTypes[blk.Type] != nil {
			out.Blocks = append(out.Blocks, blk)
		}
	}
	return out
}

func checkRequired(schema *hcl.BodySchema, content *hcl.BodyContent, rng hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range schema.Attributes {
		if _, ok := content.Attributes[a.Name]; a.Required && !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The argument %q is required, but no definition was found.", a.Name),
				Subject:  rng.Ptr(),
			})
		}
	}
	return diags
}
