package plugin

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tenetplan/tenet/providers"
)

// decodeSchemaResponse converts a GetProviderSchema (or protocol 5
// GetSchema) response. A malformed schema element is an error: nothing
// can be encoded against a schema that cannot be read.
func decodeSchemaResponse(resp protoreflect.Message) (providers.GetProviderSchemaResponse, error) {
	out := providers.GetProviderSchemaResponse{Diagnostics: decodeDiagnostics(resp)}
	var err error
	if out.Provider, err = decodeSchema(getMsg(resp, "provider")); err != nil {
		return out, fmt.Errorf("provider configuration schema: %w", err)
	}
	if out.ResourceTypes, err = decodeSchemaMap(getMap(resp, "resource_schemas")); err != nil {
		return out, fmt.Errorf("resource type %w", err)
	}
	if out.DataSources, err = decodeSchemaMap(getMap(resp, "data_source_schemas")); err != nil {
		return out, fmt.Errorf("data source %w", err)
	}
	if out.Functions, err = decodeFunctions(getMap(resp, "functions")); err != nil {
		return out, err
	}
	if caps := getMsg(resp, "server_capabilities"); caps != nil {
		out.PlanDestroy = getBool(caps, "plan_destroy")
		out.GetProviderSchemaOptional = getBool(caps, "get_provider_schema_optional")
		out.MoveResourceState = getBool(caps, "move_resource_state")
	}
	return out, nil
}

func decodeSchemaMap(m protoreflect.Map) (map[string]providers.Schema, error) {
	return decodeByName(m, "", decodeSchema)
}

// decodeByName decodes each message of a map keyed by name. The first
// failure stops it, prefixed with what and the name it came under.
func decodeByName[T any](m protoreflect.Map, what string, decode func(protoreflect.Message) (T, error)) (map[string]T, error) {
	out := make(map[string]T, m.Len())
	var err error
	m.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		var x T
		if x, err = decode(v.Message()); err != nil {
			err = fmt.Errorf("%s%q: %w", what, k.String(), err)
			return false
		}
		out[k.String()] = x
		return true
	})
	return out, err
}

// decodeSchema converts a Schema message; an absent one is an empty block.
func decodeSchema(m protoreflect.Message) (providers.Schema, error) {
	if m == nil {
		return providers.Schema{Block: &providers.Block{}}, nil
	}
	b, err := decodeBlock(getMsg(m, "block"))
	return providers.Schema{Version: getInt(m, "version"), Block: b}, err
}

func decodeBlock(m protoreflect.Message) (*providers.Block, error) {
	b := &providers.Block{}
	if m == nil {
		return b, nil
	}
	b.Description = getString(m, "description")
	b.Deprecated = getBool(m, "deprecated")
	if attrs := getList(m, "attributes"); attrs.Len() > 0 {
		var err error
		if b.Attributes, err = decodeAttributes(attrs, "attribute"); err != nil {
			return nil, err
		}
	}
	blocks := getList(m, "block_types")
	if blocks.Len() > 0 {
		b.BlockTypes = make(map[string]*providers.NestedBlock, blocks.Len())
	}
	for i := 0; i < blocks.Len(); i++ {
		nm := blocks.Get(i).Message()
		name := getString(nm, "type_name")
		inner, err := decodeBlock(getMsg(nm, "block"))
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", name, err)
		}
		nesting, ok := blockNesting[getEnum(nm, "nesting")]
		if !ok {
			return nil, fmt.Errorf("block %q: unsupported nesting mode %d", name, getEnum(nm, "nesting"))
		}
		b.BlockTypes[name] = &providers.NestedBlock{
			Block:    *inner,
			Nesting:  nesting,
			MinItems: int(getInt(nm, "min_items")),
			MaxItems: int(getInt(nm, "max_items")),
		}
	}
	return b, nil
}

// The wire's nesting enums: SINGLE=1 LIST=2 SET=3 MAP=4 GROUP=5 (GROUP
// only for blocks).
var blockNesting = map[protoreflect.EnumNumber]providers.NestingMode{
	1: providers.NestingSingle, 2: providers.NestingList, 3: providers.NestingSet,
	4: providers.NestingMap, 5: providers.NestingGroup,
}

var objectNesting = map[protoreflect.EnumNumber]providers.NestingMode{
	1: providers.NestingSingle, 2: providers.NestingList, 3: providers.NestingSet, 4: providers.NestingMap,
}

func decodeAttribute(m protoreflect.Message) (*providers.Attribute, error) {
	a := &providers.Attribute{
		Description: getString(m, "description"),
		Required:    getBool(m, "required"),
		Optional:    getBool(m, "optional"),
		Computed:    getBool(m, "computed"),
		Sensitive:   getBool(m, "sensitive"),
		Deprecated:  getBool(m, "deprecated"),
	}
	if hasField(m, "write_only") {
		a.WriteOnly = getBool(m, "write_only")
	}
	if hasField(m, "nested_type") { // protocol 6 only
		if nm := getMsg(m, "nested_type"); nm != nil {
			obj, err := decodeObject(nm)
			if err != nil {
				return nil, err
			}
			a.NestedType = obj
			return a, nil
		}
	}
	ty, err := decodeType(getBytes(m, "type"))
	if err != nil {
		return nil, err
	}
	a.Type = ty
	return a, nil
}

func decodeObject(m protoreflect.Message) (*providers.Object, error) {
	nesting, ok := objectNesting[getEnum(m, "nesting")]
	if !ok {
		return nil, fmt.Errorf("unsupported nested attribute nesting mode %d", getEnum(m, "nesting"))
	}
	attrs, err := decodeAttributes(getList(m, "attributes"), "nested attribute")
	if err != nil {
		return nil, err
	}
	return &providers.Object{Nesting: nesting, Attributes: attrs}, nil
}

// decodeAttributes reads a list of Attribute messages into a map by name;
// what names them in an error.
func decodeAttributes(list protoreflect.List, what string) (map[string]*providers.Attribute, error) {
	out := make(map[string]*providers.Attribute, list.Len())
	for i := 0; i < list.Len(); i++ {
		am := list.Get(i).Message()
		a, err := decodeAttribute(am)
		name := getString(am, "name")
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", what, name, err)
		}
		out[name] = a
	}
	return out, nil
}

// decodeType reads a type constraint in cty's JSON type notation
// ("string", ["list","number"], "dynamic").
func decodeType(b []byte) (cty.Type, error) {
	if len(b) == 0 {
		return cty.NilType, fmt.Errorf("no type given")
	}
	var ty cty.Type
	if err := ty.UnmarshalJSON(b); err != nil {
		return cty.NilType, fmt.Errorf("invalid type %s: %w", b, err)
	}
	return ty, nil
}

func decodeFunctions(m protoreflect.Map) (map[string]providers.Function, error) {
	if m.Len() == 0 {
		return nil, nil
	}
	return decodeByName(m, "function ", decodeFunction)
}

func decodeFunction(m protoreflect.Message) (providers.Function, error) {
	f := providers.Function{
		Summary:            getString(m, "summary"),
		Description:        getString(m, "description"),
		DeprecationMessage: getString(m, "deprecation_message"),
	}
	params := getList(m, "parameters")
	for i := 0; i < params.Len(); i++ {
		p, err := decodeParameter(params.Get(i).Message())
		if err != nil {
			return f, fmt.Errorf("parameter %d: %w", i, err)
		}
		f.Parameters = append(f.Parameters, p)
	}
	if vm := getMsg(m, "variadic_parameter"); vm != nil {
		p, err := decodeParameter(vm)
		if err != nil {
			return f, fmt.Errorf("variadic parameter: %w", err)
		}
		f.VariadicParameter = &p
	}
	rm := getMsg(m, "return")
	if rm == nil {
		return f, fmt.Errorf("no return type")
	}
	ty, err := decodeType(getBytes(rm, "type"))
	if err != nil {
		return f, fmt.Errorf("return: %w", err)
	}
	f.ReturnType = ty
	return f, nil
}

func decodeParameter(m protoreflect.Message) (providers.FunctionParameter, error) {
	ty, err := decodeType(getBytes(m, "type"))
	return providers.FunctionParameter{
		Name:               getString(m, "name"),
		Type:               ty,
		AllowNullValue:     getBool(m, "allow_null_value"),
		AllowUnknownValues: getBool(m, "allow_unknown_values"),
		Description:        getString(m, "description"),
	}, err
}
