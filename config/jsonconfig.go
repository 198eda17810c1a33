package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
)

// BlockNesting says how a nested block type of a resource schema is shaped
// in the configuration JSON.
type BlockNesting byte

const (
	NestingList   BlockNesting = iota // an array of objects (list and set blocks)
	NestingSingle                     // one object (single and group blocks)
	NestingMap                        // an object keyed by the block label
)

// JSONOptions supplies the schema facts the configuration JSON needs.
// Without them every resource has schema version 0 and nested blocks are
// rendered as lists.
type JSONOptions struct {
	// SchemaVersion gives a resource type's current schema version.
	SchemaVersion func(provider addrs.Provider, mode addrs.ResourceMode, typ string) uint64
	// Nesting gives the nesting of a nested block type; path holds the
	// block type names from the resource body down to this block.
	Nesting func(provider addrs.Provider, mode addrs.ResourceMode, typ string, path []string) BlockNesting
}

// MarshalConfigurationJSON renders the `configuration` object of the JSON
// plan with default JSONOptions.
func MarshalConfigurationJSON(c *Config) ([]byte, error) {
	return MarshalConfigurationJSONWith(c, JSONOptions{})
}

// MarshalConfigurationJSONWith renders the `configuration` object of the
// JSON plan: provider configurations and the module tree with every
// expression given as a constant or as the references it makes.
func MarshalConfigurationJSONWith(c *Config, opts JSONOptions) ([]byte, error) {
	if c == nil || c.Root == nil {
		return nil, fmt.Errorf("no configuration loaded")
	}
	pcs := map[string]*jsonProviderConfig{}
	marshalProviderConfigs(c.Root, pcs)
	root, err := marshalModule(c.Root, opts)
	if err != nil {
		return nil, err
	}
	normalizeProviderKeys(&root, pcs)
	out := jsonConfiguration{ProviderConfig: map[string]*jsonProviderConfig{}, RootModule: root}
	for k, pc := range pcs {
		if pc.parentKey == "" {
			out.ProviderConfig[k] = pc
		}
	}
	return json.Marshal(out)
}

type jsonConfiguration struct {
	ProviderConfig map[string]*jsonProviderConfig `json:"provider_config,omitempty"`
	RootModule     jsonModule                     `json:"root_module"`
}

type jsonProviderConfig struct {
	Name              string         `json:"name,omitempty"`
	FullName          string         `json:"full_name,omitempty"`
	Alias             string         `json:"alias,omitempty"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	ModuleAddress     string         `json:"module_address,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	// parentKey names the ancestor module's entry this one is inherited
	// from; such entries are folded into their source.
	parentKey string
}

type jsonModule struct {
	Outputs     map[string]jsonOutput     `json:"outputs,omitempty"`
	Resources   []jsonResource            `json:"resources,omitempty"`
	ModuleCalls map[string]jsonModuleCall `json:"module_calls,omitempty"`
	Variables   map[string]jsonVariable   `json:"variables,omitempty"`
}

type jsonExpression struct {
	ConstantValue json.RawMessage `json:"constant_value,omitempty"`
	References    []string        `json:"references,omitempty"`
}

func (e jsonExpression) empty() bool { return e.ConstantValue == nil && e.References == nil }

type jsonOutput struct {
	Sensitive   bool           `json:"sensitive,omitempty"`
	Deprecated  string         `json:"deprecated,omitempty"`
	Expression  jsonExpression `json:"expression"`
	DependsOn   []string       `json:"depends_on,omitempty"`
	Description string         `json:"description,omitempty"`
}

type jsonVariable struct {
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
}

type jsonResource struct {
	Address           string            `json:"address"`
	Mode              string            `json:"mode"`
	Type              string            `json:"type"`
	Name              string            `json:"name"`
	ProviderConfigKey string            `json:"provider_config_key"`
	Provisioners      []jsonProvisioner `json:"provisioners,omitempty"`
	Expressions       map[string]any    `json:"expressions,omitempty"`
	SchemaVersion     uint64            `json:"schema_version"`
	CountExpression   *jsonExpression   `json:"count_expression,omitempty"`
	ForEachExpression *jsonExpression   `json:"for_each_expression,omitempty"`
	DependsOn         []string          `json:"depends_on,omitempty"`
}

type jsonProvisioner struct {
	Type        string         `json:"type"`
	Expressions map[string]any `json:"expressions,omitempty"`
}

type jsonModuleCall struct {
	Source            string          `json:"source,omitempty"`
	Expressions       map[string]any  `json:"expressions,omitempty"`
	CountExpression   *jsonExpression `json:"count_expression,omitempty"`
	ForEachExpression *jsonExpression `json:"for_each_expression,omitempty"`
	Module            jsonModule      `json:"module"`
	VersionConstraint string          `json:"version_constraint,omitempty"`
	DependsOn         []string        `json:"depends_on,omitempty"`
}

func providerKey(local string, m *Module) string {
	if m.Path.IsRoot() {
		return local
	}
	return m.Path.String() + ":" + local
}

// marshalProviderConfigs lists every provider configuration the tree
// declares, requires or implies. An implied or passed configuration in a
// child module remembers the ancestor entry it stands for, so resources
// can be pointed at the configuration that really serves them.
func marshalProviderConfigs(m *Module, pcs map[string]*jsonProviderConfig) {
	modAddr := m.Path.String()
	versionFor := func(local string) string {
		if rp, ok := m.RequiredProviders[local]; ok {
			return rp.Version
		}
		return ""
	}
	inherit := func(pc *jsonProviderConfig, local string) {
		if m.Parent != nil {
			pc.parentKey = findSourceProviderKey(providerKey(local, m.Parent), pc.FullName, pcs)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		p := m.ProviderConfigs[key]
		pc := &jsonProviderConfig{
			Name:              p.Name,
			FullName:          m.ImpliedProvider(p.Name).String(),
			Alias:             p.Alias,
			VersionConstraint: versionFor(p.Name),
			ModuleAddress:     modAddr,
			Expressions:       marshalBodyExpressions(p.Config, nil),
		}
		if pc.VersionConstraint == "" {
			pc.VersionConstraint = p.Version
		}
		pcs[providerKey(key, m)] = pc
	}
	for _, local := range slices.Sorted(maps.Keys(m.RequiredProviders)) {
		rp := m.RequiredProviders[local]
		for _, alias := range rp.ConfigurationAliases {
			key := providerKey(alias.String(), m)
			if _, ok := pcs[key]; ok {
				continue
			}
			pcs[key] = &jsonProviderConfig{Name: local, FullName: rp.Source.String(), ModuleAddress: modAddr, VersionConstraint: rp.Version}
		}
		key := providerKey(local, m)
		if _, ok := pcs[key]; ok {
			continue
		}
		pc := &jsonProviderConfig{Name: local, FullName: rp.Source.String(), ModuleAddress: modAddr, VersionConstraint: rp.Version}
		inherit(pc, local)
		pcs[key] = pc
	}
	for _, set := range []map[string]*Resource{m.ManagedResources, m.DataResources} {
		for _, rk := range slices.Sorted(maps.Keys(set)) {
			r := set[rk]
			provider, ref := m.ProviderForResource(r)
			key := providerKey(ref.String(), m)
			if _, ok := pcs[key]; ok {
				continue
			}
			pc := &jsonProviderConfig{Name: provider.Type, FullName: provider.String(), ModuleAddress: modAddr}
			inherit(pc, ref.String())
			pcs[key] = pc
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		child := m.Children[name]
		if child == nil {
			continue
		}
		for _, pp := range m.ModuleCalls[name].Providers {
			pc := &jsonProviderConfig{
				Name:          pp.InChild.String(),
				FullName:      child.ImpliedProvider(pp.InChild.Name).String(),
				ModuleAddress: child.Path.String(),
			}
			pc.parentKey = findSourceProviderKey(providerKey(pp.InParent.String(), m), pc.FullName, pcs)
			pcs[providerKey(pp.InChild.String(), child)] = pc
		}
		marshalProviderConfigs(child, pcs)
	}
}

// findSourceProviderKey follows inherited entries up to the one that
// declares the configuration, as long as the provider stays the same.
func findSourceProviderKey(start, fullName string, pcs map[string]*jsonProviderConfig) string {
	found := ""
	for key := start; key != ""; {
		pc, ok := pcs[key]
		if !ok || pc.FullName != fullName {
			break
		}
		found = key
		key = pc.parentKey
	}
	return found
}

func normalizeProviderKeys(m *jsonModule, pcs map[string]*jsonProviderConfig) {
	for i := range m.Resources {
		if pc, ok := pcs[m.Resources[i].ProviderConfigKey]; ok && pc.parentKey != "" {
			m.Resources[i].ProviderConfigKey = pc.parentKey
		}
	}
	for name, mc := range m.ModuleCalls {
		normalizeProviderKeys(&mc.Module, pcs)
		m.ModuleCalls[name] = mc
	}
}

func marshalModule(m *Module, opts JSONOptions) (jsonModule, error) {
	var out jsonModule
	managed, err := marshalResources(m, m.ManagedResources, opts)
	if err != nil {
		return out, err
	}
	data, err := marshalResources(m, m.DataResources, opts)
	if err != nil {
		return out, err
	}
	out.Resources = append(managed, data...)

	if len(m.Outputs) > 0 {
		out.Outputs = make(map[string]jsonOutput, len(m.Outputs))
		for name, o := range m.Outputs {
			out.Outputs[name] = jsonOutput{
				Sensitive:   o.Sensitive,
				Deprecated:  o.Deprecated,
				Expression:  marshalExpression(o.Expr),
				DependsOn:   dependsOnStrings(o.DependsOn),
				Description: o.Description,
			}
		}
	}
	if len(m.ModuleCalls) > 0 {
		out.ModuleCalls = make(map[string]jsonModuleCall, len(m.ModuleCalls))
		for name, mc := range m.ModuleCalls {
			child := m.Children[name]
			if child == nil {
				continue
			}
			call := jsonModuleCall{Source: mc.SourceAddr, VersionConstraint: mc.Version, DependsOn: dependsOnStrings(mc.DependsOn)}
			if e := marshalExpression(mc.Count); !e.empty() {
				call.CountExpression = &e
			} else if e := marshalExpression(mc.ForEach); !e.empty() {
				call.ForEachExpression = &e
			}
			call.Expressions = marshalModuleInputs(mc.Config, child)
			call.Module, err = marshalModule(child, opts)
			if err != nil {
				return out, err
			}
			out.ModuleCalls[name] = call
		}
	}
	if len(m.Variables) > 0 {
		out.Variables = make(map[string]jsonVariable, len(m.Variables))
		for name, v := range m.Variables {
			jv := jsonVariable{Description: v.Description, Sensitive: v.Sensitive, Deprecated: v.Deprecated}
			if v.Default != cty.NilVal {
				b, err := ctyjson.Marshal(v.Default, v.Default.Type())
				if err != nil {
					return out, fmt.Errorf("default of variable %q: %w", name, err)
				}
				jv.Default = b
			}
			out.Variables[name] = jv
		}
	}
	return out, nil
}

func marshalResources(m *Module, set map[string]*Resource, opts JSONOptions) ([]jsonResource, error) {
	out := make([]jsonResource, 0, len(set))
	for _, key := range slices.Sorted(maps.Keys(set)) {
		r := set[key]
		provider, ref := m.ProviderForResource(r)
		jr := jsonResource{
			Address:           r.Addr().String(),
			Mode:              r.Mode.String(),
			Type:              r.Type,
			Name:              r.Name,
			ProviderConfigKey: providerKey(ref.String(), m),
			DependsOn:         dependsOnStrings(r.DependsOn),
		}
		if opts.SchemaVersion != nil {
			jr.SchemaVersion = opts.SchemaVersion(provider, r.Mode, r.Type)
		}
		var nesting func(path []string) BlockNesting
		if opts.Nesting != nil {
			nesting = func(path []string) BlockNesting { return opts.Nesting(provider, r.Mode, r.Type, path) }
		}
		jr.Expressions = marshalBodyExpressions(r.Config, nesting)
		if e := marshalExpression(r.Count); !e.empty() {
			jr.CountExpression = &e
		} else if e := marshalExpression(r.ForEach); !e.empty() {
			jr.ForEachExpression = &e
		}
		if r.Managed != nil {
			for _, p := range r.Managed.Provisioners {
				jr.Provisioners = append(jr.Provisioners, jsonProvisioner{Type: p.Type, Expressions: marshalBodyExpressions(p.Config, nil)})
			}
		}
		out = append(out, jr)
	}
	// Address order, as plans list them (data. sorts by its string too).
	sort.SliceStable(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out, nil
}

// marshalModuleInputs renders only the arguments that name a variable the
// child declares; anything else is not an input.
func marshalModuleInputs(body hcl.Body, child *Module) map[string]any {
	if body == nil {
		return nil
	}
	schema := &hcl.BodySchema{}
	for _, name := range slices.Sorted(maps.Keys(child.Variables)) {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: name})
	}
	content, _, _ := body.PartialContent(schema)
	if len(content.Attributes) == 0 {
		return nil
	}
	out := make(map[string]any, len(content.Attributes))
	for name, attr := range content.Attributes {
		out[name] = marshalExpression(attr.Expr)
	}
	return out
}

// marshalBodyExpressions renders a body without its schema: attributes
// become expressions and nested blocks objects (in a list unless nesting
// says otherwise). Dynamic blocks are left out, as a schema-driven read
// would not see them either.
func marshalBodyExpressions(body hcl.Body, nesting func(path []string) BlockNesting) map[string]any {
	if body == nil {
		return nil
	}
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		attrs, _ := body.JustAttributes()
		if len(attrs) == 0 {
			return nil
		}
		out := make(map[string]any, len(attrs))
		for name, attr := range attrs {
			out[name] = marshalExpression(attr.Expr)
		}
		return out
	}
	return marshalSyntaxBody(sb, nil, nesting, true)
}

func marshalSyntaxBody(body *hclsyntax.Body, path []string, nesting func([]string) BlockNesting, top bool) map[string]any {
	out := map[string]any{}
	attrs, _ := body.JustAttributes()
	for name, attr := range attrs {
		out[name] = marshalExpression(attr.Expr)
	}
	for _, b := range body.Blocks {
		if b.Type == "dynamic" || (top && metaBlockTypes[b.Type]) {
			continue
		}
		p := append(append([]string(nil), path...), b.Type)
		inner := marshalSyntaxBody(b.Body, p, nesting, false)
		mode := NestingList
		if nesting != nil {
			mode = nesting(p)
		}
		switch mode {
		case NestingSingle:
			out[b.Type] = inner
		case NestingMap:
			mm, _ := out[b.Type].(map[string]any)
			if mm == nil {
				mm = map[string]any{}
				out[b.Type] = mm
			}
			if len(b.Labels) > 0 {
				mm[b.Labels[0]] = inner
			}
		default:
			list, _ := out[b.Type].([]map[string]any)
			out[b.Type] = append(list, inner)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func dependsOnStrings(deps []hcl.Traversal) []string {
	if len(deps) == 0 {
		return nil
	}
	out := make([]string, len(deps))
	for i, t := range deps {
		if ref, diags := addrs.ParseRef(t); !diags.HasErrors() {
			out[i] = ref.Subject.String()
		}
	}
	return out
}

// marshalExpression gives an expression's constant value when it has one
// without any context, and every reference it makes with each of the
// shorter addresses that reference contains.
func marshalExpression(expr hcl.Expression) jsonExpression {
	var out jsonExpression
	if expr == nil {
		return out
	}
	if val, _ := expr.Value(nil); val != cty.NilVal && val.IsWhollyKnown() {
		if b, err := ctyjson.Marshal(val, val.Type()); err == nil {
			out.ConstantValue = b
		}
	}
	refs, _ := ReferencesInExpr(expr)
	for _, ref := range refs {
		out.References = appendReferenceStrings(out.References, ref)
	}
	return out
}

// appendReferenceStrings renders a reference from the longest form down
// to the object itself: module.m["x"].out.id, module.m["x"].out,
// module.m["x"]. Resource instances and module calls with a key also list
// the keyless address.
func appendReferenceStrings(out []string, ref *addrs.Reference) []string {
	subject := ref.Subject.String()
	remain := ref.Remaining
	var keyless string
	switch s := ref.Subject.(type) {
	case addrs.ResourceInstance:
		if s.Key != nil {
			keyless = s.Resource.String()
		}
	case addrs.ModuleCall:
		// module.NAME[KEY].OUTPUT: the output of one instance is the
		// subject, the instance its parent.
		if len(remain) > 0 {
			if idx, ok := remain[0].(hcl.TraverseIndex); ok {
				key, err := addrs.KeyFromValue(idx.Key)
				if err != nil {
					return out
				}
				inst := subject + key.String()
				remain = remain[1:]
				if len(remain) == 0 {
					return append(out, inst, subject)
				}
				attr, ok := remain[0].(hcl.TraverseAttr)
				if !ok {
					return out
				}
				subject, keyless, remain = inst+"."+attr.Name, inst, remain[1:]
			} else if attr, ok := remain[0].(hcl.TraverseAttr); ok {
				subject, keyless, remain = subject+"."+attr.Name, subject, remain[1:]
			}
		}
	}
	for n := len(remain); n > 0; n-- {
		out = append(out, subject+traversalString(remain[:n]))
	}
	out = append(out, subject)
	if keyless != "" {
		out = append(out, keyless)
	}
	return out
}

// traversalString renders relative steps the way reference lists show
// them: .attr, [0], ["key"], and [...] for non-primitive keys.
func traversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteByte('.')
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			b.WriteByte('[')
			b.WriteString(compactKey(s.Key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

func compactKey(v cty.Value) string {
	switch {
	case v.IsNull():
		return "null"
	case !v.IsKnown():
		return "(not yet known)"
	case v.Type() == cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('g', 10)
	case v.Type() == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	}
	return "..."
}
