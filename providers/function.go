package providers

import (
	"context"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Bind turns the provider-defined function name of p, declared by f,
// into a cty function the engine can put in an evaluation scope as
// provider::NAME::FUNC. cty enforces the declaration before the provider
// is called: a null argument is an error unless the parameter allows it,
// an unknown one makes the result unknown unless the parameter allows
// it, and marks are taken off the arguments and put on the result. A
// FunctionError that blames an argument becomes an argument error, so
// the diagnostic points at that argument.
func (f Function) Bind(ctx context.Context, p Interface, name string) function.Function {
	param := func(fp FunctionParameter) function.Parameter {
		return function.Parameter{
			Name:             fp.Name,
			Description:      fp.Description,
			Type:             fp.Type,
			AllowNull:        fp.AllowNullValue,
			AllowUnknown:     fp.AllowUnknownValues,
			AllowDynamicType: true,
		}
	}
	spec := &function.Spec{
		Description: f.Summary,
		Params:      make([]function.Parameter, len(f.Parameters)),
		Type:        function.StaticReturnType(f.ReturnType),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			resp := p.CallFunction(ctx, CallFunctionRequest{Name: name, Arguments: args})
			if resp.Err != nil {
				if resp.Err.Argument != nil && *resp.Err.Argument >= 0 && *resp.Err.Argument < len(args) {
					return cty.UnknownVal(retType), function.NewArgErrorf(*resp.Err.Argument, "%s", resp.Err.Text)
				}
				return cty.UnknownVal(retType), resp.Err
			}
			return resp.Result, nil
		},
	}
	for i, fp := range f.Parameters {
		spec.Params[i] = param(fp)
	}
	if f.VariadicParameter != nil {
		vp := param(*f.VariadicParameter)
		spec.VarParam = &vp
	}
	return function.New(spec)
}
