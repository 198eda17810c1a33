package policy

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/rego"
)

// The gate fails closed: a policy that errors at evaluation must block,
// whatever tenet does to evaluate it cheaply (pruning the input, trying
// one change of each kind first, evaluating each definition of a rule
// apart). FuzzFailClosed builds deny policies around a fuzzed expression,
// checks them as the gate does, and compares with plain OPA evaluating
// the same rule over the whole plan: when OPA errors, or denies, the
// gate must not pass.

// failClosedPlan has two changes alike but for their address and a third
// of another kind, so that the one-change-of-each-kind path runs.
const failClosedPlan = `{"format_version": "1.2", "resource_changes": [
 {"address": "a.x", "mode": "managed", "type": "a", "name": "x", "change": {"actions": ["create"], "before": null, "after": {"n": 1, "s": "one", "l": [1, 2]}}},
 {"address": "a.y", "mode": "managed", "type": "a", "name": "y", "change": {"actions": ["create"], "before": null, "after": {"n": 1, "s": "one", "l": [1, 2]}}},
 {"address": "b.z", "mode": "managed", "type": "b", "name": "z", "change": {"actions": ["delete", "create"], "before": {"n": 0, "s": ""}, "after": {"n": 0, "s": ""}}}
], "variables": {"v": {"value": "7"}}}`

// failClosedPlans are the plans a fuzzed policy is checked over: the one
// above, no changes at all, and changes whose values are null.
var failClosedPlans = []string{
	failClosedPlan,
	`{"format_version": "1.2", "resource_changes": []}`,
	`{"format_version": "1.2", "resource_changes": [{"address": "c.n", "mode": "managed", "type": "c", "name": "n", "change": {"actions": ["delete"], "before": null, "after": null}}]}`,
}

// failClosedTemplates place the expression E in the places a policy can
// fail: a rule body, a change loop (alone, with a condition on the
// address, beside another change), a function, a negation, a
// comprehension, every, else, with, and complete rules that conflict.
var failClosedTemplates = []string{
	"deny contains \"d\" if { E }",
	"deny contains msg if {\n\tsome rc in input.resource_changes\n\tx := E\n\tmsg := sprintf(\"%s: %v\", [rc.address, x])\n}",
	"deny contains msg if {\n\tsome rc in input.resource_changes\n\tE\n\tmsg := rc.address\n}",
	"deny contains msg if {\n\tsome rc in input.resource_changes\n\tstartswith(rc.address, \"a.\")\n\tx := E\n\tmsg := sprintf(\"%v\", [x])\n}",
	"deny contains msg if {\n\tsome rc in input.resource_changes\n\tsome other in input.resource_changes\n\trc.address != other.address\n\tE\n\tmsg := rc.address\n}",
	"deny contains msg if { msg := f(input) }\nf(x) := y if { y := E }",
	"deny contains \"n\" if { not E }",
	"deny contains v if { v := count([y | some y in input.resource_changes; E]) }",
	"deny contains \"e\" if { every rc in input.resource_changes { E } }",
	"deny contains sprintf(\"%v\", [g]) if { true }\ng := x if { x := E } else := 0",
	"deny contains m if { m := h with input.extra as E }\nh := \"w\" if input.extra",
	"deny := {x} if { x := E }\ndeny := set() if { true }",
	"deny := set() if { E }\ndeny := [] if { true }",
	"default deny := set()\ndeny := {\"d\"} if { E }",
}

func failClosedModule(tmpl uint8, expr string) string {
	body := strings.ReplaceAll(failClosedTemplates[int(tmpl)%len(failClosedTemplates)], "E", expr)
	return "package fuzz\n\nimport rego.v1\n\n" + body + "\n"
}

// gateReport checks plan against the module as the CLI gate does: a set
// that does not load gives a report of its errors.
func gateReport(t *testing.T, module, plan string) *Report {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.rego"), []byte(module), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	set, diags := Load(ctx, Options{Paths: []string{dir}, Timeout: 2 * time.Second})
	if diags.HasErrors() {
		return ReportFromDiagnostics(diags)
	}
	rep, err := set.Check(ctx, []byte(plan))
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	return rep
}

// referenceDeny evaluates data.fuzz.deny with plain OPA over the whole
// input: its value, or its error. ok is false when it did not finish.
func referenceDeny(module, plan string) (value any, evalErr error, ok bool) {
	var input any
	if err := json.Unmarshal([]byte(plan), &input); err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rs, err := rego.New(
		rego.Module("p.rego", module),
		rego.Query("data.fuzz.deny"),
		rego.Input(input),
		rego.StrictBuiltinErrors(true),
	).Eval(ctx)
	if ctx.Err() != nil {
		return nil, nil, false
	}
	if err != nil {
		return nil, err, true
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return nil, nil, true
	}
	return rs[0].Expressions[0].Value, nil, true
}

func nonEmpty(v any) bool {
	switch x := v.(type) {
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case string:
		return x != ""
	case bool:
		return x
	}
	return v != nil
}

func FuzzFailClosed(f *testing.F) {
	exprs := []string{
		"1 / 0",
		"count(input.resource_changes) % 0",
		`to_number("x")`,
		`to_number(rc.address)`,
		"1 / (count(rc.change.actions) - 1)",
		`"a" + 1`,
		"undefined_function(1)",
		`json.unmarshal("{")`,
		`regex.match("[", "a")`,
		`units.parse_bytes("x")`,
		`base64.decode("%%%")`,
		`sum(["a"])`,
		`object.get(1, "a", 2)`,
		`rc.change.after.n / rc.change.after.n`,
		`to_number(input.variables.v.value) / 0`,
		`json.unmarshal(rc.change.after.s)`,
		`numbers.range(1, "a")`,
		`time.parse_rfc3339_ns("yesterday")`,
		`semver.compare("1", "x")`,
		"true",
		"false",
	}
	for i := range failClosedTemplates {
		for _, e := range exprs {
			f.Add(uint8(i), e, uint8(0))
		}
	}
	f.Add(uint8(2), "rc.change.after.n > 0", uint8(2))
	f.Fuzz(func(t *testing.T, tmpl uint8, expr string, planIdx uint8) {
		if len(expr) > 200 || strings.ContainsAny(expr, "\x00") {
			t.Skip()
		}
		module := failClosedModule(tmpl, expr)
		plan := failClosedPlans[int(planIdx)%len(failClosedPlans)]
		rep := gateReport(t, module, plan)
		if rep.Blocked() {
			return
		}
		// The gate passed: OPA over the whole plan must agree that the
		// rule neither errors nor denies.
		want, err, ok := referenceDeny(module, plan)
		if !ok {
			t.Skip("reference evaluation did not finish")
		}
		js, _ := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			t.Fatalf("the gate passed a policy that errors:\n%s\nOPA: %v\nreport: %s", module, err, js)
		}
		for _, res := range rep.Results {
			if res.Rule == "deny" && res.Level.Mandatory() && res.Status == StatusPass && nonEmpty(want) {
				t.Fatalf("the gate passed a policy that denies:\n%s\nOPA: %v\nreport: %s", module, want, js)
			}
		}
	})
}
