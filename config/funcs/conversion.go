package funcs

import (
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// makeToFunc builds tostring, tonumber, tobool, tolist, toset and tomap.
// Null converts to a typed null; unknown to a typed unknown. Marks on the
// argument, including ones deep inside collections, stay where they are.
func makeToFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Description: "Converts the value to " + want.FriendlyNameForConstraint() + ".",
		Params: []function.Parameter{{
			Name:             "v",
			Type:             cty.DynamicPseudoType,
			AllowNull:        true,
			AllowUnknown:     true,
			AllowDynamicType: true,
			AllowMarked:      true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			got := args[0].Type()
			if got.Equals(want) {
				return want, nil
			}
			if convert.GetConversionUnsafe(got, want) == nil {
				switch {
				case got.IsTupleType() && want.IsTupleType():
					return cty.NilType, function.NewArgErrorf(0, "incompatible tuple type for conversion: %s", convert.MismatchMessage(got, want))
				case got.IsObjectType() && want.IsObjectType():
					return cty.NilType, function.NewArgErrorf(0, "incompatible object type for conversion: %s", convert.MismatchMessage(got, want))
				}
				return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			}
			// Converting an unknown of the argument's type tells us the
			// concrete result type (tolist(["a"]) is list(string)).
			if probe, err := convert.Convert(cty.UnknownVal(got), want); err == nil {
				return probe.Type(), nil
			}
			return want, nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			ret, err := convert.Convert(args[0], retType)
			if err == nil {
				return ret, nil
			}
			val, valMarks := args[0].UnmarkDeep()
			got := val.Type()
			what := "string"
			if got == cty.String && val.IsKnown() && !val.IsNull() {
				what = strconv.Quote(val.AsString())
			}
			switch {
			case hasMark(valMarks, SensitiveMark):
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			case got == cty.String && want == cty.Bool:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to bool; only the strings "true" or "false" are allowed`, what)
			case got == cty.String && want == cty.Number:
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert %s to number; given string must be a decimal representation of a number", what)
			}
			return cty.NilVal, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
		},
	})
}

func hasMark(marks cty.ValueMarks, mark any) bool {
	_, ok := marks[mark]
	return ok
}

// markableValueParam takes any value as it is: null, unknown or marked.
var markableValueParam = function.Parameter{
	Name:             "value",
	Type:             cty.DynamicPseudoType,
	AllowNull:        true,
	AllowUnknown:     true,
	AllowDynamicType: true,
	AllowMarked:      true,
}

func typeOfValue(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil }

var sensitiveFunc = function.New(&function.Spec{
	Description: "Returns the value marked as sensitive.",
	Params:      []function.Parameter{markableValueParam},
	Type:        typeOfValue,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return args[0].Mark(SensitiveMark), nil
	},
})

// nonsensitiveFunc removes the sensitive mark from the value itself. Like
// OpenTofu since 1.7 it accepts values that were not sensitive. Marks on
// nested elements are left alone.
var nonsensitiveFunc = function.New(&function.Spec{
	Description: "Returns the value with its sensitive mark removed.",
	Params:      []function.Parameter{markableValueParam},
	Type:        typeOfValue,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		val, marks := args[0].Unmark()
		delete(marks, SensitiveMark)
		return val.WithMarks(marks), nil
	},
})

// isSensitiveFunc looks only at the value itself, not inside it: a map
// with one sensitive element is not itself sensitive.
var isSensitiveFunc = function.New(&function.Spec{
	Description:  "Reports whether the value is marked as sensitive.",
	Params:       []function.Parameter{markableValueParam},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.BoolVal(args[0].HasMark(SensitiveMark)), nil
	},
})
