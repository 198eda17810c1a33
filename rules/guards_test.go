package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// guardRuleSets are team rule files for the guard tests: the documented
// examples, and rules whose conditions guards read or must not read.
func guardRuleSets(t *testing.T) map[string]map[string]string {
	examples := map[string]string{}
	files, err := filepath.Glob("../examples/rules/*.rego")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example rules: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		examples[filepath.Base(f)] = string(b)
	}
	return map[string]map[string]string{
		"examples": examples,
		"direct refs and predicates": {"r.rego": `package tenet.decide

force_replace contains [i, "object input"] if {
	is_object(input.instances[i].planned.values.input)
	input.instances[i].name == "web"
}

prevent_destroy contains [i, "tagged"] if {
	some i, inst in input.instances
	inst.prior.values.input.tags.keep == "yes"
}
`},
		"negation and helpers": {"r.rego": `package tenet.prepare

ignore_paths contains [i, ["input"]] if {
	some i, inst in input.instances
	not inst.prior.values.input.image
	is_plain(inst.config.values.input)
}

is_plain(v) if is_string(v)
`},
		"variables": {"r.rego": `package tenet.decide

prevent_destroy contains [i, "locked"] if {
	input.run.variables.lock == true
	some i, _ in input.instances
}

force_replace contains [i, input.run.variables.env] if {
	input.run.variables.env == "dev"
	some i, inst in input.instances
	inst.type == "terraform_data"
}
`},
		"differences and string tests": {"r.rego": `package tenet.decide

force_replace contains [i, "changed"] if {
	some i, inst in input.instances
	inst.prior.values.input != inst.config.values.input
}

prevent_destroy contains [i, "web"] if {
	some i, inst in input.instances
	startswith(inst.name, "web")
	endswith(inst.type, "_data")
	contains(inst.address, "[")
}
`, "p.rego": `package tenet.prepare

equivalent contains [i, ["input"]] if {
	some i, inst in input.instances
	old := inst.prior.values.input
	new := inst.config.values.input
	old != new
	startswith(object.get(old, "image", ""), "v")
}
`},
		"relates instances (no guards)": {"r.rego": `package tenet.decide

force_replace contains [i, "twin"] if {
	some i, a in input.instances
	some j, b in input.instances
	i != j
	a.config.values.input == b.config.values.input
	a.prior.values.input.image
}
`},
		"always (no guards)": {"r.rego": `package tenet.prepare

equivalent contains [i, ["triggers_replace"]] if {
	some i, inst in input.instances
	inst.has_prior
}
`},
	}
}

// guardInstances are instances of every kind guards distinguish.
func guardInstances(n int, seed uint64) []Instance {
	r := rand.New(rand.NewPCG(seed, 1))
	inputs := []cty.Value{
		cty.StringVal("x"),
		cty.StringVal(`{"a": 1}`),
		cty.StringVal(`{"a":1}`),
		cty.NullVal(cty.String),
		cty.UnknownVal(cty.String),
		cty.ObjectVal(map[string]cty.Value{"image": cty.StringVal("v1")}),
		cty.ObjectVal(map[string]cty.Value{"image": cty.StringVal("v2")}),
		cty.ObjectVal(map[string]cty.Value{"image": cty.StringVal("v1").Mark("sensitive")}),
		cty.ObjectVal(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"keep": cty.StringVal("yes")})}),
		cty.ObjectVal(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"keep": cty.StringVal("no")})}),
		cty.ObjectVal(map[string]cty.Value{"image": cty.UnknownVal(cty.String)}),
	}
	triggers := []cty.Value{
		cty.NullVal(cty.Map(cty.String)),
		cty.MapVal(map[string]cty.Value{"autoscaler/min": cty.StringVal("1"), "other": cty.StringVal("2")}),
		cty.MapVal(map[string]cty.Value{"other": cty.StringVal("2")}),
	}
	obj := func() cty.Value {
		in := inputs[r.IntN(len(inputs))]
		return cty.ObjectVal(map[string]cty.Value{
			"input":            in,
			"triggers":         triggers[r.IntN(len(triggers))],
			"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
		})
	}
	types := []string{"terraform_data", "null_resource"}
	names := []string{"db", "web", "frontend_a", "legacy_x"}
	out := make([]Instance, n)
	for i := range out {
		typ, name := types[r.IntN(len(types))], names[r.IntN(len(names))]
		in := Instance{
			Address: fmt.Sprintf("%s.%s[%d]", typ, name, i), Resource: typ + "." + name,
			Mode: "managed", Type: typ, Name: name, Key: i,
			HasConfig: r.IntN(5) > 0, HasPrior: r.IntN(3) > 0,
		}
		if in.HasConfig {
			in.Config = obj()
			in.ConfigKnown = in.Config.IsWhollyKnown()
		}
		if in.HasPrior {
			in.Prior = obj()
			if in.HasConfig && r.IntN(3) == 0 {
				in.Prior = in.Config // unchanged
			}
		}
		if in.HasConfig && r.IntN(2) == 0 {
			in.HasPlanned = true
			in.Planned = obj()
		}
		out[i] = in
	}
	return out
}

func prepareBatch(batch []Instance, seed uint64) []PrepareInstance {
	r := rand.New(rand.NewPCG(seed, 2))
	out := make([]PrepareInstance, len(batch))
	for i, in := range batch {
		out[i] = PrepareInstance{Address: in.Address, Resource: in.Resource, Module: in.Module, Type: in.Type, Name: in.Name, Key: in.Key,
			HasPrior: in.HasPrior, Config: in.Config, Prior: in.Prior}
		if r.IntN(6) == 0 {
			out[i].IgnoreChanges = stepPaths([]any{"input"})
		}
	}
	return out
}

// TestGuardsChangeNothing: leaving out the instances guards reject gives
// the same preparations and decisions as evaluating every instance, for
// every rule set, run and batch.
func TestGuardsChangeNothing(t *testing.T) {
	runs := map[string]Run{
		"no variables": {Mode: ModeNormal, Timestamp: caseTimestamp},
		"prod": {Mode: ModeNormal, Timestamp: caseTimestamp, Variables: map[string]cty.Value{
			"env": cty.StringVal("prod"), "lock": cty.True}},
		"dev": {Mode: ModeNormal, Timestamp: caseTimestamp, Variables: map[string]cty.Value{
			"env": cty.StringVal("dev").Mark("sensitive"), "lock": cty.False}},
	}
	guarded := 0
	for setName, files := range guardRuleSets(t) {
		e := newTestEngine(t, files)
		if e.guards.decide != nil || e.guards.prepare != nil {
			guarded++
		}
		plain := newReferenceEngine(t, files)
		for runName, run := range runs {
			for _, n := range []int{1, 7, 600} {
				t.Run(fmt.Sprintf("%s/%s/%d", setName, runName, n), func(t *testing.T) {
					batch := guardInstances(n, uint64(n))
					pb := prepareBatch(batch, uint64(n))
					want, err := plain.Prepare(context.Background(), run, pb)
					if err != nil {
						t.Fatal(err)
					}
					got, err := e.Prepare(context.Background(), run, pb)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, got, cmp.AllowUnexported(Preparation{}), cmp.FilterPath(isShown, cmp.Ignore()), asSteps); diff != "" {
						t.Fatalf("preparations (-all +guarded):\n%s", diff)
					}
					wantD, err := plain.Decide(context.Background(), run, batch)
					if err != nil {
						t.Fatal(err)
					}
					gotD, err := e.Decide(context.Background(), run, batch)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(wantD, gotD); diff != "" {
						t.Fatalf("decisions (-all +guarded):\n%s", diff)
					}
				})
			}
		}
	}
	if guarded == 0 {
		t.Fatal("no rule set had guards: the test compares nothing")
	}
}

func isShown(p cmp.Path) bool { return p.Last().String() == ".shown" }

// TestGuardsRead: which rule sets get guards, and that they reject what
// they should.
func TestGuardsRead(t *testing.T) {
	sets := guardRuleSets(t)
	for _, tt := range []struct {
		set             string
		decide, prepare bool
	}{
		// A stage no team rule extends has guards that leave out every
		// instance (only configured ignore_changes is then prepared).
		{"examples", true, true},
		{"direct refs and predicates", true, true},
		{"negation and helpers", true, true},
		{"variables", true, true},
		{"differences and string tests", true, true},
		{"relates instances (no guards)", false, true},
		{"always (no guards)", true, false},
	} {
		t.Run(tt.set, func(t *testing.T) {
			e := newTestEngine(t, sets[tt.set])
			if got := e.guards.decide != nil; got != tt.decide {
				t.Errorf("decide guards: %v, want %v", got, tt.decide)
			}
			if got := e.guards.prepare != nil; got != tt.prepare {
				t.Errorf("prepare guards: %v, want %v", got, tt.prepare)
			}
		})
	}
	// The examples' guards leave out a plan from an empty state entirely,
	// and a prior whose input is not a JSON document or an object with an
	// image.
	e := newTestEngine(t, sets["examples"])
	create := []PrepareInstance{{Address: "terraform_data.r[0]", Type: "terraform_data", Name: "r",
		Config: cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("x-0")})}}
	if sel := e.prepareSelection(Run{}, create); sel == nil || len(sel) != 0 {
		t.Errorf("prepare selection of a create: %v, want none", sel)
	}
	// Without triggers the autoscaler rule has no keys to iterate, and the
	// JSON rule needs JSON documents.
	unchanged := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("x-0"), "triggers": cty.NullVal(cty.Map(cty.String))})
	prepared := []PrepareInstance{{Address: "terraform_data.r[0]", Type: "terraform_data", Name: "r", HasPrior: true, Config: unchanged, Prior: unchanged}}
	if sel := e.prepareSelection(Run{}, prepared); sel == nil || len(sel) != 0 {
		t.Errorf("prepare selection of an unchanged instance without triggers: %v, want none", sel)
	}
	withKeys := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("x-0"), "triggers": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")})})
	prepared[0].Prior = withKeys
	if sel := e.prepareSelection(Run{}, prepared); len(sel) != 1 {
		t.Errorf("prepare selection of an instance with prior triggers: %v, want it", sel)
	}
	noChange := []Instance{{Address: "terraform_data.r[0]", Type: "terraform_data", Name: "r", HasConfig: true, HasPrior: true,
		Config: cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("x-0")}),
		Prior:  cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("x-0")})}}
	if sel, _ := e.decideSelection(Run{}, noChange, true); sel == nil || len(sel) != 0 {
		t.Errorf("decide selection of an unchanged string input: %v, want none", sel)
	}
	prod := Run{Variables: map[string]cty.Value{"env": cty.StringVal("prod")}}
	db := []Instance{{Address: "terraform_data.db", Type: "terraform_data", Name: "db"}}
	if sel, _ := e.decideSelection(prod, db, true); len(sel) != 1 {
		t.Errorf("decide selection of the production database: %v, want it", sel)
	}
}

// TestGuardsReadsValues: a rule is known not to read values only when it
// names none and uses its instance through constant member names.
func TestGuardsReadsValues(t *testing.T) {
	for _, tt := range []struct {
		body string
		want bool
	}{
		{`inst.type == "x"`, false},
		{`input.instances[i].name == "db"`, false},
		{`startswith(inst.name, "web")`, false},
		{`inst.config.values.a == 1`, true},
		{`input.instances[i].prior.values.a == 1`, true},
		{`object.get(inst, "planned", {}) != {}`, true},
		{`some k in ["type"]` + "\n\t" + `inst[k] == "x"`, true},
		{`is_tagged(inst)`, true},
		{`x := inst` + "\n\t" + `x.type == "y"`, true},
	} {
		t.Run(tt.body, func(t *testing.T) {
			src := "package tenet.decide\n\nis_tagged(x) if x.name == \"t\"\n\nforce_replace contains [i, \"m\"] if {\n\tinput.run.variables.env == \"prod\"\n\tsome i, inst in input.instances\n\t" + tt.body + "\n}\n"
			e := newTestEngine(t, map[string]string{"r.rego": src})
			g := e.guards.decide
			if g == nil || len(g.readsValues) != 1 {
				t.Fatalf("guards %+v, want one rule", g)
			}
			if got := g.readsValues[0]; got != tt.want {
				t.Errorf("reads values: %v, want %v", got, tt.want)
			}
		})
	}
}
