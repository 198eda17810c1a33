package config

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
)

// ModuleCall is a `module` block.
type ModuleCall struct {
	Name string
	// SourceAddr is the source's value, computed early (static.go): a
	// literal or an expression of variables, locals, path.* and
	// terraform.workspace; "" when it could not be computed.
	SourceAddr      string
	SourceAddrRange hcl.Range
	// Version is the version constraint's value, "" when absent or null.
	Version string
	// SourceExpr and VersionAttr are the arguments as written (VersionAttr
	// nil without a version argument or when it is null).
	SourceExpr  hcl.Expression
	VersionAttr *hcl.Attribute
	// Config holds the input variable arguments: the body without source,
	// version, count, for_each, providers and depends_on.
	Config         hcl.Body
	Count, ForEach hcl.Expression
	DependsOn      []hcl.Traversal
	Providers      []PassedProvider
	DeclRange      hcl.Range
}

func (m *ModuleCall) declRange() hcl.Range { return m.DeclRange }

// PassedProvider is one `providers = { child = parent }` entry.
type PassedProvider struct {
	InChild, InParent ProviderConfigRef
}

// Provider is a `provider` block.
type Provider struct {
	Name, Alias string
	Version     string // deprecated in-block version constraint, "" when absent
	Config      hcl.Body
	NameRange   hcl.Range
	DeclRange   hcl.Range
}

func (p *Provider) declRange() hcl.Range { return p.DeclRange }

// Key is "name" or "name.alias", the key of Module.ProviderConfigs.
func (p *Provider) Key() string {
	return ProviderConfigRef{Name: p.Name, Alias: p.Alias}.String()
}

// RequiredProvider is one entry of required_providers.
type RequiredProvider struct {
	Name                 string
	Source               addrs.Provider
	SourceRaw            string
	Version              string
	ConfigurationAliases []ProviderConfigRef
	DeclRange            hcl.Range
}

var moduleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true},
		{Name: "version"},
		{Name: "count"},
		{Name: "for_each"},
		{Name: "depends_on"},
		{Name: "providers"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"},
		{Type: "lifecycle"},
		{Type: "locals"},
		{Type: "provider", LabelNames: []string{"type"}},
	},
}

func decodeModuleBlock(block *hcl.Block) (*ModuleCall, hcl.Diagnostics) {
	mc := &ModuleCall{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkName("Invalid module instance name", "module name", mc.Name, labelRange(block, 0))
	content, remain, d := block.Body.PartialContent(moduleSchema)
	diags = append(diags, d...)
	mc.Config = remain

	// source and version are computed once the module's variables and
	// locals are all known (decodeStaticFields).
	if attr, ok := content.Attributes["source"]; ok {
		mc.SourceAddrRange = attr.Expr.Range()
		mc.SourceExpr = attr.Expr
	}
	if attr, ok := content.Attributes["version"]; ok {
		mc.VersionAttr = attr
	}
	mc.Count, mc.ForEach, d = decodeRepetition(content)
	diags = append(diags, d...)
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, d := decodeDependsOn(attr)
		diags = append(diags, d...)
		mc.DependsOn = deps
	}
	if attr, ok := content.Attributes["providers"]; ok {
		pps, d := decodePassedProviders(attr.Expr)
		diags = append(diags, d...)
		mc.Providers = pps
	}
	for _, b := range content.Blocks {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reserved block type name in module block",
			Detail:   fmt.Sprintf("The block type name %q is reserved for use by OpenTofu in a future version.", b.Type),
			Subject:  b.TypeRange.Ptr(),
		})
	}
	return mc, diags
}

func decodePassedProviders(expr hcl.Expression) ([]PassedProvider, hcl.Diagnostics) {
	pairs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var out []PassedProvider
	for _, pair := range pairs {
		child, d := decodeProviderConfigRef(pair.Key, "providers")
		diags = append(diags, d...)
		parent, d := decodeProviderConfigRef(pair.Value, "providers")
		diags = append(diags, d...)
		if child != nil && parent != nil {
			out = append(out, PassedProvider{InChild: *child, InParent: *parent})
		}
	}
	return out, diags
}

var providerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "version"}, {Name: "for_each"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "_"}},
}

func decodeProviderBlock(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	p := &Provider{Name: block.Labels[0], NameRange: labelRange(block, 0), DeclRange: block.DefRange}
	diags := checkName("Invalid provider name", "provider local name", p.Name, p.NameRange)
	if diags.HasErrors() {
		return nil, diags
	}
	content, remain, d := block.Body.PartialContent(providerSchema)
	diags = append(diags, d...)
	p.Config = remain
	if attr, ok := content.Attributes["alias"]; ok {
		kw := hcl.ExprAsKeyword(attr.Expr)
		if kw == "" {
			// The quoted form is accepted too.
			if s, ok := literalString(attr.Expr); ok {
				kw = s
			}
		}
		if !hclsyntax.ValidIdentifier(kw) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider configuration alias",
				Detail:   "An alias must be a valid name: letters, digits, underscores and dashes, starting with a letter or underscore.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		} else {
			p.Alias = kw
		}
	}
	if attr, ok := content.Attributes["version"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &p.Version)...)
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		// Refused rather than passed to the provider as a setting: one
		// configuration would stand for all the instances OpenTofu makes.
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider for_each is not supported",
			Detail:   fmt.Sprintf("tenet does not yet make one configuration of provider %q per element of for_each (OpenTofu 1.9's provider instances). Write one provider block with its own alias per instance, or run this configuration with OpenTofu.", p.Name),
			Subject:  attr.NameRange.Ptr(),
		})
	}
	return p, diags
}

var terraformBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "required_version"},
		{Name: "experiments"},
		{Name: "language"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "required_providers"},
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
		{Type: "encryption"},
		{Type: "provider_meta", LabelNames: []string{"provider"}},
	},
}

func (m *Module) decodeTerraformBlock(block *hcl.Block, override bool) hcl.Diagnostics {
	content, diags := block.Body.Content(terraformBlockSchema)
	if attr, ok := content.Attributes["required_version"]; ok {
		var s string
		d := gohcl.DecodeExpression(attr.Expr, nil, &s)
		diags = append(diags, d...)
		if !d.HasErrors() {
			vc := &VersionConstraint{Required: s, DeclRange: attr.Expr.Range()}
			if override {
				m.RequiredVersion = []*VersionConstraint{vc}
			} else {
				m.RequiredVersion = append(m.RequiredVersion, vc)
			}
		}
	}
	diags = append(diags, checkLanguageSettings(content)...)
	for _, b := range content.Blocks {
		switch b.Type {
		case "required_providers":
			diags = append(diags, m.decodeRequiredProviders(b, override)...)
		case "encryption":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported encryption block",
				Detail:   "tenet cannot encrypt state and plan files as OpenTofu does, and will not write them unencrypted in place of what this block asks for. Remove the block to keep state and plans in plain text, or run this configuration with OpenTofu.",
				Subject:  b.DefRange.Ptr(),
			})
		case "provider_meta":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported provider_meta block",
				Detail:   fmt.Sprintf("tenet does not pass module metadata to providers, so the provider_meta block for %q would have no effect. Remove the block, or run this configuration with OpenTofu.", b.Labels[0]),
				Subject:  b.DefRange.Ptr(),
			})
		}
		// backend and cloud blocks are the CLI's business (cli/backendinit.go).
	}
	return diags
}

// languageEdition is the one language edition there is.
const languageEdition = "TF2021"

// checkLanguageSettings refuses what a released OpenTofu refuses in the
// terraform block's language and experiments arguments: any edition but
// the first, and experiments (which only alpha releases offer).
func checkLanguageSettings(content *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := content.Attributes["language"]; ok {
		switch kw := hcl.ExprAsKeyword(attr.Expr); {
		case kw == "":
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid language edition",
				Detail:  fmt.Sprintf("The language argument expects a bare language edition keyword. tenet supports only language edition %s, which is the default.", languageEdition),
				Subject: attr.Expr.Range().Ptr()})
		case kw != languageEdition:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported language edition",
				Detail:  fmt.Sprintf("tenet only supports language edition %s. This module requires a newer version of the language.", languageEdition),
				Subject: attr.Expr.Range().Ptr()})
		}
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Module uses experimental features",
			Detail:  "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of OpenTofu; tenet offers none.",
			Subject: attr.NameRange.Ptr()})
	}
	return diags
}

func (m *Module) decodeRequiredProviders(block *hcl.Block, override bool) hcl.Diagnostics {
	attrs, diags := block.Body.JustAttributes()
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		attr := attrs[name]
		rp := &RequiredProvider{Name: name, DeclRange: attr.Range}
		diags = append(diags, checkName("Invalid provider local name", "provider local name", name, attr.NameRange)...)
		if s, ok := literalString(attr.Expr); ok {
			// The legacy form gives only a version constraint.
			rp.Version = s
		} else {
			pairs, d := hcl.ExprMap(attr.Expr)
			if d.HasErrors() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid required_providers object",
					Detail:   "A required_providers entry must be an object with source and version, such as { source = \"hashicorp/aws\", version = \"~> 5.0\" }.",
					Subject:  attr.Expr.Range().Ptr(),
				})
				continue
			}
			for _, pair := range pairs {
				key := hcl.ExprAsKeyword(pair.Key)
				if key == "" {
					if s, ok := literalString(pair.Key); ok {
						key = s
					}
				}
				switch key {
				case "source":
					var s string
					d := gohcl.DecodeExpression(pair.Value, nil, &s)
					diags = append(diags, d...)
					if d.HasErrors() {
						continue
					}
					p, err := addrs.ParseProviderSource(s)
					if err != nil {
						diags = append(diags, &hcl.Diagnostic{
							Severity: hcl.DiagError,
							Summary:  "Invalid provider source string",
							Detail:   fmt.Sprintf("%s. A source is written [HOSTNAME/]NAMESPACE/TYPE, such as hashicorp/aws.", err),
							Subject:  pair.Value.Range().Ptr(),
						})
						continue
					}
					rp.Source, rp.SourceRaw = p, s
				case "version":
					diags = append(diags, gohcl.DecodeExpression(pair.Value, nil, &rp.Version)...)
				case "configuration_aliases":
					exprs, d := hcl.ExprList(pair.Value)
					diags = append(diags, d...)
					for _, e := range exprs {
						ref, d := decodeProviderConfigRef(e, "configuration_aliases")
						diags = append(diags, d...)
						if ref != nil {
							rp.ConfigurationAliases = append(rp.ConfigurationAliases, *ref)
						}
					}
				default:
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Invalid required_providers object",
						Detail:   "A required_providers entry may contain only source, version and configuration_aliases.",
						Subject:  pair.Key.Range().Ptr(),
					})
				}
			}
		}
		if rp.Source.IsZero() {
			if name == "terraform" {
				rp.Source = addrs.NewBuiltInProvider("terraform")
			} else {
				rp.Source = addrs.NewDefaultProvider(name)
			}
		}
		if prev, ok := m.RequiredProviders[name]; ok && !override {
			diags = append(diags, duplicate("Duplicate required provider",
				fmt.Sprintf("The provider %q was already required at %s.", name, prev.DeclRange), attr.NameRange))
			continue
		}
		m.RequiredProviders[name] = rp
	}
	return diags
}
