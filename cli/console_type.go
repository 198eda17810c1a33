package cli

import (
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The console has a function of its own, as OpenTofu's has: type(value)
// shows the type of a value. Its result is a value of the type "type",
// which the console prints as the type it holds and which no other
// function or operator accepts.

// typeType is the type of what type() returns.
var typeType = cty.CapsuleWithOps("type", reflect.TypeOf(cty.Type{}), &cty.CapsuleOps{
	TypeGoString: func(reflect.Type) string { return "type" },
})

// consoleFunctions changes the console's function table from a plan's:
// type() is added, and plantimestamp() is not there, as in OpenTofu's
// console.
func consoleFunctions() map[string]function.Function {
	return map[string]function.Function{
		"type": function.New(&function.Spec{
			Params: []function.Parameter{{
				Name:             "value",
				Type:             cty.DynamicPseudoType,
				AllowDynamicType: true,
				AllowUnknown:     true,
				AllowNull:        true,
				AllowMarked:      true,
			}},
			Type: function.StaticReturnType(typeType),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				t := args[0].Type()
				return cty.CapsuleVal(typeType, &t), nil
			},
		}),
		"plantimestamp": {},
	}
}

// consoleTypeResult turns what the console evaluated into the text it
// prints when type() is involved: the type it holds for a type() result,
// OpenTofu's error when type() was used inside a larger expression.
// ok is false when type() plays no part.
func consoleTypeResult(line string, v cty.Value) (text string, ok bool, diags hcl.Diagnostics) {
	if v.Type().Equals(typeType) && v.IsKnown() && !v.IsNull() {
		return formatType(*v.EncapsulatedValue().(*cty.Type), 0), true, nil
	}
	if !callsType(line) {
		return "", false, nil
	}
	return "", true, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid use of type function",
		Detail:   `The console-only "type" function cannot be used as part of an expression.`,
	}}
}

// callsType reports whether the expression line calls type() anywhere.
func callsType(line string) bool {
	found := false
	if e, diags := hclsyntax.ParseExpression([]byte(line), consoleInput, hcl.InitialPos); !diags.HasErrors() {
		hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
			if c, ok := n.(*hclsyntax.FunctionCallExpr); ok && c.Name == "type" {
				found = true
			}
			return nil
		})
	}
	return found
}

// formatType writes t as OpenTofu's console shows types: element and
// attribute types of collections and structures on lines of their own,
// indented four spaces a level.
func formatType(t cty.Type, depth int) string {
	inner := strings.Repeat("    ", depth+1)
	outer := strings.Repeat("    ", depth)
	switch {
	case t == cty.DynamicPseudoType:
		return "dynamic"
	case t.Equals(typeType):
		return "type"
	case t.IsPrimitiveType():
		return t.FriendlyName()
	case t.IsListType(), t.IsSetType(), t.IsMapType():
		kind := map[bool]string{t.IsListType(): "list", t.IsSetType(): "set", t.IsMapType(): "map"}[true]
		el := t.ElementType()
		if el.IsPrimitiveType() || el == cty.DynamicPseudoType {
			return kind + "(" + formatType(el, depth) + ")"
		}
		return kind + "(\n" + inner + formatType(el, depth+1) + ",\n" + outer + ")"
	case t.IsTupleType():
		els := t.TupleElementTypes()
		if len(els) == 0 {
			return "tuple([])"
		}
		var b strings.Builder
		b.WriteString("tuple([\n")
		for _, el := range els {
			b.WriteString(inner + formatType(el, depth+1) + ",\n")
		}
		return b.String() + outer + "])"
	case t.IsObjectType():
		attrs := t.AttributeTypes()
		if len(attrs) == 0 {
			return "object({})"
		}
		names := make([]string, 0, len(attrs))
		for n := range attrs {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		b.WriteString("object({\n")
		for _, n := range names {
			b.WriteString(inner + n + ": " + formatType(attrs[n], depth+1) + ",\n")
		}
		return b.String() + outer + "})"
	}
	return t.FriendlyName()
}
