package rules

import (
	"context"
	"fmt"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/tenetplan/tenet/internal/provenance"
)

// MoveCandidates is the input of [Engine.ComputedMoves]: the resources a
// team rule may compute moves between.
type MoveCandidates struct {
	// State lists the resources of the previous run's state; Address is the
	// absolute resource address (module instance keys included).
	State []MoveCandidate
	// Config lists the configuration's resources; Address is the static
	// address (module.a.type.name).
	Config []MoveCandidate
}

// MoveCandidate is one resource as team move rules see it
// (input.state.resources[_] and input.config.resources[_]).
type MoveCandidate struct {
	Address string
	Module  string // "" for the root module
	Mode    string // "managed" | "data"
	Type    string
	Name    string
}

// ComputedMove is a move a team rule computed: it behaves like a moved block
// from From to To, both addresses written as in a moved block.
type ComputedMove struct {
	From, To string
	Rule     provenance.Rule // the team rule that computed it
}

var (
	keyState     = ast.InternedTerm("state")
	keyResources = ast.InternedTerm("resources")
)

// ComputedMoves evaluates the team `moves` extension point once per plan.
// It returns the moves sorted by From, or an error naming both rules when
// two rules move the same address to different places. Without team rules it
// returns nothing and costs nothing.
func (e *Engine) ComputedMoves(ctx context.Context, run Run, c MoveCandidates) ([]ComputedMove, error) {
	if !e.hasTeamMoves {
		return nil, nil
	}
	list := func(rs []MoveCandidate) *ast.Term {
		terms := make([]*ast.Term, len(rs))
		for i, r := range rs {
			terms[i] = ast.ObjectTerm(
				ast.Item(keyAddress, ast.StringTerm(r.Address)),
				ast.Item(keyModule, ast.StringTerm(r.Module)),
				ast.Item(keyMode, ast.StringTerm(r.Mode)),
				ast.Item(keyType, ast.StringTerm(r.Type)),
				ast.Item(keyName, ast.StringTerm(r.Name)),
			)
		}
		return ast.ArrayTerm(terms...)
	}
	input := ast.NewObject(
		ast.Item(keyRun, runTerm(run)),
		ast.Item(keyState, ast.ObjectTerm(ast.Item(keyResources, list(c.State)))),
		ast.Item(keyConfig, ast.ObjectTerm(ast.Item(keyResources, list(c.Config)))),
	)
	rs, err := e.evalStage(ctx, e.computedMovesQ, input, run.Timestamp)
	if err != nil {
		return nil, evalError("computed move", err)
	}
	if len(rs) == 0 {
		return nil, nil
	}
	arr, ok := rs[0].Expressions[0].Value.(*ast.Term).Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("computed move rules returned %v, want an array", rs[0].Expressions[0].Value)
	}
	byFrom := map[string]ComputedMove{}
	for j := range arr.Len() {
		elem, ok := arr.Elem(j).Value.(ast.Object)
		if !ok {
			return nil, fmt.Errorf("computed move %v is not a team element", arr.Elem(j))
		}
		rule := e.fired(stringAt(elem, keyRule))
		pair, ok := valueAt(elem, keyValue).(*ast.Array)
		var from, to string
		if ok && pair.Len() == 2 {
			from, to = str(pair.Elem(0)), str(pair.Elem(1))
		}
		if from == "" || to == "" {
			return nil, e.malformed(elem, "moves", "[from, to], two address strings")
		}
		if from == to {
			continue
		}
		m := ComputedMove{From: from, To: to, Rule: rule}
		if prev, dup := byFrom[from]; dup && prev.To != to {
			return nil, fmt.Errorf("rules %s (%s:%d) and %s (%s:%d) move %s to different addresses, %s and %s",
				prev.Rule.RuleID, prev.Rule.File, prev.Rule.Line, rule.RuleID, rule.File, rule.Line, from, prev.To, to)
		}
		if _, dup := byFrom[from]; !dup {
			byFrom[from] = m
		}
	}
	out := make([]ComputedMove, 0, len(byFrom))
	for _, m := range byFrom {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	byTo := map[string]ComputedMove{}
	for _, m := range out {
		if prev, dup := byTo[m.To]; dup {
			return nil, fmt.Errorf("rules %s (%s:%d) and %s (%s:%d) move both %s and %s to %s",
				prev.Rule.RuleID, prev.Rule.File, prev.Rule.Line, m.Rule.RuleID, m.Rule.File, m.Rule.Line, prev.From, m.From, m.To)
		}
		byTo[m.To] = m
	}
	return out, nil
}
