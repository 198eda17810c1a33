package applying

import (
	"context"
	"sort"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/phase"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/state"
	"github.com/zclconf/go-cty/cty"
)

// visitDestroy performs a resource's deletes and forgets.
func (w *applyWalker) visitDestroy(ctx context.Context, resKey string) hcl.Diagnostics {
	n := w.cg.Nodes[resKey]
	if n != nil {
		ctx = providercall.WithResource(ctx, n.Addr)
	}
	var todo []*plan.ResourceInstanceChange
	for _, c := range w.ag.ByNode[resKey] {
		switch c.Action {
		case plan.Delete, plan.Forget, plan.DeleteThenCreate, plan.CreateThenDelete:
			todo = append(todo, c)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	sort.SliceStable(todo, func(i, j int) bool { return graph.ChangeLess(todo[i], todo[j]) })
	p, sch, diags := w.nodeProvider(ctx, n, todo[0])
	if diags.HasErrors() {
		return diags
	}
	return append(diags, w.forEachChange(ctx, todo, func(c *plan.ResourceInstanceChange) hcl.Diagnostics {
		return w.destroyInstance(ctx, n, p, sch, c)
	})...)
}

func (w *applyWalker) destroyInstance(ctx context.Context, n *graph.Node, p providers.Interface, sch *providers.Schema, c *plan.ResourceInstanceChange) hcl.Diagnostics {
	deposed := c.DeposedKey
	if c.Action == plan.CreateThenDelete {
		w.mu.Lock()
		key, ok := w.deposedKeys[c.ChangeKey()]
		w.mu.Unlock()
		if !ok {
			return nil // the create half failed and restored the old object
		}
		deposed = key
	}
	if c.Action == plan.Forget {
		if w.env.Hooks != nil {
			w.env.Hooks.PreApply(c.Addr, deposed, phase.HookForget, "", "")
		}
		w.record(c.Addr, deposed, nil, c.Provider)
		if w.env.Hooks != nil {
			w.env.Hooks.PostApply(c.Addr, deposed, phase.HookForget, "", "", 0, false)
		}
		return nil
	}
	if c.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
		w.record(c.Addr, deposed, nil, c.Provider)
		return nil
	}
	prior := c.Before
	var private []byte
	w.mu.Lock()
	if ri := w.working.ResourceInstance(c.Addr); ri != nil {
		obj := ri.Current
		if deposed != state.NotDeposed {
			obj = ri.Deposed[deposed]
		}
		if obj != nil {
			private = obj.Private
			if v, err := eval.DecodeObject(ctx, nil, sch, c.Addr.Resource.Resource.Type, obj); err == nil {
				prior = v
			}
		}
	}
	w.mu.Unlock()
	idKey, idVal := eval.ObjectID(prior)
	if w.env.Hooks != nil {
		w.env.Hooks.PreApply(c.Addr, deposed, phase.HookDelete, idKey, idVal)
	}
	start := time.Now()
	resp := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: prior, PlannedState: cty.NullVal(eval.ImpliedType(sch.Block)),
		Config: cty.NullVal(eval.ImpliedType(sch.Block)), PlannedPrivate: private,
	})
	var body hcl.Body
	if n != nil && n.Res != nil {
		body = n.Res.Config
	}
	diags := providercall.Diags(resp.Diagnostics, body)
	if !diags.HasErrors() && resp.NewState != cty.NilVal && !resp.NewState.IsNull() {
		diags = append(diags, eval.Errorf(nil, "Provider returned invalid result object after apply",
			"After deleting %s, provider %q returned a non-null object. This is a bug in the provider.", c.Addr, c.Provider.Provider))
	}
	if w.env.Hooks != nil {
		w.env.Hooks.PostApply(c.Addr, deposed, phase.HookDelete, "", "", time.Since(start), diags.HasErrors())
	}
	if diags.HasErrors() {
		return diags
	}
	w.record(c.Addr, deposed, nil, c.Provider)
	return nil
}
