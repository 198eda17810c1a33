package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// TestChunkFormAgreesWithRulesAboutOneInstance reads decide.rego as it is
// written, about one instance, and evaluates it instance by instance; the
// chunk form the evaluator queries must give every instance of a chunk the
// same decisions, conflicts, fired rules and errors, team extension points
// included.
func TestChunkFormAgreesWithRulesAboutOneInstance(t *testing.T) {
	src, err := defaultRules.ReadFile("planning/decide.rego")
	if err != nil {
		t.Fatal(err)
	}
	const file = "rules/planning/decide.rego"
	perInstance, err := parseModule(file, src)
	if err != nil {
		t.Fatal(err)
	}
	chunk, err := parseDefaultModule(file, src)
	if err != nil {
		t.Fatal(err)
	}
	const query = `{"decisions": data.tenet.decide.decisions, "conflicts": data.tenet.decide.conflicts,` +
		` "fired": data.tenet.decide.fired, "errors": data.tenet.decide.errors}` +
		` with data.tenet.decide.force_replace as input.team.force_replace` +
		` with data.tenet.decide.prevent_destroy as input.team.prevent_destroy`
	prepare := func(m *ast.Module) rego.PreparedEvalQuery {
		c := newCompiler()
		c.Compile(map[string]*ast.Module{file: m})
		if c.Failed() {
			t.Fatal(c.Errors)
		}
		pq, err := prepareQuery(context.Background(), c, query)
		if err != nil {
			t.Fatal(err)
		}
		return pq
	}
	one, many := prepare(perInstance), prepare(chunk)
	eval := func(pq rego.PreparedEvalQuery, input ast.Value) ast.Object {
		rs, err := pq.Eval(context.Background(), rego.EvalParsedInput(input), rego.EvalGenerateJSON(rawTerm))
		if err != nil {
			t.Fatal(err)
		}
		return rs[0].Expressions[0].Value.(*ast.Term).Value.(ast.Object)
	}

	e := newTestEngine(t, nil)
	r := rand.New(rand.NewPCG(11, 2))
	for _, mode := range []string{ModeNormal, ModeDestroy, ModeRefreshOnly} {
		run := runTerm(Run{Mode: mode, Timestamp: time.Unix(0, 0)})
		batch := make([]Instance, 300)
		for i := range batch {
			batch[i] = randomInstance(r, i)
			batch[i].InCheck = r.IntN(2) == 0
		}
		vb := e.newValueBuilder()
		terms := make([]*ast.Term, len(batch))
		// Team elements as team rules add them: {"value": [i, message],
		// "rule": handle} in the chunk, {"value": message, ...} about one
		// instance.
		var force, protect []*ast.Term
		want := map[string]ast.Set{"decisions": ast.NewSet(), "conflicts": ast.NewSet(), "fired": ast.NewSet(), "errors": ast.NewSet()}
		for i := range batch {
			terms[i] = e.instanceTerm(vb, &batch[i], false)
			var f, p []*ast.Term
			if r.IntN(4) == 0 {
				f = append(f, teamElement(i, "forced", "team:0"))
			}
			if r.IntN(4) == 0 {
				p = append(p, teamElement(i, "kept", "team:1"))
			}
			force, protect = append(force, f...), append(protect, p...)
			got := eval(one, ast.NewObject(
				ast.Item(keyRun, run),
				ast.Item(ast.InternedTerm("instance"), terms[i]),
				ast.Item(keyTeam, ast.ObjectTerm(
					ast.Item(keyForceReplace, ast.SetTerm(aboutOne(f)...)),
					ast.Item(keyPreventDestroy, ast.SetTerm(aboutOne(p)...)),
				)),
			))
			for key, set := range want {
				got.Get(ast.StringTerm(key)).Value.(ast.Set).Foreach(func(x *ast.Term) {
					set.Add(ast.ArrayTerm(ast.InternedTerm(i), x))
				})
			}
		}
		got := eval(many, ast.NewObject(
			ast.Item(keyRun, run),
			ast.Item(keyInstances, ast.ArrayTerm(terms...)),
			ast.Item(keyTeam, ast.ObjectTerm(
				ast.Item(keyForceReplace, ast.SetTerm(force...)),
				ast.Item(keyPreventDestroy, ast.SetTerm(protect...)),
			)),
		))
		for key, set := range want {
			if diff := cmp.Diff(set.String(), got.Get(ast.StringTerm(key)).String()); diff != "" {
				t.Errorf("mode %s, %s: the chunk form disagrees with the rules about one instance (-one +chunk):\n%s", mode, key, diff)
			}
		}
		if mode == ModeNormal && want["decisions"].Len() != len(batch) {
			t.Errorf("mode %s: %d decisions for %d instances", mode, want["decisions"].Len(), len(batch))
		}
	}
}

func teamElement(i int, message, handle string) *ast.Term {
	return ast.ObjectTerm(
		ast.Item(keyValue, ast.ArrayTerm(ast.InternedTerm(i), ast.StringTerm(message))),
		ast.Item(keyRule, ast.StringTerm(handle)),
	)
}

// aboutOne is how rules about one instance see its team elements.
func aboutOne(els []*ast.Term) []*ast.Term {
	out := make([]*ast.Term, len(els))
	for j, el := range els {
		obj := el.Value.(ast.Object)
		out[j] = ast.ObjectTerm(
			ast.Item(keyValue, obj.Get(keyValue).Value.(*ast.Array).Elem(1)),
			ast.Item(keyRule, obj.Get(keyRule)),
		)
	}
	return out
}

// TestChunkFormRefusesUnknownShapes: a shape the rewrite cannot make as
// fast as the chunk form by hand, or would get wrong, is an error.
func TestChunkFormRefusesUnknownShapes(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"function", "f(x) if input.instance.mode == x", "a function cannot read the instance"},
		{"else", "p := 1 if input.instance.tainted\nelse := 2", "cannot have an else branch"},
		{"shadowing variable", "p if input.instance.tainted\nq if {\n\tp := 1\n\tinput.instance.mode == p\n}", "has the name of a rule"},
		{"predicate as a value", "p if input.instance.tainted\nq := x if x := [p]", "is not supported"},
		{"with", "p if input.instance.tainted with input.run as {}", "`with` in a rule about one instance"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := parseModule("x.rego", []byte("package tenet.decide\n\n"+tt.src+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if err := chunkForm(m); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// Team rules in the chunk form may read the default rules about one
// instance, which are then sets of indices: `some i in with_prior`.
func TestTeamChunkFormReadsDefaultPredicates(t *testing.T) {
	e := newTestEngine(t, map[string]string{"r.rego": `package tenet.decide

force_replace contains [i, "databases are rebuilt"] if {
	some i in with_prior
	input.instances[i].type == "db"
}
`})
	batch := benchInstances(4)
	batch[0].Type, batch[2].Type = "db", "db"
	batch[2].HasPrior = false
	got, err := e.Decide(context.Background(), Run{Mode: ModeNormal}, batch)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, d := range got {
		actions = append(actions, fmt.Sprintf("%s/%s", d.Action, d.Reason))
	}
	want := []string{"delete-then-create/replace_by_request", "update/", "create/", "delete/delete_because_count_index"}
	if diff := cmp.Diff(want, actions); diff != "" {
		t.Error(diff)
	}
}

// The migration note of docs/rules.md: a chunk-form team rule that reads a
// default helper renamed when decide.rego was written about one instance
// is refused when it loads, naming the line.
func TestTeamRuleReadingARenamedHelperIsRefused(t *testing.T) {
	src := "package tenet.decide\n\nforce_replace contains [i, \"m\"] if {\n\tsome i in orphans_present\n}\n"
	_, diags := New(context.Background(), Options{Team: []Source{{Name: "team", FS: fstest.MapFS{"r.rego": {Data: []byte(src)}}}}})
	for _, d := range diags {
		if strings.Contains(d.Detail, "orphans_present") && d.Subject != nil && d.Subject.Start.Line == 4 {
			return
		}
	}
	t.Fatalf("diagnostics %v, want an error about orphans_present at line 4", diags)
}
