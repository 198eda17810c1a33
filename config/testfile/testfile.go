package testfile

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tenetplan/tenet/config"
)

// File is one parsed test file.
type File struct {
	Name string
	// Variables are the file-level `variables` block's attributes, in
	// no particular order (they cannot refer to each other).
	Variables      hcl.Attributes
	Providers      []*Provider
	MockProviders  []*MockProvider
	Overrides      []*Override
	Runs           []*Run
	VariablesRange *hcl.Range
}

// Run is one `run` block.
type Run struct {
	Name      string
	DeclRange hcl.Range
	// Command is "apply" (the default) or "plan".
	Command        string
	CommandRange   hcl.Range
	Variables      hcl.Attributes
	Asserts        []*Assert
	ExpectFailures []hcl.Traversal
	Module         *RunModule
	PlanOptions    *PlanOptions
	// Providers is the run's `providers` map expression, or nil.
	Providers hcl.Expression
	Overrides []*Override
}

// Assert is one `assert` block of a run.
type Assert struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

// RunModule is a run's `module` block: the run tests this module instead
// of the configuration under test.
type RunModule struct {
	Source      string
	SourceRange hcl.Range
	Version     string
	DeclRange   hcl.Range
}

// PlanOptions is a run's `plan_options` block.
type PlanOptions struct {
	// Mode is "normal" or "refresh-only".
	Mode      string
	Refresh   bool // true unless refresh = false
	Replace   []hcl.Traversal
	Target    []hcl.Traversal
	DeclRange hcl.Range
}

// Provider is a `provider` block of the test file: it configures that
// provider for every run in place of the configuration's own block.
type Provider struct {
	Name      string
	Alias     string
	Config    hcl.Body
	DeclRange hcl.Range
}

// Key is the provider's name with its alias, as in "aws.east".
func (p *Provider) Key() string { return providerKey(p.Name, p.Alias) }

// MockProvider is a `mock_provider` block: a provider whose resources and
// data sources are answered with generated values instead of calls.
type MockProvider struct {
	Name      string
	Alias     string
	Resources []*MockResource
	Overrides []*Override
	DeclRange hcl.Range
}

// Key is the provider's name with its alias, as in "aws.east".
func (p *MockProvider) Key() string { return providerKey(p.Name, p.Alias) }

// providerKey is "name" or "name.alias", as configurations key providers.
func providerKey(name, alias string) string {
	if alias == "" {
		return name
	}
	return name + "." + alias
}

// MockResource is a `mock_resource` or `mock_data` block of a mock
// provider: default values for every object of that type.
type MockResource struct {
	Data      bool // mock_data
	Type      string
	Defaults  hcl.Expression // nil when absent
	DeclRange hcl.Range
}

// OverrideKind says what an override replaces.
type OverrideKind string

// The override blocks.
const (
	OverrideResource OverrideKind = "override_resource"
	OverrideData     OverrideKind = "override_data"
	OverrideModule   OverrideKind = "override_module"
)

// Override is an `override_resource`, `override_data` or
// `override_module` block.
type Override struct {
	Kind   OverrideKind
	Target hcl.Traversal
	// Values is `values` (resources and data) or `outputs` (modules); nil
	// when absent.
	Values    hcl.Expression
	DeclRange hcl.Range
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "mock_provider", LabelNames: []string{"name"}},
		{Type: string(OverrideResource)},
		{Type: string(OverrideData)},
		{Type: string(OverrideModule)},
	},
}

var runSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"},
		{Name: "providers"},
		{Name: "expect_failures"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variables"},
		{Type: "assert"},
		{Type: "module"},
		{Type: "plan_options"},
		{Type: string(OverrideResource)},
		{Type: string(OverrideData)},
		{Type: string(OverrideModule)},
	},
}

// Parse parses one test file's bytes; name is the path diagnostics show.
// Files ending in .json are read as JSON.
func Parse(src []byte, name string) (*File, *hcl.File, hcl.Diagnostics) {
	p := hclparse.NewParser()
	var f *hcl.File
	var diags hcl.Diagnostics
	if len(name) > 5 && name[len(name)-5:] == ".json" {
		f, diags = p.ParseJSON(src, name)
	} else {
		f, diags = p.ParseHCL(src, name)
	}
	if f == nil {
		return nil, f, diags
	}
	// A file with syntax errors is still decoded, as far as it goes, so
	// that its other mistakes are reported with them (as OpenTofu does).
	tf, more := decodeFile(f.Body, name)
	return tf, f, append(diags, more...)
}

func decodeFile(body hcl.Body, name string) (*File, hcl.Diagnostics) {
	content, diags := body.Content(fileSchema)
	tf := &File{Name: name}
	runNames := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "run":
			r, d := decodeRun(b)
			diags = append(diags, d...)
			if prev, dup := runNames[r.Name]; dup {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate \"run\" block names",
					Detail: fmt.Sprintf("This test file already has a run named %q, declared at %s. Each run block needs its own name.", r.Name, prev), Subject: b.DefRange.Ptr()})
				continue
			}
			runNames[r.Name] = b.DefRange
			tf.Runs = append(tf.Runs, r)
		case "variables":
			if tf.VariablesRange != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Multiple \"variables\" blocks",
					Detail: fmt.Sprintf("This test file already has a variables block at %s; put all file-level variables in one.", tf.VariablesRange), Subject: b.DefRange.Ptr()})
				continue
			}
			attrs, d := b.Body.JustAttributes()
			diags = append(diags, d...)
			tf.Variables = attrs
			tf.VariablesRange = b.DefRange.Ptr()
		case "provider":
			p, d := decodeProvider(b)
			diags = append(diags, d...)
			tf.Providers = append(tf.Providers, p)
		case "mock_provider":
			m, d := decodeMockProvider(b)
			diags = append(diags, d...)
			tf.MockProviders = append(tf.MockProviders, m)
		default:
			diags = append(diags, addOverride(&tf.Overrides, b)...)
		}
	}
	return tf, diags
}

func decodeRun(b *hcl.Block) (*Run, hcl.Diagnostics) {
	r := &Run{Name: b.Labels[0], DeclRange: b.DefRange, Command: "apply", CommandRange: b.DefRange}
	content, diags := b.Body.Content(runSchema)
	if !hclsyntaxValidName(r.Name) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid run block name",
			Detail: "A run block name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", Subject: b.LabelRanges[0].Ptr()})
	}
	if a, ok := content.Attributes["command"]; ok {
		r.CommandRange = a.Expr.Range()
		kw, d := keywordArg(a, "Invalid \"command\" keyword", "apply", "plan")
		diags = append(diags, d...)
		if kw != "" {
			r.Command = kw
		}
	}
	if a, ok := content.Attributes["providers"]; ok {
		r.Providers = a.Expr
	}
	var d hcl.Diagnostics
	r.ExpectFailures, d = traversalListArg(content.Attributes, "expect_failures")
	diags = append(diags, d...)
	seen := map[string]hcl.Range{}
	once := func(blk *hcl.Block) bool {
		if prev, dup := seen[blk.Type]; dup {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Multiple %q blocks", blk.Type),
				Detail: fmt.Sprintf("This run block already has a %s block at %s; only one is allowed.", blk.Type, prev), Subject: blk.DefRange.Ptr()})
			return false
		}
		seen[blk.Type] = blk.DefRange
		return true
	}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "variables":
			if !once(blk) {
				continue
			}
			attrs, d := blk.Body.JustAttributes()
			diags = append(diags, d...)
			r.Variables = attrs
		case "assert":
			a, d := decodeAssert(blk)
			diags = append(diags, d...)
			r.Asserts = append(r.Asserts, a)
		case "module":
			if !once(blk) {
				continue
			}
			m, d := decodeRunModule(blk)
			diags = append(diags, d...)
			r.Module = m
		case "plan_options":
			if !once(blk) {
				continue
			}
			po, d := decodePlanOptions(blk)
			diags = append(diags, d...)
			r.PlanOptions = po
		default:
			diags = append(diags, addOverride(&r.Overrides, blk)...)
		}
	}
	return r, diags
}

func hclsyntaxValidName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case i > 0 && (c == '-' || (c >= '0' && c <= '9')):
		default:
			return false
		}
	}
	return true
}

func decodeAssert(b *hcl.Block) (*Assert, hcl.Diagnostics) {
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	}})
	a := &Assert{DeclRange: b.DefRange}
	if at, ok := content.Attributes["condition"]; ok {
		a.Condition = at.Expr
		// Refused with the file, before anything runs, as OpenTofu does.
		if d := config.ConstantCondition("assert", at.Expr); d != nil {
			diags = append(diags, d)
		}
	}
	if at, ok := content.Attributes["error_message"]; ok {
		a.ErrorMessage = at.Expr
	}
	return a, diags
}

func decodeRunModule(b *hcl.Block) (*RunModule, hcl.Diagnostics) {
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true},
		{Name: "version"},
	}})
	m := &RunModule{DeclRange: b.DefRange}
	if a, ok := content.Attributes["source"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &m.Source)...)
		m.SourceRange = a.Expr.Range()
	}
	if a, ok := content.Attributes["version"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &m.Version)...)
	}
	return m, diags
}

func decodePlanOptions(b *hcl.Block) (*PlanOptions, hcl.Diagnostics) {
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"},
	}})
	po := &PlanOptions{Mode: "normal", Refresh: true, DeclRange: b.DefRange}
	if a, ok := content.Attributes["mode"]; ok {
		kw, d := keywordArg(a, "Invalid \"mode\" value", "normal", "refresh-only")
		diags = append(diags, d...)
		if kw != "" {
			po.Mode = kw
		}
	}
	if a, ok := content.Attributes["refresh"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &po.Refresh)...)
	}
	var d hcl.Diagnostics
	po.Replace, d = traversalListArg(content.Attributes, "replace")
	diags = append(diags, d...)
	po.Target, d = traversalListArg(content.Attributes, "target")
	diags = append(diags, d...)
	return po, diags
}

func decodeProvider(b *hcl.Block) (*Provider, hcl.Diagnostics) {
	p := &Provider{Name: b.Labels[0], DeclRange: b.DefRange}
	content, rest, diags := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "alias"}}})
	if a, ok := content.Attributes["alias"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &p.Alias)...)
	}
	p.Config = rest
	return p, diags
}

func decodeMockProvider(b *hcl.Block) (*MockProvider, hcl.Diagnostics) {
	m := &MockProvider{Name: b.Labels[0], DeclRange: b.DefRange}
	content, diags := b.Body.Content(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "alias"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "mock_resource", LabelNames: []string{"type"}},
			{Type: "mock_data", LabelNames: []string{"type"}},
			{Type: string(OverrideResource)},
			{Type: string(OverrideData)},
		},
	})
	if a, ok := content.Attributes["alias"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &m.Alias)...)
	}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "mock_resource", "mock_data":
			c, d := blk.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}}})
			diags = append(diags, d...)
			mr := &MockResource{Data: blk.Type == "mock_data", Type: blk.Labels[0], DeclRange: blk.DefRange}
			if a, ok := c.Attributes["defaults"]; ok {
				mr.Defaults = a.Expr
			}
			m.Resources = append(m.Resources, mr)
		default:
			diags = append(diags, addOverride(&m.Overrides, blk)...)
		}
	}
	return m, diags
}

// addOverride decodes an override block, which a file, a run and a mock
// provider may each hold, onto list; a block without a usable target adds
// nothing, and its diagnostics say why.
func addOverride(list *[]*Override, b *hcl.Block) hcl.Diagnostics {
	o, diags := decodeOverride(b)
	if o != nil {
		*list = append(*list, o)
	}
	return diags
}

func decodeOverride(b *hcl.Block) (*Override, hcl.Diagnostics) {
	valuesName := "values"
	if b.Type == string(OverrideModule) {
		valuesName = "outputs"
	}
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "target", Required: true}, {Name: valuesName},
	}})
	o := &Override{Kind: OverrideKind(b.Type), DeclRange: b.DefRange}
	a, ok := content.Attributes["target"]
	if !ok {
		return nil, diags
	}
	tr, d := hcl.AbsTraversalForExpr(a.Expr)
	if d.HasErrors() {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid override target",
			Detail: "The target of an override block must be a reference to a resource, data source or module, such as aws_instance.web.", Subject: a.Expr.Range().Ptr()})
	}
	o.Target = tr
	if v, ok := content.Attributes[valuesName]; ok {
		o.Values = v.Expr
	}
	return o, diags
}

// keywordArg reads an argument that takes one of two bare keywords; it
// gives "" and an error with the given summary for anything else.
func keywordArg(a *hcl.Attribute, summary, first, second string) (string, hcl.Diagnostics) {
	kw := hcl.ExprAsKeyword(a.Expr)
	if kw == first || kw == second {
		return kw, nil
	}
	return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary,
		Detail:  fmt.Sprintf("The %q argument requires one of the following keywords without quotes: %s or %s.", a.Name, first, second),
		Subject: a.Expr.Range().Ptr()}}
}

// traversalListArg reads the named argument, when it is set, as a list of
// references, as expect_failures, replace and target hold.
func traversalListArg(attrs hcl.Attributes, what string) ([]hcl.Traversal, hcl.Diagnostics) {
	a, ok := attrs[what]
	if !ok {
		return nil, nil
	}
	exprs, diags := hcl.ExprList(a.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var out []hcl.Traversal
	for _, e := range exprs {
		tr, d := hcl.AbsTraversalForExpr(e)
		if d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Invalid %s reference", what),
				Detail: fmt.Sprintf("Each element of %s must be a reference to an object of the configuration, such as var.name or aws_instance.web.", what), Subject: e.Range().Ptr()})
			continue
		}
		out = append(out, tr)
	}
	return out, diags
}
