package rules

import (
	"context"
	"fmt"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
	"github.com/tenetplan/tenet/internal/provenance"
)

// ForcedCreateBeforeDestroy returns the resources that are not configured
// create_before_destroy but must behave so because a transitive dependent is
// (or because a team rule forces them), each with the rule that forced it.
func (e *Engine) ForcedCreateBeforeDestroy(ctx context.Context, g ResourceGraph) (map[string]provenance.Rule, error) {
	resources := make([]*ast.Term, len(g.Resources))
	for i, r := range g.Resources {
		resources[i] = ast.ObjectTerm(
			ast.Item(ast.InternedTerm("address"), ast.StringTerm(r.Address)),
			ast.Item(ast.InternedTerm("create_before_destroy"), ast.InternedTerm(r.CreateBeforeDestroy)),
			ast.Item(ast.InternedTerm("depends_on"), ast.ArrayTerm(stringTerms(r.DependsOn)...)),
		)
	}
	input := ast.NewObject(
		ast.Item(ast.InternedTerm("resources"), ast.ArrayTerm(resources...)),
		ast.Item(keyRun, runTerm(g.Run)),
	)
	rs, err := e.evalStage(ctx, e.cbd, input, g.Run.Timestamp)
	if err != nil {
		return nil, evalError("create_before_destroy", err)
	}
	out := map[string]provenance.Rule{}
	if len(rs) == 0 {
		return out, nil
	}
	forced, ok := rs[0].Expressions[0].Value.(*ast.Term).Value.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("create_before_destroy rules returned %v, want an object", rs[0].Expressions[0].Value)
	}
	err = forced.Iter(func(k, v *ast.Term) error {
		fired, err := e.decodeRules(v)
		if err != nil {
			return err
		}
		if len(fired) == 0 {
			return fmt.Errorf("create_before_destroy rules returned no rule for %v", k)
		}
		addr, ok := k.Value.(ast.String)
		if !ok {
			// Only a team element can name a resource by anything but a
			// string: it is malformed, and the plan stops (failclosed.go).
			f := fired[0]
			return &RuleError{
				File: f.File, Line: f.Line, RuleID: f.RuleID,
				Problem: fmt.Sprintf("force_create_before_destroy element %v is not a resource address string", k),
				Fix:     fixRule,
			}
		}
		out[string(addr)] = fired[0]
		return nil
	})
	return out, err
}

// rawTerm keeps evaluation results as AST terms instead of converting them to
// Go maps, so results are decoded in one pass without intermediate values.
func rawTerm(t *ast.Term, _ *rego.EvalContext) (any, error) { return t, nil }

// reachableBuiltin declares tenet.reachable(adjacency, starts): every node
// reachable from starts by following adjacency edges (starts themselves only
// when reached through an edge). It is a linear breadth-first search, unlike
// graph.reachable, which re-expands shared nodes and explodes on diamonds.
var reachableBuiltin = &ast.Builtin{
	Name: "tenet.reachable",
	Decl: types.NewFunction(
		types.Args(
			types.Named("adjacency", types.NewObject(nil, types.NewDynamicProperty(types.S, types.NewArray(nil, types.S)))).
				Description("node -> nodes it has edges to"),
			types.Named("starts", types.NewSet(types.S)).Description("nodes to start from"),
		),
		types.Named("reached", types.NewSet(types.S)).Description("nodes reachable from starts"),
	),
}

func reachableFunction() func(*rego.Rego) {
	return rego.Function2(&rego.Function{
		Name: reachableBuiltin.Name,
		Decl: reachableBuiltin.Decl,
	}, reachable)
}

func reachable(_ rego.BuiltinContext, adjTerm, startsTerm *ast.Term) (*ast.Term, error) {
	adj, ok := adjTerm.Value.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("tenet.reachable: adjacency must be an object, got %s", ast.ValueName(adjTerm.Value))
	}
	starts, ok := startsTerm.Value.(ast.Set)
	if !ok {
		return nil, fmt.Errorf("tenet.reachable: starts must be a set, got %s", ast.ValueName(startsTerm.Value))
	}
	// Work on plain strings: hashing AST terms per visit would dominate.
	var queue []string
	starts.Foreach(func(t *ast.Term) {
		if s, ok := t.Value.(ast.String); ok {
			queue = append(queue, string(s))
		}
	})
	seen := make(map[string]bool, len(queue))
	var reached []string
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		next := adj.Get(ast.StringTerm(node))
		if next == nil {
			continue
		}
		arr, ok := next.Value.(*ast.Array)
		if !ok {
			continue
		}
		for i := range arr.Len() {
			s, ok := arr.Elem(i).Value.(ast.String)
			if !ok || seen[string(s)] {
				continue
			}
			seen[string(s)] = true
			reached = append(reached, string(s))
			queue = append(queue, string(s))
		}
	}
	sort.Strings(reached)
	return ast.SetTerm(stringTerms(reached)...), nil
}
