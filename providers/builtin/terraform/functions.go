package terraform

import (
	"errors"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

// functions are OpenTofu's terraform provider functions. Their errors
// blame the whole call, not an argument, because OpenTofu's do, and the
// diagnostic's position must match.
var functions = map[string]*kit.Function{
	"decode_tfvars": {
		Decl: providers.Function{
			Parameters: []providers.FunctionParameter{{
				Name: "content", Type: cty.String,
				Description: "TFVars file content to decode",
			}},
			ReturnType:  cty.DynamicPseudoType,
			Summary:     "Decode a TFVars file content into an object",
			Description: "provider::terraform::decode_tfvars decodes a TFVars file content into an object",
		},
		Call: func(args []cty.Value) (cty.Value, *providers.FunctionError) {
			return decodeTFVars(args[0].AsString())
		},
	},
	"encode_tfvars": {
		Decl: providers.Function{
			Parameters: []providers.FunctionParameter{{
				Name: "input", Type: cty.DynamicPseudoType,
				Description: "Input to encode for TFVars file. Must be an object with key that are valid identifiers",
			}},
			ReturnType:  cty.String,
			Summary:     "Encode an object into a string with the same format as a TFVars file",
			Description: "provider::terraform::encode_tfvars encodes an object into a string with the same format as a TFVars file",
		},
		Call: func(args []cty.Value) (cty.Value, *providers.FunctionError) {
			return encodeTFVars(args[0])
		},
	},
	"encode_expr": {
		Decl: providers.Function{
			Parameters: []providers.FunctionParameter{{
				Name: "expr", Type: cty.DynamicPseudoType,
				Description: "expression to encode",
			}},
			ReturnType:  cty.String,
			Summary:     "Takes an arbitrary expression and converts it into a string with valid OpenTofu syntax",
			Description: "provider::terraform::encode_expr takes an arbitrary expression and converts it into a string with valid OpenTofu syntax",
		},
		Call: func(args []cty.Value) (cty.Value, *providers.FunctionError) {
			return encodeExpr(args[0])
		},
	},
}

// decodeFailed heads every decode_tfvars error; the HCL diagnostics
// follow it, one a line, as OpenTofu joins them.
func decodeFailed(diags hcl.Diagnostics) *providers.FunctionError {
	errs := append([]error{errors.New("failed to decode tfvars content")}, diags.Errs()...)
	return kit.CallError(errors.Join(errs...).Error())
}

// decodeTFVars reads content as a .tfvars file: attributes whose values
// are constants (no variables, no function calls).
func decodeTFVars(content string) (cty.Value, *providers.FunctionError) {
	// OpenTofu parses from line 0, column 0 with no file name; the
	// positions in its error texts follow from that.
	file, diags := hclsyntax.ParseConfig([]byte(content), "", hcl.Pos{})
	if file == nil || diags.HasErrors() {
		return cty.DynamicVal, decodeFailed(diags)
	}
	attrs, diags := file.Body.JustAttributes()
	if attrs == nil || diags.HasErrors() {
		return cty.DynamicVal, decodeFailed(diags)
	}
	vals := make(map[string]cty.Value, len(attrs))
	for name, attr := range attrs {
		v, diags := attr.Expr.Value(nil)
		if diags.HasErrors() {
			return cty.DynamicVal, decodeFailed(diags)
		}
		vals[name] = v
	}
	return cty.ObjectVal(vals), nil
}

// encodeTFVars writes an object as a .tfvars file, one attribute a line.
func encodeTFVars(v cty.Value) (cty.Value, *providers.FunctionError) {
	if v.IsNull() {
		return cty.UnknownVal(cty.String), kit.CallError("invalid input: must not be null")
	}
	if !v.Type().IsObjectType() {
		return cty.UnknownVal(cty.String), kit.CallError("invalid input: must be an object")
	}
	if !v.IsWhollyKnown() {
		// OpenTofu 1.10.6 panics here (hclwrite cannot write an unknown
		// value); the text is simply not known until apply.
		for it := v.ElementIterator(); it.Next(); {
			if name, _ := it.Element(); !hclsyntax.ValidIdentifier(name.AsString()) {
				return cty.UnknownVal(cty.String), kit.CallError("invalid input: object key: " + name.AsString() + " - must be a valid identifier")
			}
		}
		return cty.UnknownVal(cty.String), nil
	}
	file := hclwrite.NewEmptyFile()
	for it := v.ElementIterator(); it.Next(); {
		key, val := it.Element()
		name := key.AsString()
		if !hclsyntax.ValidIdentifier(name) {
			return cty.UnknownVal(cty.String), kit.CallError("invalid input: object key: " + name + " - must be a valid identifier")
		}
		file.Body().SetAttributeValue(name, val)
	}
	return cty.StringVal(string(file.Bytes())), nil
}

// encodeExpr writes a value as an expression in the language.
func encodeExpr(v cty.Value) (cty.Value, *providers.FunctionError) {
	if !v.IsWhollyKnown() {
		return cty.UnknownVal(cty.String), kit.CallError("input is not wholly known")
	}
	file := hclwrite.NewEmptyFile()
	file.Body().AppendUnstructuredTokens(hclwrite.TokensForValue(v))
	return cty.StringVal(string(file.Bytes())), nil
}
