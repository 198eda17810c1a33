package providers

import (
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// DecoderSpec returns the hcldec specification that decodes a
// configuration body for b into a value of b.ImpliedType().
//
// Computed-only attributes cannot be set in configuration: they are not
// arguments of the body (writing one is an "Unsupported argument" error)
// yet appear as null in the decoded object so its type still matches
// ImpliedType. Specs are immutable, so callers decoding many bodies of the
// same schema should build the spec once and reuse it.
func (b *Block) DecoderSpec() hcldec.Spec {
	spec := hcldec.ObjectSpec{}
	if b == nil {
		return spec
	}
	for name, attr := range b.Attributes {
		if attr.computedOnly() {
			spec[name] = &hcldec.LiteralSpec{Value: cty.NullVal(attr.ImpliedType())}
			continue
		}
		spec[name] = &hcldec.AttrSpec{
			Name:     name,
			Type:     attr.constraintType(),
			Required: attr.Required,
		}
	}
	for name, nb := range b.BlockTypes {
		spec[name] = nb.decoderSpec(name)
	}
	return spec
}

func (nb *NestedBlock) decoderSpec(name string) hcldec.Spec {
	inner := nb.Block.DecoderSpec()
	dynamic := nb.Block.ImpliedType().HasDynamicTypes()
	switch nb.Nesting {
	case NestingSingle:
		return &hcldec.BlockSpec{TypeName: name, Nested: inner, Required: nb.MinItems > 0}
	case NestingGroup:
		// An absent group block still yields an object, with every
		// attribute null, so references into it never see a null block.
		return &hcldec.DefaultSpec{
			Primary: &hcldec.BlockSpec{TypeName: name, Nested: inner},
			Default: &hcldec.LiteralSpec{Value: nb.Block.EmptyValue()},
		}
	case NestingList:
		if dynamic {
			return &hcldec.BlockTupleSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
		}
		return &hcldec.BlockListSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingSet:
		return &hcldec.BlockSetSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingMap:
		labels := []string{"key"}
		if dynamic {
			return &hcldec.BlockObjectSpec{TypeName: name, LabelNames: labels, Nested: inner}
		}
		return &hcldec.BlockMapSpec{TypeName: name, LabelNames: labels, Nested: inner}
	}
	// An invalid nesting mode is a provider bug; decode nothing rather
	// than guess, keeping the object's type intact.
	return &hcldec.LiteralSpec{Value: cty.NullVal(nb.impliedType())}
}

// computedOnly reports whether only the provider may choose the value.
func (a *Attribute) computedOnly() bool {
	return a.Computed && !a.Optional && !a.Required
}

// constraintType is the type configuration values are converted to. For
// nested-type attributes every non-required nested attribute is optional,
// so users may omit it and get null.
func (a *Attribute) constraintType() cty.Type {
	if a.NestedType == nil {
		return a.Type
	}
	return a.NestedType.constraintType()
}

func (o *Object) constraintType() cty.Type {
	attrs := make(map[string]cty.Type, len(o.Attributes))
	var optional []string
	for name, a := range o.Attributes {
		attrs[name] = a.constraintType()
		if !a.Required {
			optional = append(optional, name)
		}
	}
	return o.wrap(cty.ObjectWithOptionalAttrs(attrs, optional))
}

// EmptyValue is the value of a nested block type with no blocks written.
func (nb *NestedBlock) EmptyValue() cty.Value {
	ty := nb.impliedType()
	switch nb.Nesting {
	case NestingGroup:
		return nb.Block.EmptyValue()
	case NestingList:
		if ty.IsTupleType() || ty == cty.DynamicPseudoType {
			return cty.EmptyTupleVal
		}
		return cty.ListValEmpty(ty.ElementType())
	case NestingSet:
		return cty.SetValEmpty(ty.ElementType())
	case NestingMap:
		if ty.IsObjectType() || ty == cty.DynamicPseudoType {
			return cty.EmptyObjectVal
		}
		return cty.MapValEmpty(ty.ElementType())
	}
	return cty.NullVal(ty)
}
