package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// randomInstance draws facts for one instance; names vary independently of
// the facts, so a rule reading them would make the memo disagree.
func randomInstance(r *rand.Rand, n int) Instance {
	b := func() bool { return r.IntN(2) == 0 }
	types := []string{"terraform_data", "aws_instance", "null_resource"}
	typ := types[r.IntN(len(types))]
	in := Instance{
		Mode: []string{"managed", "data"}[r.IntN(2)], Type: typ, Name: fmt.Sprintf("n%d", n),
		HasConfig: b(), ConfigKnown: b(), HasPrior: b(), Tainted: b(), HasPlanned: b(),
		PlannedEqualsPrior: b(), ForceReplace: b(), Triggered: b(), DependencyPending: b(),
		Lifecycle: Lifecycle{CreateBeforeDestroy: b(), PreventDestroy: b()},
		Orphan: Orphan{
			ResourceInConfig: b(), Moved: b(), ModuleDeclared: b(), InExpansion: b(),
			Repetition: []string{"none", "count", "for_each"}[r.IntN(3)],
		},
	}
	in.Key = []any{nil, r.IntN(2), []string{"a", "b"}[r.IntN(2)]}[r.IntN(3)]
	in.Resource = typ + "." + in.Name
	in.Address = fmt.Sprintf("%s[%v]", in.Resource, in.Key)
	if r.IntN(4) == 0 {
		in.Deposed = "00000001"
	}
	if b() {
		in.RequiresReplace = stepPaths([]any{"input"})
	}
	switch r.IntN(3) {
	case 1:
		in.Removed = &Removed{Destroy: false}
	case 2:
		in.Removed = &Removed{Destroy: true}
	}
	return in
}

// flips each change one fact of an instance (or its name), so that a fact
// the memo key leaves out makes a remembered decision wrong.
var flips = []func(in *Instance){
	func(in *Instance) { in.Mode = map[string]string{"managed": "data", "data": "managed"}[in.Mode] },
	func(in *Instance) { in.HasConfig = !in.HasConfig },
	func(in *Instance) { in.ConfigKnown = !in.ConfigKnown },
	func(in *Instance) { in.HasPrior = !in.HasPrior },
	func(in *Instance) { in.Tainted = !in.Tainted },
	func(in *Instance) { in.HasPlanned = !in.HasPlanned },
	func(in *Instance) { in.PlannedEqualsPrior = !in.PlannedEqualsPrior },
	func(in *Instance) { in.ForceReplace = !in.ForceReplace },
	func(in *Instance) { in.Triggered = !in.Triggered },
	func(in *Instance) { in.DependencyPending = !in.DependencyPending },
	func(in *Instance) { in.InCheck = !in.InCheck },
	func(in *Instance) { in.Lifecycle.CreateBeforeDestroy = !in.Lifecycle.CreateBeforeDestroy },
	func(in *Instance) { in.Lifecycle.PreventDestroy = !in.Lifecycle.PreventDestroy },
	func(in *Instance) { in.Orphan.ResourceInConfig = !in.Orphan.ResourceInConfig },
	func(in *Instance) { in.Orphan.Moved = !in.Orphan.Moved },
	func(in *Instance) { in.Orphan.ModuleDeclared = !in.Orphan.ModuleDeclared },
	func(in *Instance) { in.Orphan.InExpansion = !in.Orphan.InExpansion },
	func(in *Instance) {
		in.Orphan.Repetition = map[string]string{"none": "count", "count": "for_each", "for_each": "none"}[in.Orphan.Repetition]
	},
	func(in *Instance) { in.Key = map[any]any{nil: 0, 0: "a", 1: "a", "a": nil, "b": nil}[in.Key] },
	func(in *Instance) { in.Deposed = map[string]string{"": "00000001", "00000001": ""}[in.Deposed] },
	func(in *Instance) {
		if len(in.RequiresReplace) > 0 {
			in.RequiresReplace = nil
		} else {
			in.RequiresReplace = stepPaths([]any{"input"})
		}
	},
	func(in *Instance) {
		switch {
		case in.Removed == nil:
			in.Removed = &Removed{}
		case !in.Removed.Destroy:
			in.Removed = &Removed{Destroy: true}
		default:
			in.Removed = nil
		}
	},
	func(in *Instance) {
		in.Type, in.Name = "other_type", in.Name+"_twin"
		in.Resource = in.Type + "." + in.Name
		in.Address = in.Resource + "[twin]"
	},
}

// TestDecideMemoMatchesEvaluation checks that a remembered single-instance
// decision is what evaluating the rules for that instance decides, for
// instances that differ from one another in one fact or in their names.
func TestDecideMemoMatchesEvaluation(t *testing.T) {
	memo := newTestEngine(t, nil)
	if !memo.memo.enabled {
		t.Fatal("the default rules should allow remembering decisions")
	}
	fresh := newReferenceEngine(t, nil)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	modes := []string{ModeNormal, ModeNormal, ModeDestroy, ModeRefreshOnly}
	for n := range 120 {
		run := Run{Mode: modes[r.IntN(len(modes))], Timestamp: time.Unix(int64(n), 0)}
		base := randomInstance(r, n)
		for _, flip := range flips {
			x := base
			flip(&x)
			for _, in := range []Instance{base, x} {
				got, err := memo.Decide(ctx, run, []Instance{in})
				if err != nil {
					t.Fatal(err)
				}
				want, err := fresh.Decide(ctx, run, []Instance{in})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("%s (%+v): remembered decision differs (-evaluated +remembered):\n%s", in.Address, in, diff)
				}
			}
		}
	}
}

// TestDecideMemoWithTeamRulesReadingNames checks that a team rule reading
// names still decides single instances differing only in their names: what
// it adds is part of the facts decisions are remembered by.
func TestDecideMemoWithTeamRulesReadingNames(t *testing.T) {
	e := newTestEngine(t, map[string]string{"r.rego": `package tenet.decide

force_replace contains [i, "by name"] if {
	some i, inst in input.instances
	inst.name == "a"
}
`})
	run := Run{Mode: ModeNormal}
	base := benchInstances(1)[0]
	for _, tc := range []struct{ name, want string }{{"b", "no-op"}, {"a", "delete-then-create"}} {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			in.Name = tc.name
			got, err := e.Decide(context.Background(), run, []Instance{in})
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Action != tc.want {
				t.Errorf("action %q, want %q", got[0].Action, tc.want)
			}
		})
	}
}

// decideTeamRules read names and values, and add elements with messages
// that differ between instances and ones that do not.
var decideTeamRules = map[string]string{"team.rego": `package tenet.decide

force_replace contains [i, sprintf("name %s", [inst.name])] if {
	some i, inst in input.instances
	endswith(inst.name, "1")
}

force_replace contains [i, "aws"] if {
	some i, inst in input.instances
	inst.type == "aws_instance"
}

prevent_destroy contains [i, "protected"] if {
	some i, inst in input.instances
	inst.type == "null_resource"
}
`}

// TestDecideBatchByFactsMatchesEvaluation checks that deciding a batch once
// per distinct set of facts gives every instance what evaluating the whole
// batch gives it, findings (which name addresses) included, with and
// without team rules.
func TestDecideBatchByFactsMatchesEvaluation(t *testing.T) {
	for _, tc := range []struct {
		name string
		team map[string]string
	}{{"default rules", nil}, {"team rules", decideTeamRules}} {
		t.Run(tc.name, func(t *testing.T) {
			memo := newTestEngine(t, tc.team)
			if !memo.memo.enabled || !memo.memo.keyKindOnly {
				t.Fatal("the default rules read instance keys only by kind; counted instances should share decisions")
			}
			if memo.memo.team != (tc.team != nil) {
				t.Fatalf("memo.team = %v with team rules %v", memo.memo.team, tc.team != nil)
			}
			fresh := newReferenceEngine(t, tc.team)
			checkDecideByFacts(t, memo, fresh)
		})
	}
}

func checkDecideByFacts(t *testing.T, memo, fresh *Engine) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	modes := []string{ModeNormal, ModeNormal, ModeDestroy, ModeRefreshOnly}
	for round := range 40 {
		run := Run{Mode: modes[r.IntN(len(modes))], Timestamp: time.Unix(int64(round), 0)}
		// A batch of a few fact patterns repeated with different keys and
		// names, the way count instances of a few resources look.
		var patterns []Instance
		for p := range 1 + r.IntN(4) {
			patterns = append(patterns, randomInstance(r, round*10+p))
		}
		var batch []Instance
		for n := range 50 + r.IntN(700) {
			in := patterns[r.IntN(len(patterns))]
			if in.Key != nil {
				switch in.Key.(type) {
				case int:
					in.Key = n
				case string:
					in.Key = fmt.Sprintf("k%d", n)
				}
			}
			in.Name = fmt.Sprintf("%s_%d", in.Name, r.IntN(3))
			in.Resource = in.Type + "." + in.Name
			in.Address = fmt.Sprintf("%s[%v]", in.Resource, in.Key)
			batch = append(batch, in)
		}
		got, err := memo.Decide(ctx, run, batch)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Decide(ctx, run, batch)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d: decided by facts differs from evaluating the batch (-evaluated +by facts):\n%s", round, diff)
		}
	}
}

func TestKeyReadByKindOnly(t *testing.T) {
	for _, tc := range []struct {
		name, rule string
		want       bool
	}{
		{"type test", `x := [i | some i, inst in input.instances; is_number(inst.key)]`, true},
		{"value read", `x := [i | some i, inst in input.instances; inst.key == 0]`, false},
		{"alias read by value", `x := [i | some i, inst in input.instances; k := inst.key; k == 0]`, false},
		{"alias tested", `x := [i | some i, inst in input.instances; k := inst.key; is_string(k)]`, true},
		{"value in a finding", `errors contains [i, inst.key] if { some i, inst in input.instances }`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parseModule(defaultDir+"/planning/t.rego", []byte("package tenet.decide\n\n"+tc.rule+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			c := newCompiler()
			c.Compile(map[string]*ast.Module{"t.rego": m})
			if c.Failed() {
				t.Fatal(c.Errors)
			}
			if got := keyReadByKindOnly(c); got != tc.want {
				t.Errorf("keyReadByKindOnly = %v, want %v", got, tc.want)
			}
		})
	}
}
