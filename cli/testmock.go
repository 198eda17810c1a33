package cli

import (
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/config/testfile"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/providers"
)

// testDoubles are a test file's mock providers and resource overrides,
// ready to wrap the providers of one run.
type testDoubles struct {
	// mocked are the providers a mock_provider replaces, with the default
	// values of their mock_resource / mock_data blocks by type.
	mocked map[addrs.Provider]*mockDefaults
	// overrides are override_resource / override_data values by the
	// configuration address of the resource they replace.
	overrides map[string]map[string]cty.Value
}

type mockDefaults struct {
	managed, data map[string]map[string]cty.Value
}

// unsupportedMocks refuses what this runner does not do with mocks and
// overrides: aliased mock providers and override_module.
func (fr *fileRun) unsupportedMocks() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range fr.file.MockProviders {
		if m.Alias != "" {
			diags = append(diags, refuse(fmt.Sprintf("mock_provider %q with an alias", m.Key()), m.DeclRange))
		}
	}
	for _, o := range fr.file.Overrides {
		if o.Kind == testfile.OverrideModule {
			diags = append(diags, refuse("override_module", o.DeclRange))
		}
	}
	for _, r := range fr.file.Runs {
		for _, o := range r.Overrides {
			if o.Kind == testfile.OverrideModule {
				diags = append(diags, refuse("override_module", o.DeclRange))
			}
		}
	}
	return diags
}

// doubles gathers the mocks of the file and the overrides of the file and
// of run r (the run's win), for configuration cfg.
func (fr *fileRun) doubles(cfg *config.Config, r *testfile.Run) (*testDoubles, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	d := &testDoubles{mocked: map[addrs.Provider]*mockDefaults{}, overrides: map[string]map[string]cty.Value{}}
	var overrides []*testfile.Override
	for _, m := range fr.file.MockProviders {
		md := &mockDefaults{managed: map[string]map[string]cty.Value{}, data: map[string]map[string]cty.Value{}}
		for _, mr := range m.Resources {
			vals, vd := staticObject(mr.Defaults, "defaults")
			diags = append(diags, vd...)
			if mr.Data {
				md.data[mr.Type] = vals
			} else {
				md.managed[mr.Type] = vals
			}
		}
		d.mocked[cfg.Root.ImpliedProvider(m.Name)] = md
		overrides = append(overrides, m.Overrides...)
	}
	overrides = append(overrides, fr.file.Overrides...)
	if r != nil {
		overrides = append(overrides, r.Overrides...)
	}
	for _, o := range overrides {
		if o.Kind == testfile.OverrideModule {
			continue
		}
		t, td := addrs.ParseTarget(o.Target)
		if td.HasErrors() {
			diags = append(diags, td...)
			continue
		}
		var cr addrs.ConfigResource
		switch s := t.Subject.(type) {
		case addrs.AbsResource:
			cr = s.Config()
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid override target",
				Detail: fmt.Sprintf("The target of %s must be a resource without an instance key, such as aws_instance.web.", o.Kind), Subject: o.Target.SourceRange().Ptr()})
			continue
		}
		wantData := o.Kind == testfile.OverrideData
		if (cr.Resource.Mode == addrs.DataResourceMode) != wantData {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid override target",
				Detail: fmt.Sprintf("%s targets %s resources; %s is not one.", o.Kind, map[bool]string{true: "data", false: "managed"}[wantData], cr), Subject: o.Target.SourceRange().Ptr()})
			continue
		}
		vals, vd := staticObject(o.Values, "values")
		diags = append(diags, vd...)
		d.overrides[cr.String()] = vals
	}
	return d, diags
}

// staticObject evaluates a defaults or values object, which may not refer
// to anything.
func staticObject(expr hcl.Expression, what string) (map[string]cty.Value, hcl.Diagnostics) {
	if expr == nil {
		return nil, nil
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	if v.IsNull() {
		return nil, nil
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: fmt.Sprintf("Invalid %s", what),
			Detail: fmt.Sprintf("The %s argument must be an object, such as { id = \"x\" }.", what), Subject: expr.Range().Ptr()}}
	}
	return v.AsValueMap(), nil
}

func (d *testDoubles) empty() bool { return d == nil || (len(d.mocked) == 0 && len(d.overrides) == 0) }

// wrap gives the registry with every provider wrapped so mocks and
// overrides answer in place of the real provider.
func (d *testDoubles) wrap(reg providers.Registry) providers.Registry {
	if d.empty() {
		return reg
	}
	out := make(providers.Registry, len(reg))
	for addr, factory := range reg {
		addr, factory := addr, factory
		out[addr] = func() (providers.Interface, error) {
			inner, err := factory()
			if err != nil {
				return nil, err
			}
			return &testProvider{Interface: inner, mock: d.mocked[addr], overrides: d.overrides}, nil
		}
	}
	return out
}

// testProvider answers for mocked providers and overridden resources with
// values made from the configuration, the given defaults and generated
// values for the rest, and passes every other call to the real provider.
// A mocked provider is never configured and never asked to plan, apply,
// read or refresh.
type testProvider struct {
	providers.Interface
	mock      *mockDefaults // nil unless the whole provider is mocked
	overrides map[string]map[string]cty.Value
}

// doubled says whether the call for ctx's resource is answered here, and
// with which defaults.
func (p *testProvider) doubled(ctx context.Context, data bool, typ string) (bool, map[string]cty.Value) {
	if addr, ok := engine.ResourceFromContext(ctx); ok {
		if vals, ok := p.overrides[addr.String()]; ok {
			return true, vals
		}
	}
	if p.mock == nil {
		return false, nil
	}
	if data {
		return true, p.mock.data[typ]
	}
	return true, p.mock.managed[typ]
}

func (p *testProvider) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	resp := p.Interface.GetProviderSchema(ctx)
	if p.mock != nil {
		// A mock provider takes no configuration.
		resp.Provider = providers.Schema{Block: &providers.Block{}}
	}
	return resp
}

func (p *testProvider) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	if p.mock != nil {
		return providers.ValidateProviderConfigResponse{}
	}
	return p.Interface.ValidateProviderConfig(ctx, req)
}

func (p *testProvider) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	if p.mock != nil {
		return providers.ConfigureProviderResponse{}
	}
	return p.Interface.ConfigureProvider(ctx, req)
}

func (p *testProvider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	if ok, _ := p.doubled(ctx, false, req.TypeName); ok {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
	}
	return p.Interface.ReadResource(ctx, req)
}

func (p *testProvider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	ok, defaults := p.doubled(ctx, false, req.TypeName)
	if !ok {
		return p.Interface.PlanResourceChange(ctx, req)
	}
	if req.Config.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	sch := p.schemaOf(ctx, false, req.TypeName)
	v, diags := composeMock(sch, req.Config, defaults, req.TypeName)
	return providers.PlanResourceChangeResponse{PlannedState: v, Diagnostics: diags}
}

func (p *testProvider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	if ok, _ := p.doubled(ctx, false, req.TypeName); ok {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	return p.Interface.ApplyResourceChange(ctx, req)
}

func (p *testProvider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	ok, defaults := p.doubled(ctx, true, req.TypeName)
	if !ok {
		return p.Interface.ReadDataSource(ctx, req)
	}
	sch := p.schemaOf(ctx, true, req.TypeName)
	v, diags := composeMock(sch, req.Config, defaults, req.TypeName)
	return providers.ReadDataSourceResponse{State: v, Diagnostics: diags}
}

func (p *testProvider) schemaOf(ctx context.Context, data bool, typ string) *providers.Block {
	resp := p.Interface.GetProviderSchema(ctx)
	m := resp.ResourceTypes
	if data {
		m = resp.DataSources
	}
	if s, ok := m[typ]; ok && s.Block != nil {
		return s.Block
	}
	return &providers.Block{}
}

// composeMock makes the object a mock answers with: configured values as
// they are, the defaults for computed attributes that have one, generated
// values for the other computed attributes and null for the rest. Like
// OpenTofu it draws the generated strings from a generator seeded with
// the 32-bit FNV-1 hash of the type name, so the same type yields
// the same values in every run.
func composeMock(b *providers.Block, cfg cty.Value, defaults map[string]cty.Value, typ string) (cty.Value, providers.Diagnostics) {
	h := fnv.New32()
	_, _ = h.Write([]byte(typ))
	g := &mockGen{r: rand.New(rand.NewSource(int64(h.Sum32())))}
	return g.block(b, cfg, defaults, nil)
}

type mockGen struct{ r *rand.Rand }

func (g *mockGen) block(b *providers.Block, cfg cty.Value, defaults map[string]cty.Value, path cty.Path) (cty.Value, providers.Diagnostics) {
	var diags providers.Diagnostics
	var cfgMap map[string]cty.Value
	if !cfg.IsNull() && cfg.IsKnown() {
		cfgMap = cfg.AsValueMap()
	}
	out := map[string]cty.Value{}
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		a := b.Attributes[name]
		_, hasDefault := defaults[name]
		if cv, ok := cfgMap[name]; ok && !cv.IsNull() {
			if hasDefault {
				diags = diags.Errorf(append(path, cty.GetAttrStep{Name: name}), fmt.Sprintf("Invalid mock/override field `%s`", name),
					"The attribute is set in the configuration, and a mock or override cannot replace a configured value. Remove it from the defaults or values.")
				continue
			}
			out[name] = cv
			continue
		}
		if !a.Computed {
			out[name] = cty.NullVal(a.ImpliedType())
			if hasDefault {
				diags = diags.Errorf(append(path, cty.GetAttrStep{Name: name}), fmt.Sprintf("Non-computed field `%s` is not allowed to be overridden", name),
					"Only attributes the provider computes can be given by a mock or override; set this one in the configuration.")
			}
			continue
		}
		if dv, ok := defaults[name]; ok {
			cv, err := convert.Convert(dv, a.ImpliedType())
			if err != nil {
				diags = diags.Errorf(append(path, cty.GetAttrStep{Name: name}), fmt.Sprintf("Invalid mock/override field `%s`", name),
					fmt.Sprintf("Values provided for override / mock must match resource fields types: %s.", err))
				continue
			}
			out[name] = cv
			continue
		}
		out[name] = g.value(a.ImpliedType())
	}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb := b.BlockTypes[name]
		cv, has := cfgMap[name]
		if has && (cv.IsNull() || !cv.IsKnown() || (cv.Type().IsCollectionType() && cv.LengthInt() == 0)) {
			has = false
		}
		dv, hasDefault := defaults[name]
		if hasDefault && !dv.Type().IsObjectType() {
			diags = diags.Errorf(append(path, cty.GetAttrStep{Name: name}), fmt.Sprintf("Invalid override for block field `%s`", name),
				fmt.Sprintf("Blocks can be overridden only by objects, got `%s`", dv.Type().FriendlyName()))
			continue
		}
		if !has {
			out[name] = nestedEmpty(nb)
			if hasDefault {
				diags = diags.Errorf(append(path, cty.GetAttrStep{Name: name}), fmt.Sprintf("Invalid override for block field `%s`", name),
					"Cannot override block value, because it's not present in configuration.")
			}
			continue
		}
		var sub map[string]cty.Value
		if hasDefault {
			sub = dv.AsValueMap()
		}
		bpath := append(path, cty.GetAttrStep{Name: name})
		switch nb.Nesting {
		case providers.NestingSingle, providers.NestingGroup:
			v, d := g.block(&nb.Block, cv, sub, bpath)
			diags = append(diags, d...)
			out[name] = v
		case providers.NestingList, providers.NestingSet, providers.NestingMap:
			var elems []cty.Value
			keyed := map[string]cty.Value{}
			for it := cv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				v, d := g.block(&nb.Block, ev, sub, bpath)
				diags = append(diags, d...)
				elems = append(elems, v)
				if k.Type() == cty.String {
					keyed[k.AsString()] = v
				}
			}
			switch {
			case nb.Nesting == providers.NestingMap && cv.Type().IsObjectType():
				out[name] = cty.ObjectVal(keyed)
			case nb.Nesting == providers.NestingMap:
				out[name] = cty.MapVal(keyed)
			case nb.Nesting == providers.NestingSet:
				out[name] = cty.SetVal(elems)
			case cv.Type().IsTupleType():
				out[name] = cty.TupleVal(elems)
			default:
				out[name] = cty.ListVal(elems)
			}
		default:
			out[name] = cv
		}
	}
	impliedAttrs := b.ImpliedType().AttributeTypes()
	for _, k := range slices.Sorted(maps.Keys(defaults)) {
		if _, ok := impliedAttrs[k]; !ok {
			diags = diags.Errorf(path, fmt.Sprintf("Invalid override for block field `%s`", k),
				"The field is unknown. Please, ensure it is a part of resource definition.")
		}
	}
	if diags.HasErrors() {
		return cty.NullVal(b.ImpliedType()), diags
	}
	return cty.ObjectVal(out), diags
}

func nestedEmpty(nb *providers.NestedBlock) cty.Value {
	ety := nb.Block.ImpliedType()
	switch nb.Nesting {
	case providers.NestingList:
		return cty.ListValEmpty(ety)
	case providers.NestingSet:
		return cty.SetValEmpty(ety)
	case providers.NestingMap:
		return cty.MapValEmpty(ety)
	}
	return cty.NullVal(ety)
}

// mockChars are the characters generated strings are made of.
const mockChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890"

// value generates a value of type t: 0, false, a random string of 4 to 15
// characters, empty collections, objects of generated required
// attributes.
func (g *mockGen) value(t cty.Type) cty.Value {
	switch {
	case t == cty.Number:
		return cty.Zero
	case t == cty.Bool:
		return cty.False
	case t == cty.String:
		n := g.r.Intn(12) + 4
		buf := make([]byte, n)
		for i := range buf {
			buf[i] = mockChars[g.r.Intn(len(mockChars))]
		}
		return cty.StringVal(string(buf))
	case t.IsListType():
		return cty.ListValEmpty(t.ElementType())
	case t.IsMapType():
		return cty.MapValEmpty(t.ElementType())
	case t.IsSetType():
		return cty.SetValEmpty(t.ElementType())
	case t.IsObjectType():
		attrs := map[string]cty.Value{}
		for _, k := range slices.Sorted(maps.Keys(t.AttributeTypes())) {
			if t.AttributeOptional(k) {
				continue
			}
			attrs[k] = g.value(t.AttributeType(k))
		}
		return cty.ObjectVal(attrs)
	case t.IsTupleType():
		return cty.EmptyTupleVal
	}
	return cty.NullVal(cty.DynamicPseudoType)
}

// providers is the registry one run uses: the real one, wrapped for the
// file's mocks and the run's overrides.
func (fr *fileRun) providersFor(d *testDoubles) providers.Registry {
	return d.wrap(fr.g.providerRegistry())
}

// providers is the unwrapped registry (schemas for rendering).
func (fr *fileRun) providers() providers.Registry {
	return fr.g.providerRegistry()
}
