package applying

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/nodes"
	"github.com/tenetplan/tenet/engine/phase"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/provisioners"
	"github.com/tenetplan/tenet/provisioners/builtin"
)

// suppressedOutput replaces every line of a provisioner whose
// configuration holds a sensitive value: the output could show it.
const suppressedOutput = "(output suppressed due to sensitive value in config)"

// provisioning is one object's provisioners of one kind, creation-time or
// destroy-time, in declaration order.
type provisioning struct {
	addr  addrs.AbsResourceInstance
	scope *eval.Scope
	// conn is the resource's connection block, the base of each
	// provisioner's own; nil when there is none.
	conn  hcl.Body
	provs []*config.Provisioner
	self  cty.Value
}

// createProvisioners are the creation-time provisioners of a resource.
func createProvisioners(res *config.Resource) []*config.Provisioner {
	return provisionersWhen(res, "create")
}

func provisionersWhen(res *config.Resource, when string) []*config.Provisioner {
	if res == nil || res.Managed == nil {
		return nil
	}
	var out []*config.Provisioner
	for _, p := range res.Managed.Provisioners {
		if p.When == when {
			out = append(out, p)
		}
	}
	return out
}

// provision runs the provisioners one after another. A failing one with
// on_failure = fail stops the rest and its errors are returned; with
// continue its errors are dropped and the next one runs. ctx is the
// apply's scheduling context: an interrupt cancels it, which stops the
// provisioner in flight as OpenTofu's first interrupt does.
func (w *applyWalker) provision(ctx context.Context, pr provisioning) hcl.Diagnostics {
	var diags hcl.Diagnostics
	hooks, _ := w.env.Hooks.(phase.ProvisionHooks)
	for _, pc := range pr.provs {
		p, ok := builtin.Lookup(pc.Type)
		if !ok {
			return append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provisioner type not supported",
				Detail:   fmt.Sprintf("tenet does not offer a %q provisioner, so %s cannot be provisioned with it. tenet runs the local-exec, file and remote-exec provisioners.", pc.Type, pr.addr),
				Subject:  pc.TypeRange.Ptr(),
			})
		}
		cfgVal, d := pr.scope.EvalSelfBody(pc.Config, nodes.SpecOf(p.Schema()), pr.self)
		diags = append(diags, d...)
		if d.HasErrors() {
			return diags
		}
		conn := cty.NullVal(provisioners.ConnectionSchema.ImpliedType())
		if body := config.ConnectionBody(pr.conn, pc.Connection); body != nil {
			conn, d = pr.scope.EvalSelfBody(body, nodes.SpecOf(provisioners.ConnectionSchema), pr.self)
			diags = append(diags, d...)
			if d.HasErrors() {
				return diags
			}
		}
		if !cfgVal.IsWhollyKnown() || !conn.IsWhollyKnown() {
			return append(diags, eval.Errorf(pc.DeclRange.Ptr(), "Configuration contains unknown value",
				"The configuration of the %q provisioner of %s still has unknown values at apply time. This is a bug in tenet.", pc.Type, pr.addr))
		}
		if hooks != nil {
			hooks.ProvisionStart(pr.addr, pc.Type)
		}
		cfgVal, marks := cfgVal.UnmarkDeep()
		conn, _ = conn.UnmarkDeep()
		output := func(line string) {
			if hooks != nil {
				hooks.ProvisionOutput(pr.addr, pc.Type, line)
			}
		}
		if _, sensitive := marks[eval.SensitiveMark]; sensitive {
			output = func(string) {
				if hooks != nil {
					hooks.ProvisionOutput(pr.addr, pc.Type, suppressedOutput)
				}
			}
		}
		resp := p.Provision(ctx, provisioners.ProvisionRequest{Config: cfgVal, Connection: conn, Output: output})
		runDiags := providercall.Diags(resp.Diagnostics, pc.Config, pr.addr.String())
		if hooks != nil {
			hooks.ProvisionEnd(pr.addr, pc.Type, runDiags.HasErrors())
		}
		if pc.OnFailure == "continue" {
			if !runDiags.HasErrors() {
				diags = append(diags, runDiags...) // its warnings
			}
			continue
		}
		diags = append(diags, runDiags...)
		if runDiags.HasErrors() {
			return diags
		}
	}
	return diags
}

// destroyProvisioning gives the destroy-time provisioners of an
// instance's current object: its resource block's, or, when the block is
// gone from the configuration, those of the removed block that destroys
// it. ok is false when there are none. They see only self, the instance's
// key, path and terraform (the configuration allows no more).
func (w *applyWalker) destroyProvisioning(n *graph.Node, c *plan.ResourceInstanceChange, self cty.Value) (provisioning, bool) {
	if c.Action != action.Delete && c.Action != action.DeleteThenCreate {
		return provisioning{}, false
	}
	pr := provisioning{addr: c.Addr, self: self, scope: &eval.Scope{Ev: w.ev, Mod: c.Addr.Module, Rep: eval.KeyRepetition(c.Addr.Resource.Key)}}
	if n != nil && n.Res != nil {
		if n.Res.Managed == nil {
			return provisioning{}, false
		}
		pr.scope.Cfg, pr.conn, pr.provs = n.Mod, n.Res.Managed.Connection, provisionersWhen(n.Res, "destroy")
		return pr, len(pr.provs) > 0
	}
	target := c.Addr.Config()
	for _, m := range w.cfg.Modules() {
		for _, rm := range m.Removed {
			r, ok := rm.From.ConfigResource()
			if !ok || !rm.Destroy || len(rm.Provisioners) == 0 {
				continue
			}
			abs := addrs.ConfigResource{Module: append(append(addrs.Module{}, m.Path...), r.Module...), Resource: r.Resource}
			if abs.String() == target.String() {
				pr.scope.Cfg, pr.provs = m, rm.Provisioners
				return pr, true
			}
		}
	}
	return provisioning{}, false
}
