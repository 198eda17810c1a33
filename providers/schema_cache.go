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
	return cachedFor(&blockDerivedCache, b, func() *blockDerived {
		// Nested blocks are cached under their own keys, so this recursion
		// does each block once.
		d := &blockDerived{impliedType: b.buildImpliedType()}
		d.emptyValue = b.buildEmptyValue()
		return d
	})
}

func objectTypeOf(o *Object) cty.Type {
	return cachedFor(&objectTypeCache, o, o.buildImpliedType)
}

// cachedFor is what cache holds for p, built on first need. When two
// goroutines build at once, both get the one stored first.
func cachedFor[P, V any](cache *sync.Map, p *P, build func() V) V {
	key := weak.Make(p)
	if v, ok := cache.Load(key); ok {
		return v.(V)
	}
	v := build()
	// One boxed key serves both the map and the cleanup, and the cleanup
	// is a plain function rather than a closure, so a miss allocates
	// nothing for them beyond the map entry and the cleanup record.
	boxed := any(key)
	if got, loaded := cache.LoadOrStore(boxed, v); loaded {
		return got.(V)
	}
	runtime.AddCleanup(p, dropCacheEntry, cacheEntry{cache, boxed})
	return v
}

// cacheEntry is where cachedFor stored a value.
type cacheEntry struct {
	cache *sync.Map
	key   any
}

func dropCacheEntry(e cacheEntry) { e.cache.Delete(e.key) }

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
