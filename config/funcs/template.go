package funcs

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// templateSourceName names templatestring's source in error messages.
const templateSourceName = "<template string>"

var templateVarsParam = function.Parameter{Name: "vars", Type: cty.DynamicPseudoType}

// makeTemplateFileFunc renders a template file. The result type is
// whatever the template produces: a template that is one interpolation,
// like "${list}", returns that value unconverted.
func makeTemplateFileFunc(r fileReader, inner map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Renders the template file at path with the given variables.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}, templateVarsParam},
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			src, err := r.read(p, fmt.Sprintf("%q", p))
			if err != nil {
				return cty.NilVal, err
			}
			return renderTemplate(src, p, args[1], inner)
		},
	})
}

// makeTemplateStringFunc renders a template given as a string.
func makeTemplateStringFunc(inner map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Renders the given template string with the given variables.",
		Params:      []function.Parameter{{Name: "template", Type: cty.String}, templateVarsParam},
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return renderTemplate([]byte(args[0].AsString()), templateSourceName, args[1], inner)
		},
	})
}

func renderTemplate(src []byte, filename string, vars cty.Value, funcs map[string]function.Function) (cty.Value, error) {
	ty := vars.Type()
	if !(ty.IsMapType() || ty.IsObjectType()) {
		return cty.NilVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}
	variables := make(map[string]cty.Value, vars.LengthInt())
	for it := vars.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		if !hclsyntax.ValidIdentifier(name) {
			return cty.NilVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", name)
		}
		variables[name] = v
	}

	expr, diags := hclsyntax.ParseTemplate(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	for _, traversal := range expr.Variables() {
		root := traversal.RootName()
		if _, ok := variables[root]; !ok {
			return cty.NilVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", root, traversal.SourceRange())
		}
	}
	val, diags := expr.Value(&hcl.EvalContext{Variables: variables, Functions: funcs})
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	return val, nil
}

// makeNoRecursionFunc stands in for the template functions inside a
// template, where calling them again could recurse without end.
func makeNoRecursionFunc(name string, params int) function.Function {
	ps := make([]function.Parameter, params)
	for i := range ps {
		ps[i] = function.Parameter{
			Name:             fmt.Sprintf("arg%d", i),
			Type:             cty.DynamicPseudoType,
			AllowUnknown:     true,
			AllowNull:        true,
			AllowDynamicType: true,
			AllowMarked:      true,
		}
	}
	err := errors.New("cannot recursively call " + name + " from inside a template")
	return function.New(&function.Spec{
		Description: "Not available inside templates.",
		Params:      ps,
		Type: func([]cty.Value) (cty.Type, error) {
			return cty.NilType, err
		},
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.NilVal, err
		},
	})
}
