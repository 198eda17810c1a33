package eval

import (
	"fmt"
	"reflect"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// A resource block's body is decoded once per instance with the same
// schema. Splitting the body into attributes and blocks does not depend
// on the evaluation context, so it is done once per body and spec, and
// bodies without dynamic blocks skip dynblock's expansion wrapper.

// bodyMemoKey names a body decoded with one spec (by identity).
type bodyMemoKey struct {
	body hcl.Body
	spec uintptr
}

// bodyMemos holds the memoised bodies of one run.
type bodyMemos struct {
	m sync.Map // bodyMemoKey -> *memoBody
}

// prepare returns the body to give hcldec and whether dynamic blocks must
// still be expanded in it first.
func (bm *bodyMemos) prepare(body hcl.Body, spec hcldec.Spec) (hcl.Body, bool) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return body, true
	}
	rv := reflect.ValueOf(spec)
	if rv.Kind() != reflect.Map && rv.Kind() != reflect.Pointer {
		return body, hasDynamicBlocks(sb)
	}
	key := bodyMemoKey{body: body, spec: rv.Pointer()}
	if m, ok := bm.m.Load(key); ok {
		mb := m.(*memoBody)
		if mb.dynamic {
			return body, true
		}
		return mb, false
	}
	mb := &memoBody{Body: body, dynamic: hasDynamicBlocks(sb)}
	mb.attrs, mb.schema = attributeSpecs(spec)
	actual, _ := bm.m.LoadOrStore(key, mb)
	mb = actual.(*memoBody)
	if mb.dynamic {
		return body, true
	}
	return mb, false
}

func hasDynamicBlocks(b *hclsyntax.Body) bool {
	for _, blk := range b.Blocks {
		if blk.Type == "dynamic" || hasDynamicBlocks(blk.Body) {
			return true
		}
	}
	return false
}

// memoBody answers Content from the first call's result. It is only used
// with one spec, so every call passes an equal schema.
type memoBody struct {
	hcl.Body
	dynamic bool

	// attrs is set when the spec is an object of attributes only (no
	// blocks), the common resource body: decodeAttributes then does
	// hcldec's work without rebuilding the body schema per instance.
	attrs  []namedAttrSpec
	schema *hcl.BodySchema

	once    sync.Once
	content *hcl.BodyContent
	diags   hcl.Diagnostics
}

func (b *memoBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	b.once.Do(func() { b.content, b.diags = b.Body.Content(schema) })
	// Callers append to the diagnostics: give each its own slice.
	return b.content, append(hcl.Diagnostics(nil), b.diags...)
}

// namedAttrSpec is one attribute of an attribute-only spec: an AttrSpec,
// or the literal value of a computed-only attribute (spec nil).
type namedAttrSpec struct {
	key     string
	spec    *hcldec.AttrSpec
	literal cty.Value
}

// attributeSpecs lists the attributes of an ObjectSpec whose children are
// all AttrSpecs or LiteralSpecs (sorted by key), with the body schema hcldec would build
// for it; nil when the spec has any other shape.
func attributeSpecs(spec hcldec.Spec) ([]namedAttrSpec, *hcl.BodySchema) {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok {
		return nil, nil
	}
	attrs := make([]namedAttrSpec, 0, len(obj))
	for k, child := range obj {
		switch c := child.(type) {
		case *hcldec.AttrSpec:
			attrs = append(attrs, namedAttrSpec{key: k, spec: c})
		case *hcldec.LiteralSpec:
			attrs = append(attrs, namedAttrSpec{key: k, literal: c.Value})
		default:
			return nil, nil
		}
	}
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].key < attrs[j].key })
	return attrs, hcldec.ImpliedSchema(spec)
}

// decodeAttributes is hcldec.Decode(b, spec, ctx) for an attribute-only
// spec (b.attrs set): the same values and diagnostics, attribute by
// attribute as hcldec's AttrSpec decodes them.
func (b *memoBody) decodeAttributes(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	content, diags := b.Content(b.schema)
	vals := make(map[string]cty.Value, len(b.attrs))
	for _, a := range b.attrs {
		if a.spec == nil {
			vals[a.key] = a.literal
			continue
		}
		v, d := decodeAttrSpec(a.spec, content, ctx)
		vals[a.key] = v
		diags = append(diags, d...)
	}
	return cty.ObjectVal(vals), diags
}

func decodeAttrSpec(s *hcldec.AttrSpec, content *hcl.BodyContent, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	attr, exists := content.Attributes[s.Name]
	if !exists {
		// A missing required attribute was reported by Content.
		return cty.NullVal(s.Type.WithoutOptionalAttributesDeep()), nil
	}
	if decodeFn := customdecode.CustomExpressionDecoderForType(s.Type); decodeFn != nil {
		v, diags := decodeFn(attr.Expr, ctx)
		if v == cty.NilVal {
			v = cty.UnknownVal(s.Type.WithoutOptionalAttributesDeep())
		}
		return v, diags
	}
	val, diags := evalAttrExpr(attr.Expr, ctx)
	conv, err := convert.Convert(val, s.Type)
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Incorrect attribute value type",
			Detail:      fmt.Sprintf("Inappropriate value for attribute %q: %s.", s.Name, err.Error()),
			Subject:     attr.Expr.Range().Ptr(),
			Context:     hcl.RangeBetween(attr.NameRange, attr.Expr.Range()).Ptr(),
			Expression:  attr.Expr,
			EvalContext: ctx,
		})
		return cty.UnknownVal(s.Type.WithoutOptionalAttributesDeep()), diags
	}
	return conv, diags
}
