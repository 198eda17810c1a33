package objchange

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// The walks run once or more per resource instance, so what they need
// from a schema (names in a stable order, implied types, flags) is
// worked out once per schema block and kept in a compiled form. The
// compiled form holds no pointer back to the providers.Block, so the
// weak key lets a dropped schema take its entry with it. A schema must
// not change after its first use, as providers.Block.ImpliedType requires.

// compiledBlock is a providers.Block ready for walking.
type compiledBlock struct {
	impliedType cty.Type
	emptyValue  cty.Value
	attrs       []compiledAttr   // sorted by name
	blocks      []compiledNested // sorted by name
	// width is len(attrs)+len(blocks): a value with that many attributes
	// has exactly the schema's attributes.
	width int
}

// compiledAttr is one attribute of a block or nested-type object.
type compiledAttr struct {
	name                                    string
	ty                                      cty.Type
	computed, optional, required, sensitive bool
	nested                                  *compiledObject // nil for plain attributes
}

// compiledObject is the body of a nested-type attribute.
type compiledObject struct {
	nesting providers.NestingMode
	attrs   []compiledAttr // sorted by name
}

// compiledNested is one nested block type of a block.
type compiledNested struct {
	name    string
	nesting providers.NestingMode
	block   *compiledBlock
}

var compiledBlocks sync.Map // weak.Pointer[providers.Block] -> *compiledBlock

// compile returns the compiled form of schema, building it on first use.
func compile(schema *providers.Block) *compiledBlock {
	if schema == nil {
		return compileBlock(nil)
	}
	key := weak.Make(schema)
	if cb, ok := compiledBlocks.Load(key); ok {
		return cb.(*compiledBlock)
	}
	cb := compileBlock(schema)
	if got, loaded := compiledBlocks.LoadOrStore(key, cb); loaded {
		return got.(*compiledBlock)
	}
	runtime.AddCleanup(schema, func(k weak.Pointer[providers.Block]) { compiledBlocks.Delete(k) }, key)
	return cb
}

func compileBlock(b *providers.Block) *compiledBlock {
	cb := &compiledBlock{impliedType: b.ImpliedType(), emptyValue: b.EmptyValue()}
	if b == nil {
		return cb
	}
	cb.attrs = compileAttrs(b.Attributes)
	for name, nb := range b.BlockTypes {
		cb.blocks = append(cb.blocks, compiledNested{name: name, nesting: nb.Nesting, block: compileBlock(&nb.Block)})
	}
	slices.SortFunc(cb.blocks, func(a, b compiledNested) int { return strings.Compare(a.name, b.name) })
	cb.width = len(cb.attrs) + len(cb.blocks)
	return cb
}

func compileAttrs(attrs map[string]*providers.Attribute) []compiledAttr {
	out := make([]compiledAttr, 0, len(attrs))
	for name, a := range attrs {
		ca := compiledAttr{
			name: name, ty: a.ImpliedType(),
			computed: a.Computed, optional: a.Optional, required: a.Required, sensitive: a.Sensitive,
		}
		if a.NestedType != nil {
			ca.nested = &compiledObject{nesting: a.NestedType.Nesting, attrs: compileAttrs(a.NestedType.Attributes)}
		}
		out = append(out, ca)
	}
	slices.SortFunc(out, func(a, b compiledAttr) int { return strings.Compare(a.name, b.name) })
	return out
}

// hasExactly reports whether v is an unmarked object value with exactly
// width attributes, so that it is rebuilt unchanged from the attributes
// a schema walk reads.
func hasExactly(v cty.Value, width int) bool {
	return !v.IsMarked() && v.Type().IsObjectType() && len(v.Type().AttributeTypes()) == width
}
