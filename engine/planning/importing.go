package planning

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/graph"
	"github.com/tenetplan/tenet/engine/phase"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/providercall"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/state"
)

// import blocks (semantics §8.2): when the target resource is planned, each
// import block naming it is expanded and evaluated in the root module; an
// instance that has configuration but no current object is imported
// (ImportResourceState, then ReadResource) and the object becomes its
// prior, so the ordinary decision gives no-op, update or replace.

// importTarget is one import block instance after evaluation.
type importTarget struct {
	addr addrs.AbsResourceInstance
	id   string
	rng  hcl.Range
}

// resolveTraversal turns an address expression whose index keys may be
// expressions (terraform_data.a[each.key].output) into a static traversal,
// evaluating each key with evalKey.
func resolveTraversal(expr hcl.Expression, evalKey func(hcl.Expression) (cty.Value, hcl.Diagnostics)) (hcl.Traversal, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return e.Traversal, nil
	case *hclsyntax.RelativeTraversalExpr:
		src, diags := resolveTraversal(e.Source, evalKey)
		if diags.HasErrors() {
			return nil, diags
		}
		out := make(hcl.Traversal, 0, len(src)+len(e.Traversal))
		return append(append(out, src...), e.Traversal...), diags
	case *hclsyntax.IndexExpr:
		src, diags := resolveTraversal(e.Collection, evalKey)
		if diags.HasErrors() {
			return nil, diags
		}
		k, d := evalKey(e.Key)
		diags = append(diags, d...)
		if d.HasErrors() {
			return nil, diags
		}
		out := make(hcl.Traversal, 0, len(src)+1)
		return append(append(out, src...), hcl.TraverseIndex{Key: k, SrcRange: e.Key.Range()}), diags
	}
	t, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{eval.Errorf(expr.Range().Ptr(), "Invalid address",
			"An address is required here: a resource, optionally with an index and attributes, such as aws_instance.web[0].id.")}
	}
	return t, nil
}

// instanceKey checks an evaluated index key: known, not null, not sensitive,
// a string or a number.
func instanceKey(v cty.Value, rng hcl.Range, summary string) (cty.Value, hcl.Diagnostics) {
	bad := func(why string) (cty.Value, hcl.Diagnostics) {
		return cty.NilVal, hcl.Diagnostics{eval.Errorf(rng.Ptr(), summary, "The index key %s. Use a known string or number.", why)}
	}
	switch {
	case v.IsMarked():
		return bad("is sensitive")
	case !v.IsKnown():
		return bad("cannot be determined until apply")
	case v.IsNull():
		return bad("is null")
	case v.Type() != cty.String && v.Type() != cty.Number:
		return bad("is of type " + v.Type().FriendlyName())
	}
	return v, nil
}

// importTargets evaluates the import blocks of a resource node.
func (w *planWalker) importTargets(n *graph.Node) ([]importTarget, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var out []importTarget
	for _, imp := range graph.ImportsFor(w.cfg, n.Addr) {
		reps := []eval.Repetition{{}}
		if imp.ForEach != nil {
			var d hcl.Diagnostics
			reps, d = w.importRepetitions(imp)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
		}
		for _, rep := range reps {
			s := &eval.Scope{Ev: w.ev, Mod: addrs.RootModuleInstance, Cfg: w.cfg.Root, Rep: rep}
			t, d := importTargetFor(s, imp)
			diags = append(diags, d...)
			if !d.HasErrors() {
				out = append(out, t)
			}
		}
	}
	seen := map[string]hcl.Range{}
	for _, t := range out {
		key := t.addr.String()
		if first, dup := seen[key]; dup {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicate import configuration for %q", key),
				Detail:   fmt.Sprintf("An import block for the resource %q was already declared at %s. A resource can have only one import block.", key, first),
				Subject:  t.rng.Ptr(),
			})
			continue
		}
		seen[key] = t.rng
	}
	return out, diags
}

// importRepetitions expands an import block's for_each: a map or object
// (each.key is the key), a set (key and value are the element) or a tuple
// or list (each.key is the index).
func (w *planWalker) importRepetitions(imp *config.Import) ([]eval.Repetition, hcl.Diagnostics) {
	s := &eval.Scope{Ev: w.ev, Mod: addrs.RootModuleInstance, Cfg: w.cfg.Root}
	v, diags := s.EvalExpr(imp.ForEach, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return nil, diags
	}
	invalid := func(detail string) ([]eval.Repetition, hcl.Diagnostics) {
		return nil, append(diags, eval.Errorf(imp.ForEach.Range().Ptr(), "Invalid for_each argument", "%s", detail))
	}
	switch {
	case v.IsMarked() || v.ContainsMarked():
		return invalid("Sensitive values cannot be used as for_each arguments of an import block.")
	case !v.IsWhollyKnown():
		return invalid("The for_each value of an import block depends on values that cannot be determined until apply.")
	case v.IsNull():
		return invalid("The given for_each argument value is null. A map, set or tuple is required.")
	}
	ty := v.Type()
	var reps []eval.Repetition
	switch {
	case ty.IsMapType() || ty.IsObjectType() || ty.IsListType() || ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			reps = append(reps, eval.Repetition{Kind: 'e', Key: k, Value: ev})
		}
	case ty.IsSetType():
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			reps = append(reps, eval.Repetition{Kind: 'e', Key: ev, Value: ev})
		}
	default:
		return invalid(fmt.Sprintf("The for_each argument of an import block must be a map, set or tuple, not %s.", ty.FriendlyName()))
	}
	return reps, diags
}

// importTargetFor evaluates the id and the `to` address of one import.
func importTargetFor(s *eval.Scope, imp *config.Import) (importTarget, hcl.Diagnostics) {
	t := importTarget{rng: imp.DeclRange}
	idVal, diags := s.EvalExpr(imp.ID, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return t, diags
	}
	invalidID := func(why string) (importTarget, hcl.Diagnostics) {
		return t, append(diags, eval.Errorf(imp.ID.Range().Ptr(), "Invalid import id argument", "The import ID %s. It must be a known, non-null string.", why))
	}
	switch {
	case idVal.IsMarked() || idVal.ContainsMarked():
		return invalidID("is sensitive")
	case !idVal.IsKnown():
		return invalidID("cannot be determined until apply")
	case idVal.IsNull():
		return invalidID("is null")
	}
	sv, err := eval.ConvertValue(idVal, cty.String)
	if err != nil {
		return invalidID("is not a string")
	}
	t.id = sv.AsString()
	if imp.ToAddr != nil {
		t.addr = *imp.ToAddr
		return t, diags
	}
	trav, d := resolveTraversal(imp.To, func(e hcl.Expression) (cty.Value, hcl.Diagnostics) {
		v, d := s.EvalExpr(e, cty.DynamicPseudoType)
		if d.HasErrors() {
			return cty.NilVal, d
		}
		return instanceKey(v, e.Range(), "Import block 'to' address contains an invalid key")
	})
	diags = append(diags, d...)
	if d.HasErrors() {
		return t, diags
	}
	addr, d := addrs.ParseAbsResourceInstance(trav)
	diags = append(diags, d...)
	t.addr = addr
	return t, diags
}

// importInstances runs the import blocks that name instances of the node
// and sets the imported objects as their priors.
func (w *planWalker) importInstances(ctx context.Context, rn *resourceNode, items []*instPlan) hcl.Diagnostics {
	n := rn.n
	if n.Kind != graph.NodeResource || rn.mode != addrs.ManagedResourceMode || w.opts.Mode != plan.NormalMode || len(w.cfg.Root.Import) == 0 {
		return nil
	}
	targets, diags := w.importTargets(n)
	if len(targets) == 0 || diags.HasErrors() {
		return diags
	}
	byAddr := make(map[string]*instPlan, len(items))
	for _, it := range items {
		if it.hasConfig && it.deposed == state.NotDeposed {
			byAddr[it.addr.String()] = it
		}
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].addr.Less(targets[j].addr) })
	for _, t := range targets {
		it := byAddr[t.addr.String()]
		if it == nil {
			if !w.targetsInstance(n, t.addr) {
				continue
			}
			diags = append(diags, eval.Errorf(t.rng.Ptr(), "Configuration for import target does not exist",
				"The configuration for the given import target %s does not exist. All target instances must have an associated configuration to be imported.", t.addr))
			continue
		}
		if it.priorSrc != nil {
			continue // already managed: the import block has nothing to do
		}
		diags = append(diags, w.importInstance(ctx, rn, it, t)...)
	}
	return diags
}

// importInstance imports and reads one object and records it as prior.
func (w *planWalker) importInstance(ctx context.Context, rn *resourceNode, it *instPlan, t importTarget) hcl.Diagnostics {
	var rng *hcl.Range // the import block; the import command has none
	if t.rng.Filename != "" {
		rng = t.rng.Ptr()
	}
	if h, ok := w.env.Hooks.(phase.ImportHooks); ok {
		h.PrepareImport(it.addr, t.id)
	}
	resp := rn.provider.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: rn.typ, ID: t.id})
	diags := providercall.Diags(resp.Diagnostics, nil, "")
	if resp.Diagnostics.HasErrors() {
		return diags
	}
	switch len(resp.ImportedResources) {
	case 0:
		return append(diags, eval.Errorf(rng, "Import returned no resources", "While attempting to import with ID %q, the provider returned no instance states.", t.id))
	case 1:
	default:
		return append(diags, eval.Errorf(rng, "Multiple import states not supported", "While attempting to import with ID %q, the provider returned multiple resource instance states. This is not currently supported.", t.id))
	}
	imported := resp.ImportedResources[0]
	if imported.State == cty.NilVal || imported.State.IsNull() {
		return append(diags, eval.Errorf(rng, "Import returned null resource", "While attempting to import with ID %q, the provider returned an instance with no state.", t.id))
	}
	// As OpenTofu, the refresh names the imported object by its own id,
	// which need not be the import ID.
	idKey, idVal := eval.ObjectID(imported.State)
	if w.env.Hooks != nil {
		w.env.Hooks.PreRefresh(it.addr, state.NotDeposed, idKey, idVal)
	}
	read := rn.provider.ReadResource(ctx, providers.ReadResourceRequest{TypeName: rn.typ, PriorState: imported.State, Private: imported.Private})
	diags = append(diags, providercall.Diags(read.Diagnostics, nil, "")...)
	if read.Diagnostics.HasErrors() {
		return diags
	}
	if read.NewState == cty.NilVal || read.NewState.IsNull() {
		// Sourceless, as in OpenTofu: the ID was fine, the object is gone.
		return append(diags, eval.Errorf(nil, "Cannot import non-existent remote object",
			"While attempting to import an existing object to %q, the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, or use \"tenet apply\" to create a new remote object for this resource.", it.addr))
	}
	if w.env.Hooks != nil {
		w.env.Hooks.PostRefresh(it.addr, state.NotDeposed, idKey, idVal)
	}
	v := read.NewState
	sens := eval.SchemaSensitivePaths(rn.schema.Block, v)
	obj, err := eval.EncodeObject(eval.MarkPaths(v, sens), rn.schema, nil, false, read.Private, state.ObjectReady)
	if err != nil {
		return append(diags, eval.Errorf(rng, "Provider produced invalid object", "Provider %q returned an object for %s that does not match the schema: %s.", rn.provAddr.Provider, it.addr, err))
	}
	w.res.setPrior(it.addr, state.NotDeposed, obj, rn.provAddr, nil)
	it.priorSrc = obj
	it.importID = t.id
	return diags
}

// Import brings one existing remote object under management, as the
// `import ADDR ID` command does: the resource must be configured and the
// instance not yet in state. It plans with a synthetic import block
// targeted at addr and returns the refreshed state holding the imported
// object; no other change is made.
func Import(ctx context.Context, env phase.Env, cfg *config.Config, prevRun *state.State, addr addrs.AbsResourceInstance, id string, opts Opts) (*state.State, hcl.Diagnostics) {
	if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid import address",
			Detail: fmt.Sprintf("%s is a data resource; only managed resources can be imported.", addr)}}
	}
	if !graph.ConfigHasResource(cfg, addr.Config()) {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Resource not declared",
			Detail: fmt.Sprintf("A managed resource %q %q has not been declared in %s. Add a resource block for it before importing, so that tenet knows how to manage the object.",
				addr.Resource.Resource.Type, addr.Resource.Resource.Name, graph.ModuleDisplay(addr.Config().Module))}}
	}
	if prevRun != nil {
		if ri := prevRun.ResourceInstance(addr); ri != nil && ri.Current != nil {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Resource already managed by tenet",
				Detail: fmt.Sprintf("tenet is already managing a remote object for %s. To import to this address you must first remove the existing object from the state.", addr)}}
		}
	}
	root := *cfg.Root
	root.Import = append(append([]*config.Import(nil), cfg.Root.Import...), &config.Import{
		To:         hcl.StaticExpr(cty.StringVal(addr.String()), hcl.Range{}),
		ToAddr:     &addr,
		ToResource: addr.Config(),
		ID:         hcl.StaticExpr(cty.StringVal(id), hcl.Range{}),
	})
	withImport := *cfg
	withImport.Root = &root
	opts.Mode = plan.NormalMode
	opts.Targets = []addrs.Targetable{addr}
	opts.Excludes = nil
	p, diags := Plan(ctx, env, &withImport, prevRun, opts)
	var kept hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Summary == "Resource targeting is in effect" {
			continue // the targeting is ours, not the user's
		}
		kept = append(kept, d)
	}
	if p == nil || kept.HasErrors() {
		return nil, kept
	}
	imported := false
	for _, c := range p.Changes {
		if c.Importing != nil && c.Addr.Equal(addr) {
			imported = true
		}
	}
	if !imported {
		return nil, append(kept, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Import target not planned",
			Detail: fmt.Sprintf("The configuration does not declare the instance %s (check its count or for_each), so nothing was imported.", addr)})
	}
	return p.PriorState, kept
}
