package providers_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/providertest"
)

func TestFunctionBind(t *testing.T) {
	one := 1
	p := providertest.New(nil, nil)
	p.CallFunctionFn = func(_ context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
		if len(req.Arguments) > 1 && req.Arguments[1].RawEquals(cty.StringVal("bad")) {
			return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: "bad second argument", Argument: &one}}
		}
		if req.Arguments[0].IsNull() {
			return providers.CallFunctionResponse{Result: cty.StringVal("null!")}
		}
		s := req.Arguments[0].AsString()
		for _, a := range req.Arguments[1:] {
			s += a.AsString()
		}
		return providers.CallFunctionResponse{Result: cty.StringVal(s)}
	}
	decl := providers.Function{
		Parameters:        []providers.FunctionParameter{{Name: "s", Type: cty.String}},
		VariadicParameter: &providers.FunctionParameter{Name: "more", Type: cty.String},
		ReturnType:        cty.String,
	}
	nullable := decl
	nullable.Parameters = []providers.FunctionParameter{{Name: "s", Type: cty.String, AllowNullValue: true}}
	tests := []struct {
		name      string
		decl      providers.Function
		args      []cty.Value
		want      cty.Value
		wantErr   string
		wantArg   int // the argument an error blames, -1 for none
		wantCalls int
	}{
		{"known", decl, []cty.Value{cty.StringVal("a"), cty.StringVal("b")}, cty.StringVal("ab"), "", -1, 1},
		{"marked", decl, []cty.Value{cty.StringVal("a").Mark("sensitive")}, cty.StringVal("a").Mark("sensitive"), "", -1, 1},
		{"unknown skips the call", decl, []cty.Value{cty.UnknownVal(cty.String)}, cty.UnknownVal(cty.String), "", -1, 0},
		{"null refused", decl, []cty.Value{cty.NullVal(cty.String)}, cty.NilVal, "must not be null", 0, 0},
		{"null allowed", nullable, []cty.Value{cty.NullVal(cty.String)}, cty.StringVal("null!"), "", -1, 1},
		{"provider blames an argument", decl, []cty.Value{cty.StringVal("a"), cty.StringVal("bad")}, cty.NilVal, "bad second argument", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(p.CallsOf("CallFunction"))
			got, err := tt.decl.Bind(context.Background(), p, "f").Call(tt.args)
			if calls := len(p.CallsOf("CallFunction")) - before; calls != tt.wantCalls {
				t.Errorf("provider called %d times, want %d", calls, tt.wantCalls)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				var argErr function.ArgError
				if ae, ok := err.(function.ArgError); ok {
					argErr = ae
				} else {
					argErr.Index = -1
				}
				if argErr.Index != tt.wantArg {
					t.Errorf("error blames argument %d, want %d", argErr.Index, tt.wantArg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
