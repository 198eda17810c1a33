package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/providers"
)

// Import blocks whose target resource has no resource block: without
// -generate-config-out they are an error, as in OpenTofu; with it, tenet
// imports each object, writes a resource block for it from the object and
// the provider's schema into the new file, and plans with that file in the
// configuration, so the plan imports the objects.

// importsWithoutConfig lists the root module's import blocks whose target
// resource is not configured.
func importsWithoutConfig(cfg *config.Config) []*config.Import {
	var out []*config.Import
	for _, imp := range cfg.Root.Import {
		if !configHasManaged(cfg, imp) {
			out = append(out, imp)
		}
	}
	return out
}

func configHasManaged(cfg *config.Config, imp *config.Import) bool {
	m := cfg.Descendant(imp.ToResource.Module)
	if m == nil {
		return false
	}
	_, ok := m.ManagedResources[imp.ToResource.Resource.String()]
	return ok
}

// missingImportConfig is the error for imports without configuration.
func missingImportConfig(missing []*config.Import) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, imp := range missing {
		rng := imp.DeclRange
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Configuration for import target does not exist",
			Detail:  fmt.Sprintf("The configuration for the given import %s does not exist. All target instances must have an associated configuration to be imported.", imp.ToResource),
			Subject: &rng})
	}
	return diags
}

// generateImportConfig writes the resource blocks of the missing imports
// to out, which must not exist yet and must be in the root module's
// directory (tenet then reads it as part of the configuration).
// generateImportConfig writes the resource blocks of the missing import
// targets into the new file out, and returns each block (formatted, as
// the plan records it) by the target's address.
func generateImportConfig(ctx context.Context, reg providers.Registry, cfg *config.Config, out string, missing []*config.Import) (map[string]string, hcl.Diagnostics) {
	if d := checkGenerateConfigOut(out); d.HasErrors() {
		return nil, d
	}
	if filepath.Dir(filepath.Clean(out)) != "." || !strings.HasSuffix(out, ".tf") {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid -generate-config-out",
			Detail: fmt.Sprintf("tenet writes generated configuration into the root module, so %q must be a new .tf file in the working directory, such as generated.tf.", out)}}
	}
	var diags hcl.Diagnostics
	var b strings.Builder
	b.WriteString("# __generated__ by tenet\n# Please review these resources and move them into your main configuration files.\n")
	blocks := map[string]string{}
	for _, imp := range missing {
		id, block, d := generateOne(ctx, reg, cfg, imp)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		fmt.Fprintf(&b, "\n# __generated__ by tenet from %q\n%s", id, block)
		blocks[imp.ToAddr.String()] = strings.TrimSuffix(string(hclwrite.Format([]byte(block))), "\n")
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if err := os.WriteFile(out, hclwrite.Format([]byte(b.String())), 0o644); err != nil {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to write generated configuration", Detail: err.Error()})
	}
	return blocks, append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Config generation is experimental",
		Detail: "Generating configuration during import is currently experimental, and the generated configuration format may change in future versions."})
}

// checkGenerateConfigOut refuses a -generate-config-out file that exists,
// before anything is read: OpenTofu only ever writes a new file.
func checkGenerateConfigOut(out string) hcl.Diagnostics {
	if _, err := os.Lstat(out); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Target generated file already exists",
			Detail: "tenet can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again."}}
	}
	return nil
}

// generateOne imports the object of one import block and returns the
// import id and the target's resource block.
func generateOne(ctx context.Context, reg providers.Registry, cfg *config.Config, imp *config.Import) (id, block string, diags hcl.Diagnostics) {
	rng := imp.DeclRange
	fail := func(summary, format string, args ...any) (string, string, hcl.Diagnostics) {
		return "", "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: &rng}}
	}
	switch {
	case imp.ForEach != nil:
		return fail("Cannot generate configuration", "tenet cannot generate configuration for an import block with for_each; write the resource block for %s by hand.", imp.ToResource)
	case imp.ToAddr == nil || !imp.ToResource.Module.IsRoot():
		return fail("Cannot generate configuration", "tenet generates configuration only for import targets in the root module with a static address; write the resource block for %s by hand.", imp.ToResource)
	}
	idVal, d := imp.ID.Value(nil)
	if d.HasErrors() || !idVal.IsKnown() || idVal.IsNull() || idVal.Type() != cty.String {
		return fail("Cannot generate configuration", "To generate configuration for %s, tenet needs its import id as a literal string.", imp.ToResource)
	}
	id = idVal.AsString()
	typeName := imp.ToResource.Resource.Type
	ref := config.ProviderConfigRef{Name: imp.ToResource.Resource.ImpliedProviderType()}
	if imp.ProviderConfigRef != nil {
		ref = *imp.ProviderConfigRef
	}
	key := ref.Name
	if ref.Alias != "" {
		key += "." + ref.Alias
	}
	if pc, ok := cfg.Root.ProviderConfigs[key]; ok {
		if attrs, _ := pc.Config.JustAttributes(); len(attrs) > 0 {
			return fail("Cannot generate configuration", "The provider configuration %s has arguments, and tenet does not yet configure providers for -generate-config-out; write the resource block for %s by hand.", key, imp.ToResource)
		}
	}
	addr := cfg.Root.ImpliedProvider(ref.Name)
	factory, ok := reg[addr]
	if !ok {
		return fail("Provider not available", "No installed provider offers %s (%s). Run init.", typeName, addr)
	}
	p, err := factory()
	if err != nil {
		return fail("Failed to start provider", "%s: %s", addr, err)
	}
	defer p.Close(ctx)
	sch := p.GetProviderSchema(ctx)
	if sch.Diagnostics.HasErrors() {
		return fail("Failed to read the provider schema", "%s", providerText(sch.Diagnostics))
	}
	rs, ok := sch.ResourceTypes[typeName]
	if !ok {
		return fail("Invalid resource type", "Provider %s has no resource type %q.", addr, typeName)
	}
	providerBlock := sch.Provider.Block
	if providerBlock == nil {
		providerBlock = &providers.Block{}
	}
	if r := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: providerBlock.EmptyValue()}); r.Diagnostics.HasErrors() {
		return fail("Failed to configure provider", "%s", providerText(r.Diagnostics))
	}
	ir := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: typeName, ID: id})
	if ir.Diagnostics.HasErrors() {
		return fail("Import failed", "Importing %s with id %q failed: %s", imp.ToResource, id, providerText(ir.Diagnostics))
	}
	var obj *providers.ImportedResource
	for i := range ir.ImportedResources {
		if ir.ImportedResources[i].TypeName == typeName {
			obj = &ir.ImportedResources[i]
			break
		}
	}
	if obj == nil {
		return fail("Import failed", "Provider %s returned no %s object for id %q.", addr, typeName, id)
	}
	rr := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: typeName, PriorState: obj.State, Private: obj.Private})
	if rr.Diagnostics.HasErrors() {
		return fail("Import failed", "Reading %s after import failed: %s", imp.ToResource, providerText(rr.Diagnostics))
	}
	if rr.NewState == cty.NilVal || rr.NewState.IsNull() {
		return fail("Cannot import non-existent remote object", "%s with id %q does not exist.", imp.ToResource, id)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "resource %q %q {\n", typeName, imp.ToResource.Resource.Name)
	if imp.ProviderConfigRef != nil {
		fmt.Fprintf(&b, "provider = %s\n", key)
	}
	writeBlockBody(&b, rs.Block, rr.NewState)
	b.WriteString("}\n")
	return id, b.String(), nil
}

func providerText(ds providers.Diagnostics) string {
	var parts []string
	for _, d := range ds {
		if d.Severity == hcl.DiagError {
			parts = append(parts, strings.TrimSpace(d.Summary+": "+d.Detail))
		}
	}
	return strings.Join(parts, "; ")
}

// writeBlockBody writes the arguments a configuration can set, as
// OpenTofu generates them: every required or optional attribute in name
// order (null when unset, `null # sensitive` for a sensitive one;
// computed-only attributes are left out), then the nested blocks.
func writeBlockBody(b *strings.Builder, blk *providers.Block, v cty.Value) {
	names := make([]string, 0, len(blk.Attributes))
	for name, a := range blk.Attributes {
		if a.Required || a.Optional {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		a := blk.Attributes[name]
		av := cty.NullVal(cty.DynamicPseudoType)
		if !v.IsNull() && v.Type().IsObjectType() && v.Type().HasAttribute(name) {
			av = v.GetAttr(name)
		}
		switch {
		case a.Sensitive && !av.IsNull():
			fmt.Fprintf(b, "%s = null # sensitive\n", name)
		case a.WriteOnly || av.IsNull() || !av.IsKnown():
			fmt.Fprintf(b, "%s = null\n", name)
		default:
			fmt.Fprintf(b, "%s = %s\n", name, hclwrite.TokensForValue(av).Bytes())
		}
	}
	blockNames := make([]string, 0, len(blk.BlockTypes))
	for name := range blk.BlockTypes {
		blockNames = append(blockNames, name)
	}
	sort.Strings(blockNames)
	for _, name := range blockNames {
		nb := blk.BlockTypes[name]
		if v.IsNull() || !v.Type().HasAttribute(name) {
			continue
		}
		bv := v.GetAttr(name)
		if bv.IsNull() || !bv.IsKnown() {
			continue
		}
		switch nb.Nesting {
		case providers.NestingSingle, providers.NestingGroup:
			fmt.Fprintf(b, "%s {\n", name)
			writeBlockBody(b, &nb.Block, bv)
			b.WriteString("}\n")
		case providers.NestingList, providers.NestingSet:
			for it := bv.ElementIterator(); it.Next(); {
				_, ev := it.Element()
				fmt.Fprintf(b, "%s {\n", name)
				writeBlockBody(b, &nb.Block, ev)
				b.WriteString("}\n")
			}
		case providers.NestingMap:
			for it := bv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				fmt.Fprintf(b, "%s %q {\n", name, k.AsString())
				writeBlockBody(b, &nb.Block, ev)
				b.WriteString("}\n")
			}
		}
	}
}
