package config

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
)

// Module is one module of the configuration tree, merged from all the
// files of its directory.
type Module struct {
	Path addrs.Module
	// SourceDir is the module's directory inside the loaded fs.FS, a clean
	// slash path ("." for the root when loaded from "."); path.module.
	SourceDir string
	Parent    *Module
	Children  map[string]*Module // by module call name

	RequiredVersion   []*VersionConstraint
	RequiredProviders map[string]*RequiredProvider // by local name
	ProviderConfigs   map[string]*Provider         // "name" or "name.alias"

	Variables        map[string]*Variable
	Locals           map[string]*Local
	Outputs          map[string]*Output
	ModuleCalls      map[string]*ModuleCall
	ManagedResources map[string]*Resource // by addrs.Resource.String(): "type.name"
	DataResources    map[string]*Resource // "data.type.name"

	Checks map[string]*Check

	Moved   []*Moved
	Removed []*Removed
	Import  []*Import // root module only

	// rawBlocks keeps each primary block by blockKey, for override files.
	rawBlocks map[string]*hcl.Block
	// static computes the module's early values (static.go).
	static *staticEval
}

// VersionConstraint is a required_version string as written.
type VersionConstraint struct {
	Required  string
	DeclRange hcl.Range
}

func newModule(p addrs.Module, dir string, parent *Module) *Module {
	return &Module{
		Path:              p,
		SourceDir:         dir,
		Parent:            parent,
		Children:          map[string]*Module{},
		RequiredProviders: map[string]*RequiredProvider{},
		ProviderConfigs:   map[string]*Provider{},
		Variables:         map[string]*Variable{},
		Locals:            map[string]*Local{},
		Outputs:           map[string]*Output{},
		ModuleCalls:       map[string]*ModuleCall{},
		ManagedResources:  map[string]*Resource{},
		DataResources:     map[string]*Resource{},
		Checks:            map[string]*Check{},
		rawBlocks:         map[string]*hcl.Block{},
	}
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "moved"},
		{Type: "removed"},
		{Type: "import"},
		{Type: "check", LabelNames: []string{"name"}},
	},
}

// decodeFile adds the blocks of one file to m; the blocks of an override
// file are merged into the primary blocks they name instead.
func (m *Module) decodeFile(f *hcl.File, override bool) hcl.Diagnostics {
	content, diags := f.Body.Content(fileSchema)
	for _, block := range content.Blocks {
		if override {
			diags = append(diags, m.overrideBlock(block)...)
		} else {
			diags = append(diags, m.decodeBlock(block)...)
		}
	}
	return diags
}

// blockKey identifies the primary block an override block merges into.
func blockKey(block *hcl.Block) string {
	key := block.Type
	for _, l := range block.Labels {
		key += "." + l
	}
	return key
}

func (m *Module) decodeBlock(block *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	switch block.Type {
	case "terraform":
		diags = append(diags, m.decodeTerraformBlock(block, false)...)
	case "provider":
		p, d := decodeProviderBlock(block)
		diags = append(diags, d...)
		if p != nil {
			key := p.Key()
			if d := declare(m.ProviderConfigs, key, p, block.DefRange, "Duplicate provider configuration",
				"A provider configuration for %q was already given at %s. Each configuration of a provider needs a distinct alias."); d != nil {
				return append(diags, d)
			}
			m.rawBlocks["provider."+key] = block
		}
	case "variable":
		v, d := decodeVariableBlock(block)
		diags = append(diags, d...)
		if v != nil {
			if d := declare(m.Variables, v.Name, v, block.DefRange, "Duplicate variable declaration",
				"A variable named %q was already declared at %s. Variable names must be unique within a module."); d != nil {
				return append(diags, d)
			}
			m.rawBlocks[blockKey(block)] = block
		}
	case "locals":
		locals, d := decodeLocalsBlock(block)
		diags = append(diags, d...)
		for _, l := range locals {
			if d := declare(m.Locals, l.Name, l, l.DeclRange, "Duplicate local value definition",
				"A local value named %q was already defined at %s. Local value names must be unique within a module."); d != nil {
				diags = append(diags, d)
			}
		}
	case "output":
		o, d := decodeOutputBlock(block)
		diags = append(diags, d...)
		if o != nil {
			if d := declare(m.Outputs, o.Name, o, block.DefRange, "Duplicate output definition",
				"An output named %q was already defined at %s. Output names must be unique within a module."); d != nil {
				return append(diags, d)
			}
			m.rawBlocks[blockKey(block)] = block
		}
	case "module":
		mc, d := decodeModuleBlock(block)
		diags = append(diags, d...)
		if mc != nil {
			if d := declare(m.ModuleCalls, mc.Name, mc, block.DefRange, "Duplicate module call",
				"A module call named %q was already defined at %s. Module calls must have unique names within a module."); d != nil {
				return append(diags, d)
			}
			m.rawBlocks[blockKey(block)] = block
		}
	case "resource", "data":
		r, d := decodeResourceBlock(block)
		diags = append(diags, d...)
		if r != nil {
			d := m.addResource(r, false)
			diags = append(diags, d...)
			if !d.HasErrors() {
				m.rawBlocks[blockKey(block)] = block
			}
		}
	case "moved":
		mv, d := decodeMovedBlock(block)
		diags = append(diags, d...)
		if mv != nil {
			m.Moved = append(m.Moved, mv)
		}
	case "removed":
		rm, d := decodeRemovedBlock(block)
		diags = append(diags, d...)
		if rm != nil {
			m.Removed = append(m.Removed, rm)
		}
	case "import":
		imp, d := decodeImportBlock(block)
		diags = append(diags, d...)
		if imp == nil {
			break
		}
		if first := importTo(m.Import, imp.ToAddr); first != nil {
			// As OpenTofu: one import block a statically named instance.
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicate import configuration for %q", imp.ToAddr.String()),
				Detail:   fmt.Sprintf("An import block for the resource %q was already declared at %s. A resource can have only one import block.", imp.ToAddr.String(), first.DeclRange),
				Subject:  imp.DeclRange.Ptr(),
			})
			break
		}
		m.Import = append(m.Import, imp)
	case "check":
		c, d := decodeCheckBlock(block)
		diags = append(diags, d...)
		// A check whose data resource is refused is not declared at all
		// (as in OpenTofu), so a later check of its name is no duplicate.
		for _, r := range c.DataResources {
			if d := m.addResource(r, true); d.HasErrors() {
				return append(diags, d...)
			}
		}
		if d := declare(m.Checks, c.Name, c, block.DefRange, fmt.Sprintf("Duplicate check %q configuration", c.Name),
			"A check block named %q was already declared at %s. Check blocks must be unique within each module."); d != nil {
			return append(diags, d)
		}
	}
	return diags
}

// addResource declares r, refusing a second resource of the same mode,
// type and name in OpenTofu's words (which mention check blocks for a
// data resource declared in one).
func (m *Module) addResource(r *Resource, inCheck bool) hcl.Diagnostics {
	key := r.Addr().String()
	target := m.ManagedResources
	kind, noun := "resource", "resource"
	if r.Mode == addrs.DataResourceMode {
		target = m.DataResources
		kind, noun = "data", "data resource"
	}
	if prev, ok := target[key]; ok {
		scope := "each module"
		if inCheck {
			scope = "each module, including within check blocks"
		}
		return hcl.Diagnostics{duplicate(fmt.Sprintf("Duplicate %s %q configuration", kind, prev.Type),
			fmt.Sprintf("A %s %s named %q was already declared at %s. Resource names must be unique per type in %s.", prev.Type, noun, prev.Name, prev.DeclRange, scope), r.DeclRange)}
	}
	target[key] = r
	return nil
}

// validate runs the module-wide checks that need every file decoded.
func (m *Module) validate() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		mc := m.ModuleCalls[name]
		for _, pp := range mc.Providers {
			if _, ok := m.ProviderConfigs[pp.InParent.String()]; !ok && pp.InParent.Alias != "" {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Reference to undefined provider",
					Detail:   fmt.Sprintf("There is no provider configuration %q in this module to pass to module %q. Add a provider block with alias %q.", pp.InParent.String(), mc.Name, pp.InParent.Alias),
					Subject:  pp.InParent.NameRange.Ptr(),
				})
			}
		}
	}
	return diags
}

// ImpliedProvider is the provider source address a local name stands for
// in this module: required_providers first, then the built-in terraform
// provider, then registry.opentofu.org/hashicorp/NAME.
func (m *Module) ImpliedProvider(localName string) addrs.Provider {
	if rp, ok := m.RequiredProviders[localName]; ok && !rp.Source.IsZero() {
		return rp.Source
	}
	if localName == "terraform" {
		return addrs.NewBuiltInProvider("terraform")
	}
	return addrs.NewDefaultProvider(localName)
}

// ProviderForResource resolves the provider a resource belongs to and the
// configuration (local name and alias) it uses in this module.
func (m *Module) ProviderForResource(r *Resource) (addrs.Provider, ProviderConfigRef) {
	ref := ProviderConfigRef{Name: r.Addr().ImpliedProviderType(), NameRange: r.TypeRange}
	if r.ProviderConfigRef != nil {
		ref = *r.ProviderConfigRef
	}
	return m.ImpliedProvider(ref.Name), ref
}

// declaration is a named block that records where it stands.
type declaration interface{ declRange() hcl.Range }

// declare adds decl to decls under name, unless the name is taken: then
// it returns the error at subject, whose detail is format filled in with
// the name and where the first declaration stands.
func declare[T declaration](decls map[string]T, name string, decl T, subject hcl.Range, summary, format string) *hcl.Diagnostic {
	if first, ok := decls[name]; ok {
		return duplicate(summary, fmt.Sprintf(format, name, first.declRange()), subject)
	}
	decls[name] = decl
	return nil
}

func duplicate(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

// checkName reports a label that is not a valid identifier.
func checkName(summary, what, name string, rng hcl.Range) hcl.Diagnostics {
	if hclsyntax.ValidIdentifier(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf("%q is not a valid %s: a name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", name, what),
		Subject:  rng.Ptr(),
	}}
}

// labelRange gives the range of the i-th label, falling back to the block header.
func labelRange(b *hcl.Block, i int) hcl.Range {
	if i < len(b.LabelRanges) {
		return b.LabelRanges[i]
	}
	return b.DefRange
}

// importTo is the import block among imports whose static target is addr,
// or nil (always nil for a target with expressions).
func importTo(imports []*Import, addr *addrs.AbsResourceInstance) *Import {
	if addr == nil {
		return nil
	}
	for _, imp := range imports {
		if imp.ToAddr != nil && imp.ToAddr.Equal(*addr) {
			return imp
		}
	}
	return nil
}
