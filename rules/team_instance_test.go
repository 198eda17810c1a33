package rules

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"
)

// TestPerInstanceRulesMatchChunkForm: a team rule written about one
// instance (input.instance, elements without an index) decides exactly as
// the same rule written over input.instances with [i, ...] elements, with
// the same provenance, and keeps its guards (so it costs no more).
func TestPerInstanceRulesMatchChunkForm(t *testing.T) {
	tests := []struct {
		name              string
		perInstance, hand string
	}{
		{
			name: "force_replace by reference",
			perInstance: `package tenet.decide

force_replace contains sprintf("image %s", [input.instance.config.values.image]) if {
	input.instance.type == "vm"

	input.instance.config.values.image != input.instance.prior.values.image
}
`,
			hand: `package tenet.decide

force_replace contains [i, sprintf("image %s", [inst.config.values.image])] if {
	some i, inst in input.instances
	inst.type == "vm"
	inst.config.values.image != inst.prior.values.image
}
`,
		},
		{
			name: "prevent_destroy through an alias",
			perInstance: `package tenet.decide

prevent_destroy contains "databases are kept" if {
	db := input.instance
	db.type == "db"
}
`,
			hand: `package tenet.decide

prevent_destroy contains [i, "databases are kept"] if {
	some i, db in input.instances
	db.type == "db"
}
`,
		},
	}
	obj := func(image string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"image": cty.StringVal(image)})
	}
	batch := []Instance{
		{Address: "vm.a", Mode: "managed", Type: "vm", HasConfig: true, Config: obj("v2"), HasPrior: true, Prior: obj("v1"), HasPlanned: true, Planned: obj("v2")},
		{Address: "vm.b", Mode: "managed", Type: "vm", HasConfig: true, Config: obj("v1"), HasPrior: true, Prior: obj("v1"), HasPlanned: true, Planned: obj("v1"), PlannedEqualsPrior: true},
		{Address: "db.a", Mode: "managed", Type: "db", HasPrior: true, Prior: obj("v1"), Orphan: Orphan{ResourceInConfig: true, ModuleDeclared: true}},
		{Address: "db.b", Mode: "managed", Type: "db", HasConfig: true, Config: obj("v1"), HasPrior: true, Prior: obj("v1"), HasPlanned: true, Planned: obj("v1"), PlannedEqualsPrior: true},
	}
	decide := func(t *testing.T, src string) ([]Decision, bool) {
		e := newTestEngine(t, map[string]string{"team.rego": src})
		got, err := e.Decide(context.Background(), Run{Mode: ModeNormal, Timestamp: caseTimestamp}, batch)
		if err != nil {
			t.Fatal(err)
		}
		return got, e.guards.decide != nil
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, wantGuarded := decide(t, tt.hand)
			got, guarded := decide(t, tt.perInstance)
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Decision{})); diff != "" {
				t.Errorf("decisions (-chunk form +per instance):\n%s", diff)
			}
			if guarded != wantGuarded || !guarded {
				t.Errorf("guards read: per instance %v, chunk form %v; want both", guarded, wantGuarded)
			}
			if len(want[0].Provenance) < 2 && len(want[2].Errors) == 0 {
				t.Fatalf("the team rule decided nothing: %+v", want)
			}
		})
	}
}

// TestPerInstancePrepare: ignore_paths written about one instance.
func TestPerInstancePrepare(t *testing.T) {
	e := newTestEngine(t, map[string]string{"p.rego": `package tenet.prepare

ignore_paths contains ["tags", k] if {
	some k, _ in input.instance.config.values.tags
	startswith(k, "ext/")
}
`})
	tags := func(ext string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"ext/a": cty.StringVal(ext), "own": cty.StringVal("2")})})
	}
	got, err := e.Prepare(context.Background(), Run{Mode: ModeNormal, Timestamp: caseTimestamp}, []PrepareInstance{
		{Address: "x.a", Type: "x", HasPrior: true, Config: tags("1"), Prior: tags("0")},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{"tags", "ext/a"}}
	if diff := cmp.Diff(stepPaths(want...), got[0].Ignore, asSteps); diff != "" {
		t.Errorf("ignored paths (-want +got):\n%s", diff)
	}
	if len(got[0].Provenance) != 1 || got[0].Provenance[0].Line != 3 {
		t.Errorf("provenance = %+v, want the team rule at line 3", got[0].Provenance)
	}
}

// TestInstanceOutsideExtensionRule: input.instance read where no instance
// is set is refused, naming the rule's line, rather than being undefined.
func TestInstanceOutsideExtensionRule(t *testing.T) {
	for _, pkg := range []string{"tenet.decide", "tenet.cbd", "acme"} {
		t.Run(pkg, func(t *testing.T) {
			src := fmt.Sprintf("package %s\n\nis_db if {\n\tinput.instance.type == \"db\"\n}\n", pkg)
			_, diags := New(context.Background(), Options{Team: []Source{{Name: ".tenet/rules", FS: fstest.MapFS{"team.rego": {Data: []byte(src)}}}}})
			if !diags.HasErrors() {
				t.Fatal("want an error, got none")
			}
			d := diags[0]
			got := fmt.Sprintf("%s @ %s:%d", d.Summary, d.Subject.Filename, d.Subject.Start.Line)
			if want := "input.instance outside an extension rule @ .tenet/rules/team.rego:3"; got != want {
				t.Errorf("diagnostic = %q, want %q (%s)", got, want, d.Detail)
			}
		})
	}
}
