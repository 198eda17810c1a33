package providers

import (
	"github.com/zclconf/go-cty/cty"
)

// Schema is a versioned description of one resource type, data source or
// provider configuration.
type Schema struct {
	Version int64
	Block   *Block
}

// Block is a configuration block: attributes and nested block types.
type Block struct {
	Attributes  map[string]*Attribute
	BlockTypes  map[string]*NestedBlock
	Description string
	Deprecated  bool
}

// Attribute describes one attribute. Exactly one of Type and NestedType is
// set. Required, Optional and Computed follow the provider protocol:
// Optional+Computed means the user may set it or leave it to the provider.
type Attribute struct {
	Type        cty.Type
	NestedType  *Object
	Description string
	Required    bool
	Optional    bool
	Computed    bool
	Sensitive   bool
	Deprecated  bool
	// WriteOnly attributes are sent in configuration but never stored:
	// the provider returns them null in every state.
	WriteOnly bool
}

// Object is the body of a nested-type attribute (protocol 6).
type Object struct {
	Attributes map[string]*Attribute
	Nesting    NestingMode
}

// NestingMode says how many times a nested block (or nested-type
// attribute) may appear and how its values are collected.
type NestingMode int

const (
	NestingInvalid NestingMode = iota
	NestingSingle              // at most one block; null when absent
	NestingGroup               // exactly one; absent means all attributes null
	NestingList
	NestingSet
	NestingMap // labelled blocks
)

// NestedBlock is a block type nested inside a Block.
type NestedBlock struct {
	Block
	Nesting  NestingMode
	MinItems int
	MaxItems int
}

// ImpliedType is the cty object type of values conforming to b. It is
// computed once per block and then shared, so b must not change after
// its first use.
func (b *Block) ImpliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	return derivedOf(b).impliedType
}

func (b *Block) buildImpliedType() cty.Type {
	attrs := make(map[string]cty.Type, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		attrs[name] = a.ImpliedType()
	}
	for name, nb := range b.BlockTypes {
		if ty := nb.impliedType(); ty != cty.NilType {
			attrs[name] = ty
		}
	}
	return cty.Object(attrs)
}

// impliedType is the type nb contributes to its parent's object type.
func (nb *NestedBlock) impliedType() cty.Type {
	inner := nb.Block.ImpliedType()
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		return inner
	case NestingList:
		if inner.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.List(inner)
	case NestingSet:
		return cty.Set(inner)
	case NestingMap:
		if inner.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(inner)
	}
	// An invalid nesting mode is a provider bug; the block contributes no
	// attribute to its parent's type.
	return cty.NilType
}

// ImpliedType is the cty type of the attribute's values.
func (a *Attribute) ImpliedType() cty.Type {
	if a.NestedType == nil {
		return a.Type
	}
	return a.NestedType.ImpliedType()
}

// ImpliedType is the cty type of a nested-type attribute's value,
// computed once per object (which must not change after its first use).
func (o *Object) ImpliedType() cty.Type {
	return objectTypeOf(o)
}

func (o *Object) buildImpliedType() cty.Type {
	attrs := make(map[string]cty.Type, len(o.Attributes))
	for name, a := range o.Attributes {
		attrs[name] = a.ImpliedType()
	}
	return o.wrap(cty.Object(attrs))
}

// wrap is the type of the nested attribute whose elements are inner: a
// list, set or map of them, or inner itself for a single object.
func (o *Object) wrap(inner cty.Type) cty.Type {
	switch o.Nesting {
	case NestingList:
		return cty.List(inner)
	case NestingSet:
		return cty.Set(inner)
	case NestingMap:
		return cty.Map(inner)
	}
	return inner
}

// AttributeByPath finds the attribute a path points to, stepping through
// nested blocks and nested types; nil when the path leads elsewhere.
func (b *Block) AttributeByPath(path cty.Path) *Attribute {
	cur := b
	for i := 0; i < len(path); i++ {
		ga, ok := path[i].(cty.GetAttrStep)
		if !ok {
			return nil
		}
		if a, ok := cur.Attributes[ga.Name]; ok {
			return a.attributeByPath(path[i+1:])
		}
		nb, ok := cur.BlockTypes[ga.Name]
		if !ok {
			return nil
		}
		cur = &nb.Block
		if nb.Nesting == NestingList || nb.Nesting == NestingSet || nb.Nesting == NestingMap {
			if i+1 < len(path) {
				if _, ok := path[i+1].(cty.IndexStep); ok {
					i++
				}
			}
		}
	}
	return nil
}

func (a *Attribute) attributeByPath(rest cty.Path) *Attribute {
	if len(rest) == 0 {
		return a
	}
	if a.NestedType == nil {
		return nil
	}
	if a.NestedType.Nesting != NestingSingle && a.NestedType.Nesting != NestingGroup {
		if _, ok := rest[0].(cty.IndexStep); ok {
			rest = rest[1:]
		}
	}
	if len(rest) == 0 {
		return nil
	}
	ga, ok := rest[0].(cty.GetAttrStep)
	if !ok {
		return nil
	}
	inner, ok := a.NestedType.Attributes[ga.Name]
	if !ok {
		return nil
	}
	return inner.attributeByPath(rest[1:])
}
