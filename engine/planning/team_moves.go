package planning

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/internal/provenance"
	"github.com/tenetplan/tenet/rules"
)

// Computed moves: team rules (the `moves` extension point) compute moves from
// the state's and the configuration's resources, e.g. every resource renamed
// by a prefix. Each becomes a moved block of the root module, declared at the
// rule's file and line, added after the configuration's own statements; from
// there the moves stage treats it like any moved block (unification, chains,
// ordering, validation). A moved block with the same from address wins.

// addComputedMoves asks the team rules for computed moves and adds them to
// the statements collected from the configuration.
func (w *planWalker) addComputedMoves(ctx context.Context, ms *moveState) hcl.Diagnostics {
	if !w.env.Rules.WantsComputedMoves() {
		return nil
	}
	var cands rules.MoveCandidates
	for _, mod := range w.prevRun.SortedModules() {
		for _, rs := range mod.SortedResources() {
			cands.State = append(cands.State, moveCandidate(rs.Addr.String(), rs.Addr.Module.String(), rs.Addr.Resource))
		}
	}
	for _, m := range w.cfg.Modules() {
		for _, set := range []map[string]*config.Resource{m.ManagedResources, m.DataResources} {
			names := make([]string, 0, len(set))
			for name := range set {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				r := set[name].Addr()
				cands.Config = append(cands.Config, moveCandidate(r.InModule(m.Path).String(), m.Path.String(), r))
			}
		}
	}
	computed, err := w.env.Rules.ComputedMoves(ctx, w.run, cands)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid computed moves", Detail: err.Error() + ". Change the team rules so that each object moves to one address."}}
	}
	written := map[string]bool{}
	for _, s := range ms.stmts {
		if !s.implied && s.declModule.IsRoot() {
			written[s.moved.From.String()] = true
		}
	}
	var diags hcl.Diagnostics
	for _, cm := range computed {
		if written[cm.From] {
			continue // the configuration's moved block wins
		}
		decl := hcl.Range{Filename: cm.Rule.File, Start: hcl.Pos{Line: cm.Rule.Line, Column: 1}, End: hcl.Pos{Line: cm.Rule.Line, Column: 1}}
		from, d := computedEndpoint(cm.From, decl, cm.Rule)
		diags = append(diags, d...)
		to, d := computedEndpoint(cm.To, decl, cm.Rule)
		diags = append(diags, d...)
		if from == nil || to == nil {
			continue
		}
		if from.Kind.IsModule() != to.Kind.IsModule() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid computed move",
				Detail:  fmt.Sprintf("Rule %s moves %s to %s: both addresses must name modules, or both must name resources.", cm.Rule.RuleID, cm.From, cm.To),
				Subject: decl.Ptr()})
			continue
		}
		w.teamMoves = append(w.teamMoves, cm)
		mv := &config.Moved{From: from, To: to, DeclRange: decl}
		s := moveStatement{declModule: addrs.RootModule, moved: mv, from: splitEndpoint(from), to: splitEndpoint(to)}
		ms.stmts = append(ms.stmts, s)
		ms.facts.Statements = append(ms.facts.Statements, rules.MoveStatement{
			Pos:  fmt.Sprintf("%s:%d (rule %s)", cm.Rule.File, cm.Rule.Line, cm.Rule.RuleID),
			From: endpointFact(addrs.RootModule, from.Kind, s.from, cm.From),
			To:   endpointFact(addrs.RootModule, to.Kind, s.to, cm.To),
		})
	}
	return diags
}

func moveCandidate(addr, module string, r addrs.Resource) rules.MoveCandidate {
	mode := "managed"
	if r.Mode == addrs.DataResourceMode {
		mode = "data"
	}
	return rules.MoveCandidate{Address: addr, Module: module, Mode: mode, Type: r.Type, Name: r.Name}
}

// computedEndpoint reads an address a team rule wrote, as a moved block
// endpoint of the root module.
func computedEndpoint(s string, decl hcl.Range, rule provenance.Rule) (*config.MoveEndpoint, hcl.Diagnostics) {
	bad := func(why string) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid computed move",
			Detail:  fmt.Sprintf("Rule %s computed the address %q, which %s. A computed move names a module, module instance, resource or resource instance, as in a moved block.", rule.RuleID, s, why),
			Subject: decl.Ptr()}}
	}
	trav, d := hclsyntax.ParseTraversalAbs([]byte(s), decl.Filename, decl.Start)
	if d.HasErrors() {
		return nil, bad("is not an address")
	}
	target, d := addrs.ParseTarget(trav)
	if d.HasErrors() {
		return nil, bad("is not a valid address")
	}
	kind, ok := config.MoveEndpointKindOf(target.Subject)
	if !ok {
		// ParseTarget gives only modules and resources, so what is
		// refused here is the root module.
		return nil, bad("names the root module")
	}
	return &config.MoveEndpoint{Traversal: trav, SourceRange: decl, Kind: kind, Subject: target.Subject}, nil
}
