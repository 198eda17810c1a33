package nodes

import (
	"context"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/provisioners"
	"github.com/tenetplan/tenet/provisioners/builtin"
)

// specs holds one decoder spec per provisioner or connection schema, so
// that the evaluator's body memo (keyed by the spec's identity) serves
// every instance.
var specs sync.Map // *providers.Block -> hcldec.Spec

// SpecOf is the decoder spec of a provisioner's or connection's schema.
func SpecOf(b *providers.Block) hcldec.Spec {
	if s, ok := specs.Load(b); ok {
		return s.(hcldec.Spec)
	}
	s, _ := specs.LoadOrStore(b, b.DecoderSpec())
	return s.(hcldec.Spec)
}

// ValidateProvisioners checks a resource's provisioner blocks, as
// validate and every plan do before anything runs: each one's arguments
// against its type's schema and the type's own checks, and its
// connection (the resource's laid under its own) against every argument
// a connection may have. self is the resource's object, unknown here. As
// OpenTofu, it stops after the first provisioner with an error, counting
// errors the resource's own body had (priorErrors).
func ValidateProvisioners(ctx context.Context, s *eval.Scope, res *config.Resource, self cty.Value, priorErrors bool) hcl.Diagnostics {
	if res == nil || res.Managed == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, pc := range res.Managed.Provisioners {
		p, ok := builtin.Lookup(pc.Type)
		if !ok {
			continue // refused before any walk (engine's facade, or the configuration)
		}
		v, d := s.EvalSelfBody(pc.Config, SpecOf(p.Schema()), self)
		diags = append(diags, d...)
		conn := cty.NullVal(provisioners.ConnectionSchema.ImpliedType())
		var connDiags hcl.Diagnostics
		if body := connectionFor(res, pc); body != nil {
			var cv cty.Value
			cv, connDiags = s.EvalSelfBody(body, SpecOf(provisioners.ConnectionSchema), self)
			if !connDiags.HasErrors() {
				conn, _ = cv.UnmarkDeep()
			}
		}
		if v != cty.NilVal && !d.HasErrors() {
			uv, _ := v.UnmarkDeep()
			resp := p.ValidateConfig(ctx, provisioners.ValidateConfigRequest{Config: uv, Connection: conn})
			diags = append(diags, providercall.Diags(resp.Diagnostics, pc.Config, "")...)
		}
		diags = append(diags, connDiags...)
		if priorErrors || diags.HasErrors() {
			return diags
		}
	}
	return diags
}

// connectionFor is the connection body validate checks for a provisioner:
// its own block laid over the resource's, or the resource's alone.
func connectionFor(res *config.Resource, pc *config.Provisioner) hcl.Body {
	if pc.Connection != nil {
		return config.ConnectionBody(res.Managed.Connection, pc.Connection)
	}
	return res.Managed.Connection
}
