package eval

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// KeyRepetition is the repetition an instance key alone gives: count.index
// for an int key, each.key (with each.value unknown) for a string key.
// Destroy-time provisioners evaluate with it, because each.value belongs to
// a configuration that may no longer hold the key.
func KeyRepetition(key addrs.InstanceKey) Repetition {
	switch k := key.(type) {
	case addrs.IntKey:
		return Repetition{Kind: 'c', index: int(k)}
	case addrs.StringKey:
		return Repetition{Kind: 'e', Key: cty.StringVal(string(k)), Value: cty.DynamicVal}
	}
	return Repetition{}
}

// EvalSelfBody decodes a body in which `self` is the given object, as
// the bodies of provisioners and connection blocks are.
func (s *Scope) EvalSelfBody(body hcl.Body, spec hcldec.Spec, self cty.Value) (cty.Value, hcl.Diagnostics) {
	refs, diags := BodyReferences(body, spec)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	withSelf := *s
	withSelf.selfAvailable = true
	ctx, marked, d := withSelf.evalContext(refs, true)
	diags = append(diags, d...)
	if d.HasErrors() {
		return cty.DynamicVal, diags
	}
	ctx.Variables["self"] = self
	v, d := s.decodeBody(ctx, body, spec)
	diags = append(diags, d...)
	if marked {
		var warnings hcl.Diagnostics
		v, warnings = extractDeprecatedWithBody(v, body)
		diags = append(diags, warnings...)
	}
	return v, diags
}

// UnknownRepetition is count.index or each.* of an instance not known
// yet (kind 'c', 'e' or 0), as validation evaluates a repeated block.
func UnknownRepetition(kind byte) Repetition {
	switch kind {
	case 'c':
		return Repetition{Kind: 'c'}
	case 'e':
		return Repetition{Kind: 'e', Key: cty.UnknownVal(cty.String), Value: cty.DynamicVal}
	}
	return Repetition{}
}
