package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTeamRulesFailClosed: a team rule that cannot be evaluated, emits a
// malformed element, outlives its limit or calls a clock-reading built-in
// stops destroy with its file and line, and every object stays in the
// state. Team rules are given with -rules only to destroy, so that the
// objects are created first.
func TestTeamRulesFailClosed(t *testing.T) {
	tests := []struct {
		name, rule string
		env        map[string]string
		expect     []string
	}{
		{
			name: "prevent_destroy errors at evaluation",
			rule: `package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, inst in input.instances
	to_number("ten") > 3
}
`,
			expect: []string{"Team rule failed", "team/keep.rego:5: evaluation failed: to_number"},
		},
		{
			name: "prevent_destroy names the address instead of the index",
			rule: `package tenet.decide

prevent_destroy contains [inst.address, "kept"] if {
	some inst in input.instances
}
`,
			expect: []string{"Team rule failed", "team/keep.rego:3: prevent_destroy element"},
		},
		{
			name: "prevent_destroy runs past the time limit",
			rule: `package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, _ in input.instances
	count([x | some a in numbers.range(1, 1000); some b in numbers.range(1, 1000); some c in numbers.range(1, 1000); x := a + b + c]) > 0
}
`,
			env:    map[string]string{"TENET_RULES_TIME_LIMIT": "500ms"},
			expect: []string{"limit of 500ms", "TENET_RULES_TIME_LIMIT"},
		},
		{
			name: "prevent_destroy reads the clock through a JWT check",
			rule: `package tenet.decide

prevent_destroy contains [i, "kept"] if {
	some i, _ in input.instances
	[valid, _, _] := io.jwt.decode_verify(input.run.variables.token, {"secret": "s"})
	valid
}
`,
			expect: []string{"Forbidden built-in function in rule", "team/keep.rego:5: io.jwt.decode_verify"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"db\" {\n  input = \"orders\"\n}\n")
			writeFile(t, filepath.Join(dir, "team/keep.rego"), tt.rule)
			if code, out := runTenetIn(t, dir, "apply", "-auto-approve"); code != 0 {
				t.Fatalf("apply: exit %d\n%s", code, out)
			}
			code, out := runTenetIn(t, dir, "destroy", "-auto-approve", "-rules=team")
			if code == 0 {
				t.Fatalf("destroy with a broken protection rule succeeded\n%s", out)
			}
			if missing := missingInOrder(out, tt.expect); missing != "" {
				t.Fatalf("destroy output lacks %q (in order)\n%s", missing, out)
			}
			code, out = runTenetIn(t, dir, "state", "list")
			if code != 0 || strings.TrimSpace(out) != "terraform_data.db" {
				t.Fatalf("state list = %q (exit %d), want terraform_data.db kept", out, code)
			}
		})
	}
}

// TestTeamRuleMessageRedactsSensitiveValues: a force_replace message built
// from a sensitive variable shows "(sensitive value)" in the explanation.
func TestTeamRuleMessageRedactsSensitiveValues(t *testing.T) {
	runScenarios(t, []teamScenario{{
		name: "sensitive variable in a message",
		files: map[string]string{
			"main.tf": "variable \"token\" {\n  default   = \"t0ps3cret\"\n  sensitive = true\n}\n\nresource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n",
			"team/r.rego": `package tenet.decide

force_replace contains [i, sprintf("rotated with token %s", [input.run.variables.token])] if {
	some i, _ in input.instances
}
`,
		},
		steps: []teamStep{
			step(0, "apply -auto-approve", applyOK),
			{args: strings.Fields("plan -rules=team -explain"), expect: []string{"message: rotated with token (sensitive value)"}, reject: []string{"t0ps3cret"}},
		},
	}})
}
