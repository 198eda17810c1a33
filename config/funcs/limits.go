package funcs

import (
	"fmt"
	"math/big"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// MaxCollectionElements bounds the collection setproduct() may build: its
// result grows as the product of its arguments' lengths, so a few modest
// lists would otherwise take all memory and kill the process instead of
// reporting an error at the call. (range() has its own bound of 1024.)
const MaxCollectionElements = 1_000_000

var setProductFunc = bounded(stdlib.SetProductFunc, func(args []cty.Value) error {
	total := big.NewInt(1)
	for _, a := range args {
		if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
			continue
		}
		total.Mul(total, big.NewInt(int64(a.LengthInt())))
	}
	if total.Cmp(big.NewInt(MaxCollectionElements)) > 0 {
		return fmt.Errorf("the product would have %s elements, more than the %d tenet builds; use fewer or smaller collections", total, MaxCollectionElements)
	}
	return nil
})

// bounded wraps fn so that check can refuse its arguments before fn runs.
func bounded(fn function.Function, check func(args []cty.Value) error) function.Function {
	return function.New(&function.Spec{
		Description: fn.Description(),
		Params:      fn.Params(),
		VarParam:    fn.VarParam(),
		Type:        fn.ReturnTypeForValues,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if err := check(args); err != nil {
				return cty.NilVal, err
			}
			return fn.Call(args)
		},
	})
}
