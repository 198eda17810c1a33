package views

import (
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// calledFunction is the function a diagnostic raised by a function call
// is about: the name it was called by and its declaration.
type calledFunction struct {
	calledAs string
	fn       function.Function
}

// calledFunctionOf finds the function whose call raised d. As OpenTofu,
// it is looked up only in the diagnostic's own evaluation context (not its
// parents'), so a call inside a for expression, whose context is a child,
// is not described.
func calledFunctionOf(d *hcl.Diagnostic) *calledFunction {
	if d.Expression == nil || d.EvalContext == nil {
		return nil
	}
	extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d)
	if !ok || extra.CalledFunctionName() == "" {
		return nil
	}
	fn, ok := d.EvalContext.Functions[extra.CalledFunctionName()]
	if !ok {
		return nil
	}
	return &calledFunction{calledAs: extra.CalledFunctionName(), fn: fn}
}

// callLine is "NAME(param, param, variadic...)", which the human view
// shows as "while calling ...".
func (c *calledFunction) callLine() string {
	var names []string
	for _, p := range c.fn.Params() {
		names = append(names, p.Name)
	}
	if p := c.fn.VarParam(); p != nil {
		names = append(names, p.Name+"...")
	}
	return c.calledAs + "(" + strings.Join(names, ", ") + ")"
}

// functionSignatureJSON is a function's signature in the JSON UI's
// function_call: the name without a provider prefix, the parameters'
// names and types, and the return type for arguments of the parameters'
// types (dynamic when that cannot be worked out).
type functionSignatureJSON struct {
	Name          string              `json:"name"`
	Params        []functionParamJSON `json:"params"`
	VariadicParam *functionParamJSON  `json:"variadic_param,omitempty"`
	ReturnType    json.RawMessage     `json:"return_type"`
}

type functionParamJSON struct {
	Name string          `json:"name"`
	Type json.RawMessage `json:"type"`
}

func (c *calledFunction) json() *DiagnosticFunctionCall {
	name := c.calledAs
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	sig := functionSignatureJSON{Name: name, Params: []functionParamJSON{}}
	var argTypes []cty.Type
	for _, p := range c.fn.Params() {
		sig.Params = append(sig.Params, functionParamJSON{Name: p.Name, Type: typeJSON(p.Type)})
		argTypes = append(argTypes, p.Type)
	}
	if p := c.fn.VarParam(); p != nil {
		sig.VariadicParam = &functionParamJSON{Name: p.Name, Type: typeJSON(p.Type)}
		argTypes = append(argTypes, p.Type)
	}
	ret, err := c.fn.ReturnType(argTypes)
	if err != nil {
		ret = cty.DynamicPseudoType
	}
	sig.ReturnType = typeJSON(ret)
	return &DiagnosticFunctionCall{CalledAs: c.calledAs, Signature: sig}
}

func typeJSON(t cty.Type) json.RawMessage {
	raw, err := t.MarshalJSON()
	if err != nil {
		return json.RawMessage(`"dynamic"`)
	}
	return raw
}
