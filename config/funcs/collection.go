package funcs

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

func refineNotNull(b *cty.RefinementBuilder) *cty.RefinementBuilder {
	return b.NotNull()
}

// stringFunc is a function of one string (the parameter named param) to
// a string that is never null: impl's result, or its error.
func stringFunc(description, param string, impl func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Description:  description,
		Params:       []function.Parameter{{Name: param, Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			out, err := impl(args[0].AsString())
			if err != nil {
				return cty.NilVal, err
			}
			return cty.StringVal(out), nil
		},
	})
}

// twoStringFunc is a function of two strings (the parameters named first
// and second) whose result, of type ret, is never null.
func twoStringFunc(description, first, second string, ret cty.Type, impl function.ImplFunc) function.Function {
	return function.New(&function.Spec{
		Description:  description,
		Params:       []function.Parameter{{Name: first, Type: cty.String}, {Name: second, Type: cty.String}},
		Type:         function.StaticReturnType(ret),
		RefineResult: refineNotNull,
		Impl:         impl,
	})
}

// cannotFail adapts a string function without errors to stringFunc.
func cannotFail(f func(string) string) func(string) (string, error) {
	return func(s string) (string, error) { return f(s), nil }
}

// lengthFunc counts characters of a string, elements of a collection or
// tuple, or attributes of an object. Tuples and objects have a known length
// even when their contents are not known, because the type says it.
var lengthFunc = function.New(&function.Spec{
	Description: "Returns the number of elements, attributes or characters in the given value.",
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty == cty.String, ty == cty.DynamicPseudoType,
			ty.IsCollectionType(), ty.IsTupleType(), ty.IsObjectType():
			return cty.Number, nil
		}
		return cty.NilType, function.NewArgErrorf(0, "argument must be a string, a collection type, or a structural type")
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull().NumberRangeLowerBound(cty.Zero, true)
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		val := args[0]
		ty := val.Type()
		switch {
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))), nil
		case ty == cty.String:
			return stdlib.Strlen(val)
		case ty.IsCollectionType():
			if !val.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			return val.Length(), nil
		}
		return cty.UnknownVal(cty.Number), nil
	},
})

// coalesceFunc returns the first argument that is neither null nor an empty
// string. An unknown before the winner makes the answer unknown.
var coalesceFunc = function.New(&function.Spec{
	Description: "Returns the first argument that is not null and not an empty string.",
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowDynamicType: true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, arg := range args {
			types[i] = arg.Type()
		}
		ty, _ := convert.UnifyUnsafe(types)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return ty, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, arg := range args {
			val, err := convert.Convert(arg, retType)
			if err != nil {
				return cty.UnknownVal(retType), errors.New("all arguments must have the same type")
			}
			if !val.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if val.IsNull() || (retType == cty.String && val.AsString() == "") {
				continue
			}
			return val, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// indexFunc finds the position of a value in a list or tuple.
var indexFunc = function.New(&function.Spec{
	Description: "Returns the index of the first element of the list equal to the given value.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if !(ty.IsListType() || ty.IsTupleType() || ty == cty.DynamicPseudoType) {
			return cty.NilType, function.NewArgErrorf(0, "argument must be a list or tuple")
		}
		return cty.Number, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if args[0].LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for it := args[0].ElementIterator(); it.Next(); {
			key, elem := it.Element()
			eq, err := stdlib.Equal(elem, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return key, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// oneFunc unwraps a collection of at most one element: the element itself,
// or null when it is empty.
var oneFunc = function.New(&function.Spec{
	Description: "Returns the only element of a collection, or null if it is empty.",
	Params: []function.Parameter{{
		Name:             "list",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.DynamicPseudoType, nil
		case ty.IsListType(), ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			elems := ty.TupleElementTypes()
			switch len(elems) {
			case 0:
				return cty.DynamicPseudoType, nil
			case 1:
				return elems[0], nil
			}
			return cty.NilType, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
		}
		return cty.NilType, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		val := args[0]
		if !val.Length().IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		switch val.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			it := val.ElementIterator()
			it.Next()
			_, elem := it.Element()
			return elem, nil
		}
		return cty.NilVal, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
})

// sumFunc adds up a collection of numbers.
var sumFunc = function.New(&function.Spec{
	Description: "Returns the total of the numbers in the given collection.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if !(ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty == cty.DynamicPseudoType) {
			return cty.NilType, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
		}
		return cty.Number, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if args[0].LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		total := new(big.Float)
		for it := args[0].ElementIterator(); it.Next(); {
			_, elem := it.Element()
			if !elem.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			num, err := convert.Convert(elem, cty.Number)
			if err != nil || num.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
			}
			total.Add(total, num.AsBigFloat())
		}
		return cty.NumberVal(total), nil
	},
})

// transposeFunc swaps keys and values of a map of lists of strings.
var transposeFunc = function.New(&function.Spec{
	Description:  "Swaps the keys and list values of a map of lists of strings.",
	Params:       []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:         function.StaticReturnType(cty.Map(cty.List(cty.String))),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		grouped := map[string][]cty.Value{}
		for it := args[0].ElementIterator(); it.Next(); {
			key, list := it.Element()
			if list.IsNull() {
				return cty.NilVal, errors.New("input must not contain null list")
			}
			for lit := list.ElementIterator(); lit.Next(); {
				_, v := lit.Element()
				if v.IsNull() {
					return cty.NilVal, errors.New("input list must not contain null string")
				}
				grouped[v.AsString()] = append(grouped[v.AsString()], key)
			}
		}
		if len(grouped) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		out := make(map[string]cty.Value, len(grouped))
		for k, keys := range grouped {
			out[k] = cty.ListVal(keys)
		}
		return cty.MapVal(out), nil
	},
})

// matchKeysFunc picks the elements of values whose corresponding element of
// keys occurs in searchset.
var matchKeysFunc = function.New(&function.Spec{
	Description: "Returns the elements of values whose corresponding key is in the search set.",
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		keyTy := args[1].Type().ElementType()
		searchTy := args[2].Type().ElementType()
		if ty, _ := convert.UnifyUnsafe([]cty.Type{keyTy, searchTy}); ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		values, keys, search := args[0], args[1], args[2]
		if values.LengthInt() != keys.LengthInt() {
			return cty.NilVal, errors.New("length of keys and values should be equal")
		}
		if !keys.IsWhollyKnown() || !search.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		var out []cty.Value
		searchElems := search.AsValueSlice()
		keyElems := keys.AsValueSlice()
		for i, value := range values.AsValueSlice() {
			for _, s := range searchElems {
				if eq, err := stdlib.Equal(keyElems[i], s); err == nil && eq.True() {
					out = append(out, value)
					break
				}
			}
		}
		if len(out) == 0 {
			return cty.ListValEmpty(retType.ElementType()), nil
		}
		return cty.ListVal(out), nil
	},
})

// allTrueFunc and anyTrueFunc reduce a list of bools. They scan in order and
// stop at the first element that decides the answer, so an unknown only
// matters when nothing before it has.
var allTrueFunc = function.New(&function.Spec{
	Description:  "Returns true if every element of the list is true (or the list is empty).",
	Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			if v.IsNull() || v.False() {
				return cty.False, nil
			}
		}
		return cty.True, nil
	},
})

var anyTrueFunc = function.New(&function.Spec{
	Description:  "Returns true if any element of the list is true.",
	Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		sawUnknown := false
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				sawUnknown = true
				continue
			}
			if !v.IsNull() && v.True() {
				return cty.True, nil
			}
		}
		if sawUnknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// lookupFunc reads one element of a map or attribute of an object, falling
// back to the optional default (which may be null). Marks on the map and
// the key carry over to the result.
var lookupFunc = function.New(&function.Spec{
	Description: "Returns the element of the map with the given key, or the default if there is none.",
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{
		Name:             "default",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowDynamicType: true,
		AllowMarked:      true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
		}
		hasDefault := len(args) == 3
		ty := args[0].Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.DynamicPseudoType, nil
		case ty.IsObjectType():
			key, _ := args[1].Unmark()
			if !key.IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			if ty.HasAttribute(key.AsString()) {
				return ty.AttributeType(key.AsString()), nil
			}
			if hasDefault {
				return args[2].Type(), nil
			}
			return cty.NilType, function.NewArgErrorf(0, "the given object has no attribute %q", key.AsString())
		case ty.IsMapType():
			if hasDefault {
				def, _ := args[2].UnmarkDeep()
				if _, err := convert.Convert(def, ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, collMarks := args[0].Unmark()
		key, keyMarks := args[1].Unmark()
		marks := []cty.ValueMarks{collMarks, keyMarks}
		if !coll.IsKnown() || !key.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(marks...), nil
		}
		name := key.AsString()
		ty := coll.Type()
		switch {
		case ty.IsObjectType() && ty.HasAttribute(name):
			return coll.GetAttr(name).WithMarks(marks...), nil
		case ty.IsMapType() && coll.HasIndex(key).True():
			return convert.Convert(coll.Index(key).WithMarks(marks...), retType)
		}
		if len(args) == 3 {
			return convert.Convert(args[2].WithMarks(marks...), retType)
		}
		what := strconv.Quote(name)
		if _, ok := keyMarks[SensitiveMark]; ok {
			what = "(sensitive value)"
		}
		return cty.NilVal, fmt.Errorf("lookup failed to find key %s", what)
	},
})
