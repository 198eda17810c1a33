package plugin

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tenetplan/tenet/providers"
)

// encodeValue is the msgpack form of v as the schema's implied type ty.
// Marks are dropped first: the wire has no room for them, and the caller
// puts them back on what comes back. cty.NilVal stands for null.
func encodeValue(v cty.Value, ty cty.Type) ([]byte, error) {
	if v == cty.NilVal {
		v = cty.NullVal(ty)
	}
	if v.ContainsMarked() {
		// Unmarking copies the whole value; most values carry no marks.
		v, _ = v.UnmarkDeep()
	}
	return ctymsgpack.Marshal(v, ty)
}

// setDynamic fills the DynamicValue field name of m with v.
func setDynamic(m protoreflect.Message, name string, v cty.Value, ty cty.Type) error {
	b, err := encodeValue(v, ty)
	if err != nil {
		return err
	}
	setBytes(mutable(m, name), "msgpack", b)
	return nil
}

// decodeDynamic reads a DynamicValue message as type ty. Providers send
// msgpack; JSON is the legacy fallback. An absent value is null.
func decodeDynamic(dv protoreflect.Message, ty cty.Type) (cty.Value, error) {
	if dv == nil {
		return cty.NullVal(ty), nil
	}
	var v cty.Value
	var err error
	if b := getBytes(dv, "msgpack"); b != nil {
		v, err = ctymsgpack.Unmarshal(b, ty)
	} else if b := getBytes(dv, "json"); b != nil {
		v, err = ctyjson.Unmarshal(b, ty)
	} else {
		return cty.NullVal(ty), nil
	}
	if err != nil {
		return cty.NilVal, err
	}
	// The decoders accept an object with attributes missing; the engine
	// relies on every attribute being there.
	if errs := v.Type().TestConformance(ty); errs != nil {
		return cty.NilVal, errs[0]
	}
	return v, nil
}

// decodeField decodes the DynamicValue field name of resp, turning a
// failure into a diagnostic that names the RPC and the expected type: a
// provider returning a value of the wrong shape is a provider bug.
func decodeField(resp protoreflect.Message, name string, ty cty.Type, rpcName, what string, diags providers.Diagnostics) (cty.Value, providers.Diagnostics) {
	v, err := decodeDynamic(getMsg(resp, name), ty)
	if err != nil {
		return cty.NullVal(ty), diags.Errorf(nil, "Invalid response from provider",
			fmt.Sprintf("The provider's %s response carried a %s that is not a valid %s: %s. This is a bug in the provider; report it to the provider's developers.",
				rpcName, what, ty.FriendlyName(), err))
	}
	return v, diags
}

// decodeDiagnostics converts the repeated Diagnostic field of resp.
func decodeDiagnostics(resp protoreflect.Message) providers.Diagnostics {
	list := getList(resp, "diagnostics")
	if list.Len() == 0 {
		return nil
	}
	out := make(providers.Diagnostics, 0, list.Len())
	for i := 0; i < list.Len(); i++ {
		d := list.Get(i).Message()
		sev := hcl.DiagError
		if getEnum(d, "severity") == 2 { // WARNING
			sev = hcl.DiagWarning
		}
		out = append(out, providers.Diagnostic{
			Severity:  sev,
			Summary:   getString(d, "summary"),
			Detail:    getString(d, "detail"),
			Attribute: decodePath(getMsg(d, "attribute")),
		})
	}
	return out
}

// decodePath converts an AttributePath message; nil when absent.
func decodePath(m protoreflect.Message) cty.Path {
	if m == nil {
		return nil
	}
	steps := getList(m, "steps")
	if steps.Len() == 0 {
		return nil
	}
	path := make(cty.Path, 0, steps.Len())
	for i := 0; i < steps.Len(); i++ {
		s := steps.Get(i).Message()
		switch {
		case s.Has(field(s, "attribute_name")):
			path = append(path, cty.GetAttrStep{Name: getString(s, "attribute_name")})
		case s.Has(field(s, "element_key_string")):
			path = append(path, cty.IndexStep{Key: cty.StringVal(getString(s, "element_key_string"))})
		case s.Has(field(s, "element_key_int")):
			path = append(path, cty.IndexStep{Key: cty.NumberIntVal(getInt(s, "element_key_int"))})
		}
	}
	return path
}
