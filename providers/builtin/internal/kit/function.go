package kit

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// Function is one provider-defined function: its declaration, as
// GetFunctions reports it, and its implementation. The caller (see
// providers.Function.Bind) enforces the declaration first, so Call sees
// null and unknown arguments only where a parameter allows them.
type Function struct {
	Decl providers.Function
	Call func(args []cty.Value) (cty.Value, *providers.FunctionError)
}

// ArgError blames argument i for text, so the diagnostic points at it.
func ArgError(i int, text string) *providers.FunctionError {
	return &providers.FunctionError{Text: text, Argument: &i}
}

// CallError is an error of the whole call, blaming no argument.
func CallError(text string) *providers.FunctionError {
	return &providers.FunctionError{Text: text}
}

// checkArgs refuses a call that does not match the declaration, which
// only a caller bypassing Bind can make; the implementations may then
// index their arguments freely.
func checkArgs(name string, decl providers.Function, args []cty.Value) *providers.FunctionError {
	if len(args) < len(decl.Parameters) || (decl.VariadicParameter == nil && len(args) > len(decl.Parameters)) {
		return CallError(fmt.Sprintf("function %q takes %d arguments, got %d", name, len(decl.Parameters), len(args)))
	}
	for i, arg := range args {
		p := decl.VariadicParameter
		if i < len(decl.Parameters) {
			p = &decl.Parameters[i]
		}
		if arg.IsNull() && !p.AllowNullValue {
			return ArgError(i, fmt.Sprintf("argument %q must not be null", p.Name))
		}
		if !arg.IsKnown() && !p.AllowUnknownValues {
			return ArgError(i, fmt.Sprintf("argument %q must be known", p.Name))
		}
		if !p.Type.Equals(cty.DynamicPseudoType) && !arg.Type().Equals(p.Type) && !arg.Type().Equals(cty.DynamicPseudoType) {
			return ArgError(i, fmt.Sprintf("argument %q must be %s", p.Name, p.Type.FriendlyName()))
		}
	}
	return nil
}
