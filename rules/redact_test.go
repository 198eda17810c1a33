package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestTeamMessagesRedactSensitiveValues: a team message that quotes a
// sensitive attribute or variable shows "(sensitive value)" instead, in
// the decision's provenance and in its findings, whether or not decisions
// are shared by facts.
func TestTeamMessagesRedactSensitiveValues(t *testing.T) {
	team := map[string]string{"t.rego": `package tenet.decide

prevent_destroy contains [i, sprintf("db %s with password %s is kept", [inst.prior.values.name, inst.prior.values.password])] if {
	some i, inst in input.instances
	inst.type == "db"
}

force_replace contains [i, sprintf("token %s rotated, port %v", [input.run.variables.token, inst.prior.values.port])] if {
	some i, inst in input.instances
	inst.type == "vm"
}
`}
	prior := func(password string, port int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"name":     cty.StringVal("orders"),
			"password": cty.StringVal(password).Mark("sensitive"),
			"port":     cty.NumberIntVal(port).Mark("sensitive"),
		})
	}
	batch := []Instance{
		{Address: "db.a", Resource: "db.a", Mode: "managed", Type: "db", Name: "a", HasPrior: true, Prior: prior("hunter22", 5432)},
		{Address: "vm.a", Resource: "vm.a", Mode: "managed", Type: "vm", Name: "a", HasConfig: true, HasPrior: true, PlannedEqualsPrior: true, Prior: prior("x", 8443)},
	}
	run := Run{Mode: ModeNormal, Timestamp: caseTimestamp, Variables: map[string]cty.Value{"token": cty.StringVal("s3cr3t-token").Mark("sensitive")}}
	// db.a is an orphan (no configuration): a normal plan deletes it.
	batch[0].Orphan = Orphan{ResourceInConfig: true, Repetition: "none"}
	want := []string{
		"db.a: Resource db.a is protected by a team rule: db orders with password (sensitive value) is kept. This plan would destroy it. To continue, change the rule or limit the plan with -target so that it leaves this resource alone.",
		"db.a message: db orders with password (sensitive value) is kept",
		"vm.a message: token (sensitive value) rotated, port (sensitive value)",
	}
	for _, memo := range []bool{true, false} {
		e := newTestEngine(t, team)
		e.memo.enabled = memo
		got, err := e.Decide(context.Background(), run, batch)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for i, d := range got {
			for _, f := range d.Errors {
				lines = append(lines, batch[i].Address+": "+f.Detail)
			}
			for _, f := range d.Provenance {
				if f.Message != "" {
					lines = append(lines, batch[i].Address+" message: "+f.Message)
				}
			}
		}
		if diff := cmp.Diff(want, lines); diff != "" {
			t.Errorf("memo %v: messages (-want +got):\n%s", memo, diff)
		}
		for _, secret := range []string{"hunter22", "5432", "8443", "s3cr3t"} {
			if strings.Contains(strings.Join(lines, "\n"), secret) {
				t.Errorf("memo %v: a message quotes the sensitive %q", memo, secret)
			}
		}
	}
}
