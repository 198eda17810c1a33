package nodes

import (
	"context"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
)

// Range is the source range diagnostics about node n point at.
func Range(n *graph.Node) *hcl.Range {
	if n.Res != nil {
		return n.Res.DeclRange.Ptr()
	}
	return nil
}

// ConfigureProvider evaluates a provider block and configures it, once.
func ConfigureProvider(ctx context.Context, ps *providercall.Set, ev *eval.Evaluator, cfg *config.Config, addr addrs.AbsProviderConfig, pc *config.Provider, mu interface {
	Lock()
	Unlock()
}, onces map[string]*Once) (providers.Interface, hcl.Diagnostics) {
	key := addr.String()
	mu.Lock()
	o, ok := onces[key]
	if !ok {
		o = &Once{}
		onces[key] = o
	}
	mu.Unlock()
	o.once.Do(func() {
		sch, err := ps.Schema(ctx, addr.Provider)
		if err != nil {
			o.diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Provider not available", Detail: err.Error() + "."}}
			return
		}
		spec := ps.Spec(addr.Provider, 0, "provider", sch.Provider.Block)
		body := hcl.EmptyBody()
		var declMod *config.Module
		if pc != nil {
			body = pc.Config
			declMod = cfg.Descendant(addr.Module)
		}
		var val cty.Value
		var diags hcl.Diagnostics
		if declMod != nil {
			refs, d := config.ReferencesInBody(body)
			diags = append(diags, d...)
			insts := ev.Exp.ModuleInstances(declMod.Path)
			mi := addrs.RootModuleInstance
			if len(insts) > 0 {
				mi = insts[0]
			}
			s := &eval.Scope{Ev: ev, Mod: mi, Cfg: declMod}
			val, d = s.EvalBody(body, spec, refs)
			diags = append(diags, d...)
		} else {
			val, diags = hcldec.Decode(body, spec, nil)
		}
		if diags.HasErrors() {
			o.diags = diags
			return
		}
		val, _ = val.UnmarkDeep()
		inst, d := ps.Configure(ctx, addr, val)
		o.inst, o.diags = inst, append(diags, d...)
	})
	return o.inst, o.diags
}

// Once configures a provider exactly once and remembers the outcome.
type Once struct {
	once  sync.Once
	inst  providers.Interface
	diags hcl.Diagnostics
}
