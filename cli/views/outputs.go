package views

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// OutputValue is a root output value as stored after apply.
type OutputValue struct {
	Value      cty.Value
	Sensitive  bool
	Deprecated string
}

// SortedOutputNames lists output names in the order they are shown.
func SortedOutputNames(outputs map[string]OutputValue) []string {
	names := make([]string, 0, len(outputs))
	for name := range outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// RawOutputValue is the `output -raw` text of a value: strings as they
// are, numbers and bools in their usual form; anything else is an error.
func RawOutputValue(name string, v cty.Value) (string, error) {
	v, _ = v.UnmarkDeep()
	// The errors are OpenTofu's words, checked in its order.
	switch {
	case !v.Type().IsPrimitiveType() && v.Type() != cty.DynamicPseudoType:
		return "", fmt.Errorf("The -raw option only supports strings, numbers, and boolean values, but output value %q is %s.\n\nUse the -json option for machine-readable representations of output values that have complex types.", name, v.Type().FriendlyName())
	case v.IsNull():
		return "", fmt.Errorf("The value for output value %q is null, so -raw mode cannot print it.", name)
	case !v.IsKnown():
		return "", fmt.Errorf("The value for output value %q won't be known until after a successful tenet apply, so -raw mode cannot print it.", name)
	case v.Type() == cty.String:
		return v.AsString(), nil
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1), nil
	case v.Type() == cty.Bool:
		if v.True() {
			return "true", nil
		}
		return "false", nil
	}
	return "", fmt.Errorf("The -raw option only supports strings, numbers, and boolean values, but output value %q is %s.\n\nUse the -json option for machine-readable representations of output values that have complex types.", name, v.Type().FriendlyName())
}

// OutputValueJSON is the `output -json NAME` form of one value.
func OutputValueJSON(v cty.Value) ([]byte, error) {
	v, _ = v.UnmarkDeep()
	return ctyjson.Marshal(v, v.Type())
}

// OutputsJSON is the `output -json` document of every output:
// {name: {sensitive, type, value}}, indented, with a final newline.
func OutputsJSON(outputs map[string]OutputValue) ([]byte, error) {
	type entry struct {
		Sensitive  bool            `json:"sensitive"`
		Deprecated string          `json:"deprecated,omitempty"`
		Type       json.RawMessage `json:"type"`
		Value      json.RawMessage `json:"value"`
	}
	doc := make(map[string]entry, len(outputs))
	for name, o := range outputs {
		val, _ := o.Value.UnmarkDeep()
		typ, err := ctyjson.MarshalType(val.Type())
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", name, err)
		}
		js, err := ctyjson.Marshal(val, val.Type())
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", name, err)
		}
		doc[name] = entry{Sensitive: o.Sensitive, Deprecated: o.Deprecated, Type: typ, Value: js}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// FormatOutputValue renders an output value as `output` and apply show it
// (as OpenTofu does): nested lines indented by two spaces, every object and
// map key quoted and unaligned, lists, sets and maps with their conversion
// function (tolist, toset, tomap), multi-line strings as heredocs.
func FormatOutputValue(v cty.Value) string {
	return FormatValue(v, OutputStyle, 0)
}
