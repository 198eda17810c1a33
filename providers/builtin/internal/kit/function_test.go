package kit

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// TestCallFunction: calls are dispatched by name, and arguments the
// declaration does not allow are refused before the implementation sees
// them, naming the argument at fault.
func TestCallFunction(t *testing.T) {
	b := &Base{Name: "demo", Functions: map[string]*Function{
		"upper": {
			Decl: providers.Function{
				Parameters: []providers.FunctionParameter{{Name: "s", Type: cty.String}},
				ReturnType: cty.String,
			},
			Call: func(args []cty.Value) (cty.Value, *providers.FunctionError) {
				if args[0].AsString() == "" {
					return cty.NilVal, ArgError(0, "empty")
				}
				return cty.StringVal("UP:" + args[0].AsString()), nil
			},
		},
	}}
	zero := 0
	tests := []struct {
		name    string
		fn      string
		args    []cty.Value
		want    cty.Value
		wantErr *providers.FunctionError
	}{
		{"call", "upper", []cty.Value{cty.StringVal("a")}, cty.StringVal("UP:a"), nil},
		{"function's error", "upper", []cty.Value{cty.StringVal("")}, cty.UnknownVal(cty.String), &providers.FunctionError{Text: "empty", Argument: &zero}},
		{"no such function", "lower", []cty.Value{cty.StringVal("a")}, cty.NilVal, &providers.FunctionError{Text: `the demo provider defines no function "lower"`}},
		{"too many arguments", "upper", []cty.Value{cty.StringVal("a"), cty.StringVal("b")}, cty.NilVal, &providers.FunctionError{Text: `function "upper" takes 1 arguments, got 2`}},
		{"null", "upper", []cty.Value{cty.NullVal(cty.String)}, cty.NilVal, &providers.FunctionError{Text: `argument "s" must not be null`, Argument: &zero}},
		{"unknown", "upper", []cty.Value{cty.UnknownVal(cty.String)}, cty.NilVal, &providers.FunctionError{Text: `argument "s" must be known`, Argument: &zero}},
		{"wrong type", "upper", []cty.Value{cty.True}, cty.NilVal, &providers.FunctionError{Text: `argument "s" must be string`, Argument: &zero}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := b.CallFunction(context.Background(), providers.CallFunctionRequest{Name: tt.fn, Arguments: tt.args})
			if diff := cmp.Diff(tt.wantErr, resp.Err); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if !resp.Result.RawEquals(tt.want) {
				t.Errorf("result = %#v, want %#v", resp.Result, tt.want)
			}
		})
	}
	if got := b.GetFunctions(context.Background()).Functions; len(got) != 1 || got["upper"].ReturnType != cty.String {
		t.Errorf("GetFunctions = %#v", got)
	}
}
