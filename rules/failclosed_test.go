package rules

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// evalStageOnce evaluates one stage of e over a small fixed input: two
// managed instances in destroy mode (decide), two instances with prior
// objects (prepare), two resources (cbd), two state resources (moves).
func evalStageOnce(ctx context.Context, e *Engine, stage string) error {
	run := Run{Mode: ModeDestroy, Timestamp: caseTimestamp}
	obj := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("orders"), "size": cty.StringVal("ten")})
	switch stage {
	case "decide":
		_, err := e.Decide(ctx, run, []Instance{
			{Address: "db.a", Resource: "db.a", Mode: "managed", Type: "db", Name: "a", HasPrior: true, Prior: obj},
			{Address: "db.b", Resource: "db.b", Mode: "managed", Type: "db", Name: "b", HasPrior: true, Prior: obj},
		})
		return err
	case "prepare":
		run.Mode = ModeNormal
		_, err := e.Prepare(ctx, run, []PrepareInstance{
			{Address: "db.a", Type: "db", Name: "a", HasPrior: true, Config: obj, Prior: obj},
			{Address: "db.b", Type: "db", Name: "b", HasPrior: true, Config: obj, Prior: obj},
		})
		return err
	case "cbd":
		_, err := e.ForcedCreateBeforeDestroy(ctx, ResourceGraph{Run: run, Resources: []GraphResource{{Address: "db.a"}, {Address: "db.b", DependsOn: []string{"db.a"}}}})
		return err
	case "moves":
		_, err := e.ComputedMoves(ctx, run, MoveCandidates{State: []MoveCandidate{{Address: "db.a", Mode: "managed", Type: "db", Name: "a"}}})
		return err
	}
	panic("unknown stage " + stage)
}

// failClosedCases are team rules that cannot be evaluated or emit elements
// of the wrong shape, each with the line the plan's error must name.
var failClosedCases = []struct {
	name, stage, src string
	line             int
	// helper, when set, is acme.rego, where the error is (line 3).
	helper string
}{
	{"prevent_destroy: to_number of a word", "decide", `package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, inst in input.instances
	to_number(inst.prior.values.size) > 3
}
`, 5, ""},
	{"prevent_destroy: division by zero", "decide", `package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, inst in input.instances
	x := 1 / 0
	x > 0
}
`, 5, ""},
	{"prevent_destroy: error under not", "decide", `package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, _ in input.instances
	not to_number("ten") == 1
}
`, 5, ""},
	{"prevent_destroy: bare string", "decide", `package tenet.decide

prevent_destroy contains "kept" if {
	some _ in input.instances
}
`, 3, ""},
	{"prevent_destroy: address instead of index", "decide", `package tenet.decide

prevent_destroy contains [inst.address, "kept"] if {
	some inst in input.instances
}
`, 3, ""},
	{"prevent_destroy: index only", "decide", `package tenet.decide

prevent_destroy contains [i] if {
	some i, _ in input.instances
}
`, 3, ""},
	{"prevent_destroy: index out of range", "decide", `package tenet.decide

prevent_destroy contains [i + 7, "kept"] if {
	some i, _ in input.instances
}
`, 3, ""},
	{"prevent_destroy: message not a string", "decide", `package tenet.decide

prevent_destroy contains [i, {"why": "kept"}] if {
	some i, _ in input.instances
}
`, 3, ""},
	{"prevent_destroy: error in a helper package", "decide", `package tenet.decide

import data.acme

prevent_destroy contains [i, "kept"] if {
	some i, inst in input.instances
	acme.big(inst)
}
`, 3, "package acme\n\nbig(inst) if to_number(inst.prior.values.size) > 3\n"},
	{"force_replace: invalid regex", "decide", `package tenet.decide

force_replace contains [i, "rebuilt"] if {
	some i, inst in input.instances
	regex.match("(", inst.name)
}
`, 5, ""},
	{"force_replace: negative index", "decide", `package tenet.decide

force_replace contains [-1, "rebuilt"] if {
	some _ in input.instances
}
`, 3, ""},
	{"ignore_paths: invalid JSON", "prepare", `package tenet.prepare

ignore_paths contains [i, ["name"]] if {
	some i, inst in input.instances
	json.unmarshal(inst.config.values.name)
}
`, 5, ""},
	{"ignore_paths: path not an array", "prepare", `package tenet.prepare

ignore_paths contains [i, 7] if {
	some i, _ in input.instances
}
`, 3, ""},
	{"equivalent: no path", "prepare", `package tenet.prepare

equivalent contains [i] if {
	some i, _ in input.instances
}
`, 3, ""},
	{"force_create_before_destroy: error", "cbd", `package tenet.cbd

force_create_before_destroy contains r.address if {
	some r in input.resources
	to_number(r.address) > 0
}
`, 5, ""},
	{"force_create_before_destroy: not an address", "cbd", `package tenet.cbd

force_create_before_destroy contains 7 if {
	some _ in input.resources
}
`, 3, ""},
	{"moves: error", "moves", `package tenet.moves

moves contains [r.address, to] if {
	some r in input.state.resources
	to := sprintf("%s.%s", [r.type, base64.decode("%%")])
}
`, 5, ""},
}

// TestTeamRulesFailClosed: a team rule that errors at evaluation or emits a
// malformed element stops the stage with an error naming the rule's file
// and line; it is never ignored.
func TestTeamRulesFailClosed(t *testing.T) {
	for _, tc := range failClosedCases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"t.rego": tc.src}
			wantFile := ".tenet/rules/t.rego"
			if tc.helper != "" {
				files["acme.rego"], wantFile = tc.helper, ".tenet/rules/acme.rego"
			}
			e := newTestEngine(t, files)
			err := evalStageOnce(context.Background(), e, tc.stage)
			var re *RuleError
			if !errors.As(err, &re) {
				t.Fatalf("error = %v, want a RuleError", err)
			}
			got := fmt.Sprintf("%s:%d", re.File, re.Line)
			if diff := cmp.Diff(fmt.Sprintf("%s:%d", wantFile, tc.line), got); diff != "" {
				t.Errorf("rule location (-want +got):\n%s\nerror: %v", diff, err)
			}
			// As a diagnostic, the error's subject is the rule.
			d := re.Diagnostic()
			if d.Subject == nil || fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line) != got {
				t.Errorf("diagnostic subject = %v, want %s", d.Subject, got)
			}
		})
	}
}

// TestTeamRulesTypeMismatchIsUndefined: an operand of the wrong type is a
// condition that does not hold, as in Rego, not an error.
func TestTeamRulesTypeMismatchIsUndefined(t *testing.T) {
	e := newTestEngine(t, map[string]string{"t.rego": `package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, inst in input.instances
	startswith(inst.prior.values.name, "orders")
}

prevent_destroy contains [i, "never"] if {
	some i, inst in input.instances
	startswith(inst.prior.values, "orders")
}
`})
	got, err := e.Decide(context.Background(), Run{Mode: ModeDestroy, Timestamp: caseTimestamp}, []Instance{
		{Address: "db.a", Resource: "db.a", Mode: "managed", Type: "db", Name: "a", HasPrior: true,
			Prior: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("orders")})},
	})
	if err != nil {
		t.Fatal(err)
	}
	var details []string
	for _, f := range got[0].Errors {
		details = append(details, f.Detail)
	}
	want := []string{"Resource db.a is protected by a team rule: kept. This plan would destroy it. To continue, change the rule or limit the plan with -target so that it leaves this resource alone."}
	if diff := cmp.Diff(want, details); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
