package planning

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine/eval"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
)

// The "moves" stage: the rules decide how moved blocks and implied count
// moves read, in which order they run and what is wrong with them; this file
// gathers the facts, rebinds the state objects in that order and reports.

// moveStatement is one explicit moved block or implied count move.
type moveStatement struct {
	declModule addrs.Module // declaring module (root for implied moves)
	moved      *config.Moved

	// Relative endpoints (explicit), split into module steps and resource.
	from, to moveEnd

	implied bool
}

// moveEnd is an endpoint relative to its declaring module instance.
type moveEnd struct {
	modules  addrs.ModuleInstance
	resource *addrs.Resource
	key      addrs.InstanceKey
}

func splitEndpoint(ep *config.MoveEndpoint) moveEnd {
	switch s := ep.Subject.(type) {
	case addrs.ModuleInstance:
		return moveEnd{modules: s}
	case addrs.AbsResource:
		r := s.Resource
		return moveEnd{modules: s.Module, resource: &r}
	case addrs.AbsResourceInstance:
		r := s.Resource.Resource
		return moveEnd{modules: s.Module, resource: &r, key: s.Resource.Key}
	}
	return moveEnd{}
}

// movedObject remembers where an object moved from.
type movedObject struct {
	orig, now addrs.AbsResourceInstance
}

// moveState is what the moves stage did to the working states.
type moveState struct {
	stmts     []moveStatement
	facts     rules.MoveFacts
	decisions rules.MoveDecisions
	moved     map[string]*movedObject // current address -> the object's history
	blocked   []rules.BlockedMove
}

// previousAddr returns the address an object had before the moves, and
// whether it moved at all.
func (ms *moveState) previousAddr(addr addrs.AbsResourceInstance) (addrs.AbsResourceInstance, bool) {
	if ms == nil {
		return addr, false
	}
	m, ok := ms.moved[addr.String()]
	if !ok {
		return addr, false
	}
	return m.orig, true
}

// applyMoves decides the moves with the rules and executes them on the
// prev-run and prior working copies of the state.
func (w *planWalker) applyMoves(ctx context.Context) hcl.Diagnostics {
	ms := &moveState{moved: map[string]*movedObject{}}
	w.moves = ms
	ms.collect(w.cfg, w.prevRun)
	if diags := w.addComputedMoves(ctx, ms); diags.HasErrors() {
		return diags
	}
	if len(ms.stmts) == 0 {
		return nil
	}
	d, err := w.env.Rules.DecideMoves(ctx, ms.facts)
	if err != nil {
		return hcl.Diagnostics{rulesFailed(err, nil)}
	}
	ms.decisions = d
	crossType := map[int]bool{}
	for _, i := range d.CrossType {
		crossType[i] = true
	}
	var diags hcl.Diagnostics
	for _, i := range d.Order {
		diags = append(diags, w.executeMove(i, d.Kinds[i], crossType[i])...)
	}
	for k, m := range ms.moved {
		if m.orig.Equal(m.now) {
			delete(ms.moved, k)
		}
	}
	return diags
}

// collect gathers the explicit statements of every module and the implied
// count moves of the state, and their facts for the rules.
func (ms *moveState) collect(cfg *config.Config, st *state.State) {
	for _, m := range cfg.Modules() {
		for _, mv := range m.Moved {
			s := moveStatement{declModule: m.Path, moved: mv, from: splitEndpoint(mv.From), to: splitEndpoint(mv.To)}
			ms.stmts = append(ms.stmts, s)
			ms.facts.Statements = append(ms.facts.Statements, rules.MoveStatement{
				Depth: len(m.Path),
				Pos:   fmt.Sprintf("%s:%d,%d", mv.DeclRange.Filename, mv.DeclRange.Start.Line, mv.DeclRange.Start.Column),
				From:  endpointFact(m.Path, mv.From.Kind, s.from, mv.From.String()),
				To:    endpointFact(m.Path, mv.To.Kind, s.to, mv.To.String()),
			})
		}
	}
	// Implied moves: a resource that gained count keeps its no-key object
	// as [0]; one that lost count and for_each keeps [0] as its object.
	for _, mod := range st.SortedModules() {
		cm := cfg.Descendant(mod.Addr.Module())
		if cm == nil {
			continue
		}
		for _, rs := range mod.SortedResources() {
			if rs.Addr.Resource.Mode != addrs.ManagedResourceMode {
				continue
			}
			r := cm.ManagedResources[rs.Addr.Resource.String()]
			if r == nil {
				continue
			}
			var fromKey, toKey addrs.InstanceKey
			switch {
			case r.Count != nil && rs.Instances[addrs.NoKey] != nil:
				fromKey, toKey = addrs.NoKey, addrs.IntKey(0)
			case r.Count == nil && r.ForEach == nil && rs.Instances[addrs.IntKey(0)] != nil:
				fromKey, toKey = addrs.IntKey(0), addrs.NoKey
			default:
				continue
			}
			res := rs.Addr.Resource
			s := moveStatement{
				implied: true,
				from:    moveEnd{modules: rs.Addr.Module, resource: &res, key: fromKey},
				to:      moveEnd{modules: rs.Addr.Module, resource: &res, key: toKey},
			}
			ms.stmts = append(ms.stmts, s)
			from, to := rs.Addr.Instance(fromKey), rs.Addr.Instance(toKey)
			ms.facts.Statements = append(ms.facts.Statements, rules.MoveStatement{
				Implied: true,
				From:    endpointFact(nil, config.MoveResourceInstance, s.from, from.String()),
				To:      endpointFact(nil, config.MoveResourceInstance, s.to, to.String()),
			})
		}
	}
}

// endpointFact describes an endpoint to the rules as an absolute pattern.
func endpointFact(decl addrs.Module, kind config.MoveEndpointKind, e moveEnd, text string) rules.MoveEndpoint {
	f := rules.MoveEndpoint{Text: text, Modules: make([]rules.MoveModuleStep, 0, len(decl)+len(e.modules))}
	switch kind {
	case config.MoveModuleCall:
		f.Kind = rules.MoveModuleCall
	case config.MoveModuleInstance:
		f.Kind = rules.MoveModuleInstance
	case config.MoveResource:
		f.Kind = rules.MoveResource
	default:
		f.Kind = rules.MoveInstance
	}
	static := append(addrs.Module(nil), decl...)
	for _, name := range decl {
		f.Modules = append(f.Modules, rules.MoveModuleStep{Name: name, Key: "[*]"})
	}
	for _, step := range e.modules {
		f.Modules = append(f.Modules, rules.MoveModuleStep{Name: step.Name, Key: addrs.KeyString(step.Key)})
		static = append(static, step.Name)
	}
	if e.resource != nil {
		f.Resource = e.resource.String()
		f.Type = e.resource.Type
		f.Key = addrs.KeyString(e.key)
		f.ConfigResource = e.resource.InModule(static).String()
	}
	return f
}

// executeMove runs one statement in every instance of its declaring module.
func (w *planWalker) executeMove(i int, kind string, crossType bool) hcl.Diagnostics {
	ms := w.moves
	s := &ms.stmts[i]
	var diags hcl.Diagnostics
	for _, dm := range declaringInstances(w.prevRun, s.declModule) {
		from := append(append(addrs.ModuleInstance(nil), dm...), s.from.modules...)
		to := append(append(addrs.ModuleInstance(nil), dm...), s.to.modules...)
		switch kind {
		case rules.MoveInstance:
			src := s.from.resource.Absolute(from).Instance(s.from.key)
			dst := s.to.resource.Absolute(to).Instance(s.to.key)
			diags = append(diags, w.moveInstance(i, src, dst, crossType)...)
		case rules.MoveResource:
			diags = append(diags, w.moveResource(i, s.from.resource.Absolute(from), s.to.resource.Absolute(to), crossType)...)
		case rules.MoveModuleInstance:
			w.moveModule(i, from, to)
		case rules.MoveModuleCall:
			// Every instance of the call moves, keeping its key.
			n := len(from)
			for _, key := range callKeys(w.prevRun, from) {
				src := append(append(addrs.ModuleInstance(nil), from[:n-1]...), addrs.ModuleInstanceStep{Name: from[n-1].Name, Key: key})
				dst := append(append(addrs.ModuleInstance(nil), to[:len(to)-1]...), addrs.ModuleInstanceStep{Name: to[len(to)-1].Name, Key: key})
				w.moveModule(i, src, dst)
			}
		}
	}
	return diags
}

// stateModuleInstances lists every module instance of st, with ancestors.
func stateModuleInstances(st *state.State) []addrs.ModuleInstance {
	seen := map[string]bool{}
	var out []addrs.ModuleInstance
	for _, m := range st.Modules {
		for n := len(m.Addr); n >= 0; n-- {
			mi := m.Addr[:n]
			if seen[mi.String()] {
				break
			}
			seen[mi.String()] = true
			out = append(out, mi)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// declaringInstances lists the instances of a static module that hold state.
func declaringInstances(st *state.State, path addrs.Module) []addrs.ModuleInstance {
	if path.IsRoot() {
		return []addrs.ModuleInstance{addrs.RootModuleInstance}
	}
	var out []addrs.ModuleInstance
	for _, mi := range stateModuleInstances(st) {
		if mi.Module().Equal(path) {
			out = append(out, mi)
		}
	}
	return out
}

// callKeys lists the keys of the state's instances of the module call that
// the last step of call names.
func callKeys(st *state.State, call addrs.ModuleInstance) []addrs.InstanceKey {
	n := len(call)
	seen := map[string]bool{}
	var out []addrs.InstanceKey
	for _, mi := range stateModuleInstances(st) {
		if len(mi) != n || mi[n-1].Name != call[n-1].Name || !mi[:n-1].Equal(call[:n-1]) {
			continue
		}
		if k := addrs.KeyString(mi[n-1].Key); !seen[k] {
			seen[k] = true
			out = append(out, mi[n-1].Key)
		}
	}
	return out
}

func within(mi, prefix addrs.ModuleInstance) bool {
	return len(mi) >= len(prefix) && mi[:len(prefix)].Equal(prefix)
}

func (w *planWalker) moveInstance(i int, src, dst addrs.AbsResourceInstance, crossType bool) hcl.Diagnostics {
	ri := w.prevRun.ResourceInstance(src)
	if ri == nil || !ri.HasObjects() {
		return nil
	}
	if d := w.prevRun.ResourceInstance(dst); d != nil && d.HasObjects() {
		w.moves.blocked = append(w.moves.blocked, rules.BlockedMove{Statement: i, From: src.String(), To: dst.String()})
		return nil
	}
	if crossType {
		return w.crossTypeError(i, src.String(), dst.String(), src.Resource.Resource.Type, dst.Resource.Resource.Type)
	}
	if err := w.prevRun.MoveResourceInstance(src, dst); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot move object", Detail: err.Error() + "."}}
	}
	w.moves.record(src, dst)
	return nil
}

func (w *planWalker) moveResource(i int, src, dst addrs.AbsResource, crossType bool) hcl.Diagnostics {
	rs := w.prevRun.Resource(src)
	if rs == nil {
		return nil
	}
	if w.prevRun.Resource(dst) != nil {
		w.moves.blocked = append(w.moves.blocked, rules.BlockedMove{Statement: i, From: src.String(), To: dst.String()})
		return nil
	}
	if crossType {
		return w.crossTypeError(i, src.String(), dst.String(), src.Resource.Type, dst.Resource.Type)
	}
	keys := rs.SortedKeys()
	if err := w.prevRun.MoveResource(src, dst); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot move object", Detail: err.Error() + "."}}
	}
	for _, k := range keys {
		w.moves.record(src.Instance(k), dst.Instance(k))
	}
	return nil
}

// moveModule moves everything in module instance src (and below) to dst,
// unless something already exists at dst.
func (w *planWalker) moveModule(i int, src, dst addrs.ModuleInstance) {
	var mods []*state.Module
	for _, m := range w.prevRun.SortedModules() {
		if within(m.Addr, dst) && len(m.Resources) > 0 {
			w.moves.blocked = append(w.moves.blocked, rules.BlockedMove{Statement: i, From: src.String(), To: dst.String()})
			return
		}
		if within(m.Addr, src) {
			mods = append(mods, m)
		}
	}
	for _, m := range mods {
		target := append(append(addrs.ModuleInstance(nil), dst...), m.Addr[len(src):]...)
		for _, rs := range m.SortedResources() {
			from, to := rs.Addr, rs.Addr.Resource.Absolute(target)
			keys := rs.SortedKeys()
			if err := w.prevRun.MoveResource(from, to); err != nil {
				continue
			}
			for _, k := range keys {
				w.moves.record(from.Instance(k), to.Instance(k))
			}
		}
		w.prevRun.RemoveModule(m.Addr)
	}
}

func (w *planWalker) crossTypeError(i int, src, dst, fromType, toType string) hcl.Diagnostics {
	s := &w.moves.stmts[i]
	var subject *hcl.Range
	if s.moved != nil {
		subject = s.moved.DeclRange.Ptr()
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Unable to Move Resource State (%s)", dst),
		Detail: fmt.Sprintf("Moving %s to %s changes the resource type from %s to %s, which needs the provider of %s to convert the stored object, and it cannot. Keep the resource type, or remove the moved block and import the object at the new address.",
			src, dst, fromType, toType, toType),
		Subject: subject,
	}}
}

// record notes that the object at src now lives at dst; chains collapse to
// the original address.
func (ms *moveState) record(src, dst addrs.AbsResourceInstance) {
	orig := src
	if m, ok := ms.moved[src.String()]; ok {
		orig = m.orig
		delete(ms.moved, src.String())
	}
	ms.moved[dst.String()] = &movedObject{orig: orig, now: dst}
}

// validateMoves asks the rules, after the walk, what is wrong with the
// statements. Errors replace every other diagnostic of the plan.
func (w *planWalker) validateMoves(ctx context.Context) (errs, warnings hcl.Diagnostics) {
	ms := w.moves
	if ms == nil || len(ms.stmts) == 0 {
		return nil, nil
	}
	facts := ms.facts
	facts.Validate = true
	facts.Blocked = ms.blocked
	facts.Statements = append([]rules.MoveStatement(nil), facts.Statements...)
	for i := range ms.stmts {
		if !ms.stmts[i].implied {
			facts.Statements[i].Declared = w.declaredFacts(&ms.stmts[i])
		}
	}
	d, err := w.env.Rules.DecideMoves(ctx, facts)
	if err != nil {
		return hcl.Diagnostics{rulesFailed(err, nil)}, nil
	}
	subject := func(i int) *hcl.Range {
		if i < 0 || i >= len(ms.stmts) || ms.stmts[i].moved == nil {
			return nil
		}
		return ms.stmts[i].moved.DeclRange.Ptr()
	}
	for _, f := range d.Errors {
		errs = append(errs, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: f.Summary, Detail: f.Detail, Subject: subject(f.Statement)})
	}
	for _, f := range d.Warnings {
		warnings = append(warnings, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: f.Summary, Detail: f.Detail, Subject: subject(f.Statement)})
	}
	return errs, warnings
}

// declaredFacts says whether the configuration still declares a statement's
// from endpoint, read as each kind, in any instance of its module.
func (w *planWalker) declaredFacts(s *moveStatement) rules.MoveDeclared {
	var d rules.MoveDeclared
	static := append(append(addrs.Module(nil), s.declModule...), s.from.modules.Module()...)
	cm := w.cfg.Descendant(static)
	if s.from.resource == nil {
		if parent := w.cfg.Descendant(static.Parent()); parent != nil && len(static) > 0 {
			_, d.ModuleCall = parent.ModuleCalls[static[len(static)-1]]
		}
		for _, dm := range w.ev.Exp.ModuleInstances(s.declModule) {
			mi := append(append(addrs.ModuleInstance(nil), dm...), s.from.modules...)
			d.ModuleInstance = d.ModuleInstance || w.ev.Exp.IsDeclared(mi)
		}
		return d
	}
	if cm == nil {
		return d
	}
	res := cm.ManagedResources[s.from.resource.String()]
	if s.from.resource.Mode == addrs.DataResourceMode {
		res = cm.DataResources[s.from.resource.String()]
	}
	if res == nil {
		return d
	}
	d.Resource = true
	for _, dm := range w.ev.Exp.ModuleInstances(s.declModule) {
		mi := append(append(addrs.ModuleInstance(nil), dm...), s.from.modules...)
		if !w.ev.Exp.IsDeclared(mi) {
			continue
		}
		sc := &eval.Scope{Ev: w.ev, Mod: mi, Cfg: cm}
		ik, diags := sc.Expand(res.Count, res.ForEach)
		if diags.HasErrors() {
			continue
		}
		for _, k := range ik.Keys {
			if k == s.from.key {
				d.Instance = true
			}
		}
	}
	return d
}

// finishMoves gives moved objects' changes and drift their previous
// address, and records the drift of moved objects that did not change.
func (w *planWalker) finishMoves(ctx context.Context) {
	ms := w.moves
	if ms == nil || len(ms.moved) == 0 {
		return
	}
	r := w.res
	r.mu.Lock()
	defer r.mu.Unlock()
	drifted := map[string]bool{}
	for _, c := range r.drift {
		if orig, ok := ms.previousAddr(c.Addr); ok {
			c.PrevRunAddr = orig
		}
		drifted[c.Addr.String()] = true
	}
	for _, c := range r.changes {
		if orig, ok := ms.previousAddr(c.Addr); ok {
			c.PrevRunAddr = orig
		}
	}
	keys := make([]string, 0, len(ms.moved))
	for k := range ms.moved {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m := ms.moved[k]
		if drifted[k] || m.now.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		if c := w.movedDrift(ctx, r.prior, m); c != nil {
			r.drift = append(r.drift, c)
		}
	}
}

// movedDrift is the no-op drift entry of a moved object that did not
// change outside tenet.
func (w *planWalker) movedDrift(ctx context.Context, prior *state.State, m *movedObject) *plan.ResourceInstanceChange {
	rs := prior.Resource(m.now.ContainingResource())
	if rs == nil {
		return nil
	}
	ri := rs.Instances[m.now.Resource.Key]
	if ri == nil || ri.Current == nil {
		return nil
	}
	r := m.now.Resource.Resource
	sch, err := w.ps.ResourceSchema(ctx, rs.ProviderConfig.Provider, r.Mode, r.Type)
	if err != nil || sch == nil {
		return nil
	}
	v, err := ctyjson.Unmarshal(ri.Current.AttrsJSON, sch.Block.ImpliedType())
	if err != nil {
		v = cty.NullVal(sch.Block.ImpliedType())
	}
	return &plan.ResourceInstanceChange{
		Addr: m.now, PrevRunAddr: m.orig, Provider: rs.ProviderConfig, Action: action.NoOp,
		Before: v, After: v, BeforeSensitivePaths: ri.Current.SensitivePaths, AfterSensitivePaths: ri.Current.SensitivePaths,
		SchemaVersion: uint64(sch.Version),
	}
}

// finishMoveDiagnostics runs after the walk: move validation errors replace
// every other diagnostic; otherwise moved objects get their previous
// addresses and, when nothing failed, the blocked-move and forget warnings
// are added.
func (w *planWalker) finishMoveDiagnostics(ctx context.Context, diags hcl.Diagnostics) hcl.Diagnostics {
	errs, warnings := w.validateMoves(ctx)
	if len(errs) > 0 {
		return errs
	}
	if errs := w.movesExcludedByTargeting(); len(errs) > 0 {
		return errs
	}
	w.finishMoves(ctx)
	if diags.HasErrors() {
		return diags
	}
	diags = append(diags, warnings...)
	return append(diags, w.forgetWarnings()...)
}
