package providers

import (
	"runtime"
	"sync"
	"weak"

	"github.com/zclconf/go-cty/cty"
)

// The engine asks for a schema's implied type and empty value once or
// more per resource instance; building them allocates a fresh object type
// (maps and all) each time. They are built once per schema block instead
// and shared: cty types and values are immutable, and a provider does not
// change a schema after returning it.
//
// Keys are weak so a schema that is dropped takes its entries with it.

// blockDerived is what is computed once from one Block.
type blockDerived struct {
	impliedType cty.Type
	emptyValue  cty.Value
}

var (
	blockDerivedCache sync.Map // weak.Pointer[Block] -> *blockDerived
	objectTypeCache   sync.Map // weak.Pointer[Object] -> cty.Type
)

func derivedOf(b *Block) *blockDerived {
	key := weak.Make(b)
	if d, ok := blockDerivedCache.Load(key); ok {
		return d.(*blockDerived)
	}
	// Nested blocks are cached under their own keys, so this recursion
	// does each block once.
	d := &blockDerived{impliedType: b.buildImpliedType()}
	d.emptyValue = b.buildEmptyValue()
	if got, loaded := blockDerivedCache.LoadOrStore(key, d); loaded {
		return got.(*blockDerived)
	}
	runtime.AddCleanup(b, func(k weak.Pointer[Block]) { blockDerivedCache.Delete(k) }, key)
	return d
}

func objectTypeOf(o *Object) cty.Type {
	key := weak.Make(o)
	if t, ok := objectTypeCache.Load(key); ok {
		return t.(cty.Type)
	}
	t := o.buildImpliedType()
	if got, loaded := objectTypeCache.LoadOrStore(key, t); loaded {
		return got.(cty.Type)
	}
	runtime.AddCleanup(o, func(k weak.Pointer[Object]) { objectTypeCache.Delete(k) }, key)
	return t
}

// EmptyValue is the value of b when nothing is configured and nothing is
// known: every attribute null, list/set/map blocks empty, single blocks
// null and group blocks recursively empty. Like ImpliedType it is built
// once per block.
func (b *Block) EmptyValue() cty.Value {
	if b == nil {
		return cty.EmptyObjectVal
	}
	return derivedOf(b).emptyValue
}

func (b *Block) buildEmptyValue() cty.Value {
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(a.ImpliedType())
	}
	for name, nb := range b.BlockTypes {
		vals[name] = nb.EmptyValue()
	}
	return cty.ObjectVal(vals)
}
