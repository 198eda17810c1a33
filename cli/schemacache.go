package cli

import (
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// The schema cache file holds a GetProviderSchemaResponse in the shapes
// below: the providers types as they are, except that cty types are
// written in cty's JSON form and only when set (an attribute with a
// nested type has none).

const schemaCacheFormat = 1

type cachedResponse struct {
	Format                    int
	Provider                  cachedSchema
	ResourceTypes             map[string]cachedSchema
	DataSources               map[string]cachedSchema
	Functions                 map[string]cachedFunction
	PlanDestroy               bool
	GetProviderSchemaOptional bool
	MoveResourceState         bool
}

type cachedSchema struct {
	Version int64
	Block   *cachedBlock
}

type cachedBlock struct {
	Attributes  map[string]*cachedAttribute
	BlockTypes  map[string]*cachedNested
	Description string
	Deprecated  bool
}

type cachedNested struct {
	Block              cachedBlock
	Nesting            providers.NestingMode
	MinItems, MaxItems int
}

type cachedAttribute struct {
	Type        json.RawMessage `json:",omitempty"`
	NestedType  *cachedObject
	Description string
	Required    bool
	Optional    bool
	Computed    bool
	Sensitive   bool
	Deprecated  bool
	WriteOnly   bool
}

type cachedObject struct {
	Attributes map[string]*cachedAttribute
	Nesting    providers.NestingMode
}

type cachedFunction struct {
	Parameters         []cachedParameter
	VariadicParameter  *cachedParameter
	ReturnType         json.RawMessage
	Summary            string
	Description        string
	DeprecationMessage string
}

type cachedParameter struct {
	Name               string
	Type               json.RawMessage
	AllowNullValue     bool
	AllowUnknownValues bool
	Description        string
}

// encodeSchemaCache renders a schema for the cache file.
func encodeSchemaCache(r providers.GetProviderSchemaResponse) (b []byte, err error) {
	defer func() {
		// cty panics on types it cannot write; the cache is then skipped.
		if p := recover(); p != nil {
			err = fmt.Errorf("schema not cacheable: %v", p)
		}
	}()
	out := cachedResponse{
		Format:                    schemaCacheFormat,
		Provider:                  toCachedSchema(r.Provider),
		ResourceTypes:             map[string]cachedSchema{},
		DataSources:               map[string]cachedSchema{},
		Functions:                 map[string]cachedFunction{},
		PlanDestroy:               r.PlanDestroy,
		GetProviderSchemaOptional: r.GetProviderSchemaOptional,
		MoveResourceState:         r.MoveResourceState,
	}
	for n, s := range r.ResourceTypes {
		out.ResourceTypes[n] = toCachedSchema(s)
	}
	for n, s := range r.DataSources {
		out.DataSources[n] = toCachedSchema(s)
	}
	for n, f := range r.Functions {
		cf := cachedFunction{ReturnType: mustType(f.ReturnType), Summary: f.Summary, Description: f.Description, DeprecationMessage: f.DeprecationMessage}
		for _, p := range f.Parameters {
			cf.Parameters = append(cf.Parameters, toCachedParam(p))
		}
		if f.VariadicParameter != nil {
			p := toCachedParam(*f.VariadicParameter)
			cf.VariadicParameter = &p
		}
		out.Functions[n] = cf
	}
	return json.Marshal(out)
}

func mustType(t cty.Type) json.RawMessage {
	if t == cty.NilType {
		return nil
	}
	b, err := t.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return b
}

func toCachedParam(p providers.FunctionParameter) cachedParameter {
	return cachedParameter{Name: p.Name, Type: mustType(p.Type), AllowNullValue: p.AllowNullValue, AllowUnknownValues: p.AllowUnknownValues, Description: p.Description}
}

func toCachedSchema(s providers.Schema) cachedSchema {
	cs := cachedSchema{Version: s.Version}
	if s.Block != nil {
		b := toCachedBlock(s.Block)
		cs.Block = &b
	}
	return cs
}

func toCachedBlock(b *providers.Block) cachedBlock {
	cb := cachedBlock{Description: b.Description, Deprecated: b.Deprecated}
	if len(b.Attributes) > 0 {
		cb.Attributes = map[string]*cachedAttribute{}
		for n, a := range b.Attributes {
			cb.Attributes[n] = toCachedAttribute(a)
		}
	}
	if len(b.BlockTypes) > 0 {
		cb.BlockTypes = map[string]*cachedNested{}
		for n, nb := range b.BlockTypes {
			cb.BlockTypes[n] = &cachedNested{Block: toCachedBlock(&nb.Block), Nesting: nb.Nesting, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
		}
	}
	return cb
}

func toCachedAttribute(a *providers.Attribute) *cachedAttribute {
	ca := &cachedAttribute{Type: mustType(a.Type), Description: a.Description, Required: a.Required, Optional: a.Optional,
		Computed: a.Computed, Sensitive: a.Sensitive, Deprecated: a.Deprecated, WriteOnly: a.WriteOnly}
	if a.NestedType != nil {
		ca.NestedType = &cachedObject{Attributes: map[string]*cachedAttribute{}, Nesting: a.NestedType.Nesting}
		for n, x := range a.NestedType.Attributes {
			ca.NestedType.Attributes[n] = toCachedAttribute(x)
		}
	}
	return ca
}

// decodeSchemaCache reads a cache file's content; any problem means no
// cache.
func decodeSchemaCache(b []byte) (*providers.GetProviderSchemaResponse, error) {
	var c cachedResponse
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	if c.Format != schemaCacheFormat {
		return nil, fmt.Errorf("cache format %d", c.Format)
	}
	r := &providers.GetProviderSchemaResponse{
		ResourceTypes:             map[string]providers.Schema{},
		DataSources:               map[string]providers.Schema{},
		PlanDestroy:               c.PlanDestroy,
		GetProviderSchemaOptional: c.GetProviderSchemaOptional,
		MoveResourceState:         c.MoveResourceState,
	}
	var err error
	if r.Provider, err = fromCachedSchema(c.Provider); err != nil {
		return nil, err
	}
	for n, s := range c.ResourceTypes {
		if r.ResourceTypes[n], err = fromCachedSchema(s); err != nil {
			return nil, err
		}
	}
	for n, s := range c.DataSources {
		if r.DataSources[n], err = fromCachedSchema(s); err != nil {
			return nil, err
		}
	}
	if len(c.Functions) > 0 {
		r.Functions = map[string]providers.Function{}
		for n, cf := range c.Functions {
			f := providers.Function{Summary: cf.Summary, Description: cf.Description, DeprecationMessage: cf.DeprecationMessage}
			if f.ReturnType, err = typeOf(cf.ReturnType); err != nil {
				return nil, err
			}
			for _, cp := range cf.Parameters {
				p, err := fromCachedParam(cp)
				if err != nil {
					return nil, err
				}
				f.Parameters = append(f.Parameters, p)
			}
			if cf.VariadicParameter != nil {
				p, err := fromCachedParam(*cf.VariadicParameter)
				if err != nil {
					return nil, err
				}
				f.VariadicParameter = &p
			}
			r.Functions[n] = f
		}
	}
	return r, nil
}

func typeOf(raw json.RawMessage) (cty.Type, error) {
	if len(raw) == 0 {
		return cty.NilType, nil
	}
	var t cty.Type
	err := t.UnmarshalJSON(raw)
	return t, err
}

func fromCachedParam(c cachedParameter) (providers.FunctionParameter, error) {
	t, err := typeOf(c.Type)
	return providers.FunctionParameter{Name: c.Name, Type: t, AllowNullValue: c.AllowNullValue, AllowUnknownValues: c.AllowUnknownValues, Description: c.Description}, err
}

func fromCachedSchema(c cachedSchema) (providers.Schema, error) {
	s := providers.Schema{Version: c.Version}
	if c.Block != nil {
		b, err := fromCachedBlock(c.Block)
		if err != nil {
			return s, err
		}
		s.Block = b
	}
	return s, nil
}

func fromCachedBlock(c *cachedBlock) (*providers.Block, error) {
	b := &providers.Block{Description: c.Description, Deprecated: c.Deprecated}
	if len(c.Attributes) > 0 {
		b.Attributes = map[string]*providers.Attribute{}
		for n, ca := range c.Attributes {
			a, err := fromCachedAttribute(ca)
			if err != nil {
				return nil, err
			}
			b.Attributes[n] = a
		}
	}
	if len(c.BlockTypes) > 0 {
		b.BlockTypes = map[string]*providers.NestedBlock{}
		for n, cn := range c.BlockTypes {
			inner, err := fromCachedBlock(&cn.Block)
			if err != nil {
				return nil, err
			}
			b.BlockTypes[n] = &providers.NestedBlock{Block: *inner, Nesting: cn.Nesting, MinItems: cn.MinItems, MaxItems: cn.MaxItems}
		}
	}
	return b, nil
}

func fromCachedAttribute(c *cachedAttribute) (*providers.Attribute, error) {
	t, err := typeOf(c.Type)
	if err != nil {
		return nil, err
	}
	a := &providers.Attribute{Type: t, Description: c.Description, Required: c.Required, Optional: c.Optional,
		Computed: c.Computed, Sensitive: c.Sensitive, Deprecated: c.Deprecated, WriteOnly: c.WriteOnly}
	if c.NestedType != nil {
		a.NestedType = &providers.Object{Attributes: map[string]*providers.Attribute{}, Nesting: c.NestedType.Nesting}
		for n, x := range c.NestedType.Attributes {
			if a.NestedType.Attributes[n], err = fromCachedAttribute(x); err != nil {
				return nil, err
			}
		}
	}
	return a, nil
}
