package rules

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/attrpath"
)

// TestPrepareExtensionPoints: ignore_paths and equivalent add ignored paths
// with their own provenance; the default ignore_changes provenance names only
// instances that configure ignore_changes.
func TestPrepareExtensionPoints(t *testing.T) {
	e := newTestEngine(t, map[string]string{"p.rego": `package tenet.prepare

# METADATA
# custom:
#   id: acme.ignore_ext
ignore_paths contains [i, ["tags", k]] if {
	some i, inst in input.instances
	some k, _ in inst.config.values.tags
	startswith(k, "ext/")
}

equivalent contains [i, ["doc"]] if {
	some i, inst in input.instances
	json.unmarshal(inst.config.values.doc) == json.unmarshal(inst.prior.values.doc)
}
`})
	obj := func(doc string, tags map[string]string) cty.Value {
		m := map[string]cty.Value{}
		for k, v := range tags {
			m[k] = cty.StringVal(v)
		}
		return cty.ObjectVal(map[string]cty.Value{"doc": cty.StringVal(doc), "tags": cty.MapVal(m)})
	}
	batch := []PrepareInstance{
		{Address: "a", HasPrior: true, Config: obj(`{"x":1}`, map[string]string{"ext/a": "1", "team": "b"}), Prior: obj(`{ "x": 1 }`, map[string]string{"team": "b"})},
		{Address: "b", HasPrior: true, IgnoreChanges: stepPaths([]any{"team"}), Config: obj(`{"x":2}`, map[string]string{"team": "b"}), Prior: obj(`{"x":1}`, map[string]string{"team": "b"})},
	}
	got, err := e.Prepare(context.Background(), Run{Mode: ModeNormal, Timestamp: caseTimestamp}, batch)
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Ignore [][]any
		Rules  []string
	}
	sum := func(p Preparation) summary {
		s := summary{}
		for _, ip := range p.Ignore {
			s.Ignore = append(s.Ignore, attrpath.Steps(ip))
		}
		for _, f := range p.Provenance {
			s.Rules = append(s.Rules, f.RuleID)
		}
		return s
	}
	want := []summary{
		{Ignore: [][]any{{"doc"}, {"tags", "ext/a"}}, Rules: []string{"acme.ignore_ext", "team:.tenet/rules/p.rego:12"}},
		{Ignore: [][]any{{"team"}}, Rules: []string{"tenet.prepare.ignore_changes"}},
	}
	for i := range want {
		if diff := cmp.Diff(want[i], sum(got[i])); diff != "" {
			t.Errorf("%s (-want +got):\n%s", batch[i].Address, diff)
		}
	}
}

func TestComputedMoves(t *testing.T) {
	cands := MoveCandidates{
		State:  []MoveCandidate{{Address: "x.old_a", Type: "x", Name: "old_a"}, {Address: "x.old_b", Type: "x", Name: "old_b"}, {Address: "x.c", Type: "x", Name: "c"}},
		Config: []MoveCandidate{{Address: "x.a", Type: "x", Name: "a"}},
	}
	rename := `package tenet.moves

# METADATA
# custom:
#   id: acme.rename
moves contains [r.address, to] if {
	some r in input.state.resources
	startswith(r.name, "old_")
	to := sprintf("%s.%s", [r.type, trim_prefix(r.name, "old_")])
}
`
	tests := []struct {
		name string
		team map[string]string
		want []string
		err  string
	}{
		{"no team rules", nil, nil, ""},
		{"rename", map[string]string{"m.rego": rename}, []string{"x.old_a -> x.a by acme.rename", "x.old_b -> x.b by acme.rename"}, ""},
		{"same move twice", map[string]string{"m.rego": rename, "n.rego": "package tenet.moves\n\nmoves contains [\"x.old_a\", \"x.a\"]\n"}, []string{"x.old_a -> x.a by acme.rename", "x.old_b -> x.b by acme.rename"}, ""},
		{"one from, two targets", map[string]string{"m.rego": rename, "n.rego": "package tenet.moves\n\nmoves contains [\"x.old_a\", \"x.z\"]\n"}, nil, "move x.old_a to different addresses"},
		{"two froms, one target", map[string]string{"m.rego": rename, "n.rego": "package tenet.moves\n\nmoves contains [\"x.c\", \"x.a\"]\n"}, nil, "move both"},
		{"not a pair", map[string]string{"n.rego": "package tenet.moves\n\nmoves contains \"x.c\"\n"}, nil, "n.rego:3: moves element \"x.c\" is not [from, to]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEngine(t, tt.team)
			got, err := e.ComputedMoves(context.Background(), Run{Mode: ModeNormal}, cands)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, m := range got {
				lines = append(lines, m.From+" -> "+m.To+" by "+m.Rule.RuleID)
			}
			if diff := cmp.Diff(tt.want, lines); diff != "" {
				t.Errorf("moves (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValueOmissions: values are built only for stages team rules extend,
// and only the values team files name.
func TestValueOmissions(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want valueOmissions
	}{
		{"helper package only", "package acme\n\nx := 1\n", valueOmissions{decide: true, prepare: true, config: true, prior: true, planned: true}},
		{"decide reads a config attribute", "package tenet.decide\n\nforce_replace contains [i, \"m\"] if {\n\tsome i, inst in input.instances\n\tinst.config.values.a == 1\n}\n", valueOmissions{prepare: true, prior: true, planned: true, configAttrs: attrSet{"a": true}}},
		{"attributes of two values", "package tenet.decide\n\nforce_replace contains [i, \"m\"] if {\n\tsome i, inst in input.instances\n\tinst.config.values.a != input.instances[i].prior.values.b.c\n\tinst.prior.values[\"prior\"]\n}\n", valueOmissions{prepare: true, planned: true, configAttrs: attrSet{"a": true}, priorAttrs: attrSet{"b": true, "prior": true}}},
		{"whole values object", "package tenet.decide\n\nforce_replace contains [i, \"m\"] if {\n\tsome i, inst in input.instances\n\tinst.config.values.a == 1\n\tcount(inst.config.values) > 1\n}\n", valueOmissions{prepare: true, prior: true, planned: true}},
		{"attribute by variable", "package tenet.decide\n\nforce_replace contains [i, k] if {\n\tsome i, inst in input.instances\n\tsome k in [\"a\", \"b\"]\n\tinst.config.values[k]\n}\n", valueOmissions{prepare: true, prior: true, planned: true}},
		{"unknown tree", "package tenet.decide\n\nforce_replace contains [i, \"m\"] if {\n\tsome i, inst in input.instances\n\tinst.planned.unknown.id\n}\n", valueOmissions{prepare: true, config: true, prior: true}},
		{"name in a string elsewhere", "package tenet.decide\n\nforce_replace contains [i, \"config\"] if {\n\tsome i, inst in input.instances\n\tinst.config.values.a == 1\n}\n", valueOmissions{prepare: true, prior: true, planned: true}},
		{"attributes through object.get", "package tenet.prepare\n\nignore_paths contains [i, [\"a\"]] if {\n\tsome i, inst in input.instances\n\tsome k, _ in object.union(object.get(inst.config.values, \"a\", {}), object.get(inst.prior.values, [\"b\", \"c\"], {}))\n\tk != \"\"\n}\n", valueOmissions{decide: true, planned: true, configAttrs: attrSet{"a": true}, priorAttrs: attrSet{"b": true}}},
		{"object.get with a computed key", "package tenet.prepare\n\nignore_paths contains [i, [\"a\"]] if {\n\tsome i, inst in input.instances\n\tsome k in [\"a\"]\n\tobject.get(inst.config.values, k, {}) != {}\n}\n", valueOmissions{decide: true, prior: true, planned: true}},
		{"prepare reads prior via object.get", "package tenet.prepare\n\nignore_paths contains [i, [\"a\"]] if {\n\tsome i, inst in input.instances\n\tobject.get(inst, \"prior\", {}) != {}\n}\n", valueOmissions{decide: true, config: true, planned: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, diags := New(context.Background(), Options{Team: []Source{{Name: "team", FS: fstest.MapFS{"r.rego": {Data: []byte(tt.src)}}}}})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			// decideFields has its own test.
			if diff := cmp.Diff(tt.want, e.omit, cmp.AllowUnexported(valueOmissions{}), cmpopts.IgnoreFields(valueOmissions{}, "decideFields", "prepareFields")); diff != "" {
				t.Errorf("omissions (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTeamVariablesAndPackageMetadata: input.run.variables reaches team
// rules, and a team file's package METADATA does not clash with the
// default package's.
func TestTeamVariablesAndPackageMetadata(t *testing.T) {
	e := newTestEngine(t, map[string]string{"k.rego": `# METADATA
# title: Acme protections
package tenet.decide

prevent_destroy contains [i, "prod"] if {
	input.run.variables.env == "prod"
	some i, _ in input.instances
}
`})
	batch := []Instance{{Address: "a", Mode: "managed", HasPrior: true, Orphan: Orphan{ResourceInConfig: false}}}
	for env, errs := range map[string]int{"prod": 1, "dev": 0} {
		run := Run{Mode: ModeNormal, Timestamp: caseTimestamp, Variables: map[string]cty.Value{"env": cty.StringVal(env).Mark("sensitive")}}
		got, err := e.Decide(context.Background(), run, batch)
		if err != nil {
			t.Fatal(err)
		}
		if len(got[0].Errors) != errs {
			t.Errorf("env=%s: %d errors, want %d", env, len(got[0].Errors), errs)
		}
	}
}

// TestDecideFieldsRead checks which instance fields are shown to team
// decide rules evaluated on their own: the names they mention, or all of
// them when they use a default rule of the package.
func TestDecideFieldsRead(t *testing.T) {
	tests := []struct {
		name, src  string
		has, lacks []string // fields that must be in, and out of, the set
		all        bool
	}{
		{"names read", "package tenet.decide\n\nforce_replace contains [i, \"m\"] if {\n\tsome i, inst in input.instances\n\tinst.tainted\n}\n",
			[]string{"tainted", "instances"}, []string{"address", "name", "has_prior", "config"}, false},
		{"name as a string", "package tenet.decide\n\nforce_replace contains [i, \"m\"] if {\n\tsome i, inst in input.instances\n\tobject.get(inst, \"address\", \"\") != \"\"\n}\n",
			[]string{"address"}, []string{"name"}, false},
		{"default rule used", "package tenet.decide\n\nforce_replace contains [i, \"m\"] if {\n\tsome i in with_prior\n}\n",
			nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, diags := New(context.Background(), Options{Team: []Source{{Name: "team", FS: fstest.MapFS{"r.rego": {Data: []byte(tt.src)}}}}})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := e.omit.decideFields
			if tt.all {
				if got != nil {
					t.Fatalf("fields %v, want all (nil)", got)
				}
				return
			}
			for _, f := range tt.has {
				if !got[f] {
					t.Errorf("field %q is not shown, but the rule reads it", f)
				}
			}
			for _, f := range tt.lacks {
				if got[f] {
					t.Errorf("field %q is shown, but no rule names it", f)
				}
			}
		})
	}
}

// TestStageModules checks how team files are split between the stages
// compiled in parallel: a helper package goes to every stage, a file that
// reaches into another stage's package makes everything compile together.
func TestStageModules(t *testing.T) {
	defaults, diags := parseDefaults()
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	parse := func(name, src string) *ast.Module {
		m, err := parseModule(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	helper := parse("team/lib.rego", "package acme.lib\n\nprod if input.run.variables.env == \"prod\"\n")
	decide := parse("team/d.rego", "package tenet.decide\n\nforce_replace contains [0, \"x\"] if data.acme.lib.prod\n")
	stages, ok := stageModules(defaults, []*ast.Module{helper, decide})
	if !ok {
		t.Fatal("files that stay in their stage should compile per stage")
	}
	for name, mods := range stages {
		if mods["team/lib.rego"] == nil {
			t.Errorf("stage %s lacks the helper package", name)
		}
		if (mods["team/d.rego"] != nil) != (name == "decide") {
			t.Errorf("stage %s: decide team file present = %v", name, mods["team/d.rego"] != nil)
		}
	}
	crossing := parse("team/c.rego", "package tenet.decide\n\nforce_replace contains [0, \"x\"] if count(data.tenet.prepare.result.ignore) > 0\n")
	if _, ok := stageModules(defaults, []*ast.Module{crossing}); ok {
		t.Error("a decide file reading the prepare package must compile with everything")
	}
	// Both ways, the rules work.
	for _, files := range []map[string]string{
		{"lib.rego": "package acme.lib\n\nprod if input.run.variables.env == \"prod\"\n", "d.rego": "package tenet.decide\n\nforce_replace contains [i, \"prod\"] if {\n\tdata.acme.lib.prod\n\tsome i, _ in input.instances\n}\n"},
		{"c.rego": "package tenet.decide\n\nforce_replace contains [i, \"prod\"] if {\n\tinput.run.variables.env == \"prod\"\n\tnot data.tenet.prepare.nothing\n\tsome i, _ in input.instances\n}\n"},
	} {
		e := newTestEngine(t, files)
		in := benchInstances(1)[0]
		got, err := e.Decide(context.Background(), Run{Mode: ModeNormal, Variables: map[string]cty.Value{"env": cty.StringVal("prod")}}, []Instance{in})
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Action != "delete-then-create" {
			t.Errorf("files %v: action %q, want the forced replace", files, got[0].Action)
		}
	}
}
