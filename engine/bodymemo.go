package engine

import (
	"reflect"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
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

	once    sync.Once
	content *hcl.BodyContent
	diags   hcl.Diagnostics
}

func (b *memoBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	b.once.Do(func() { b.content, b.diags = b.Body.Content(schema) })
	// Callers append to the diagnostics: give each its own slice.
	return b.content, append(hcl.Diagnostics(nil), b.diags...)
}
