package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// teamScenario is a working directory and the commands run in it, in order.
type teamScenario struct {
	name  string
	files map[string]string
	steps []teamStep
}

type teamStep struct {
	args   []string
	exit   int
	expect []string // lines (substrings) that must appear, in order
	reject []string // substrings that must not appear
}

func runScenarios(t *testing.T, scenarios []teamScenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range sc.files {
				writeFile(t, filepath.Join(dir, name), content)
			}
			for _, st := range sc.steps {
				code, out := runTenetIn(t, dir, st.args...)
				cmd := "tenet " + strings.Join(st.args, " ")
				if code != st.exit {
					t.Fatalf("%s: exit status %d, want %d\n%s", cmd, code, st.exit, out)
				}
				if missing := missingInOrder(out, st.expect); missing != "" {
					t.Fatalf("%s: output lacks %q (in order)\n%s", cmd, missing, out)
				}
				for _, r := range st.reject {
					if strings.Contains(out, r) {
						t.Fatalf("%s: output has %q\n%s", cmd, r, out)
					}
				}
			}
		})
	}
}

func step(exit int, args string, expect ...string) teamStep {
	return teamStep{args: strings.Fields(args), exit: exit, expect: expect}
}

const applyOK = "Apply complete!"

// oneResource is a configuration of one terraform_data resource.
const oneResource = "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n"

// replaceWhenInputChanges is a tenet.decide rule forcing the replacement,
// with message, of every instance whose configured input differs from
// its prior one.
func replaceWhenInputChanges(message string) string {
	return `package tenet.decide

force_replace contains [i, "` + message + `"] if {
	some i, inst in input.instances
	inst.prior.values.input != inst.config.values.input
}
`
}

// everyInstanceRule is a tenet.decide rule that puts every instance in set
// (force_replace, prevent_destroy) with message.
func everyInstanceRule(set, message string) string {
	return "package tenet.decide\n\n" + set + " contains [i, \"" + message + "\"] if {\n\tsome i, _ in input.instances\n}\n"
}

// TestTeamExtensionPoints checks each extension point through the CLI, with
// a rule file in .tenet/rules or in a -rules directory.
func TestTeamExtensionPoints(t *testing.T) {
	runScenarios(t, []teamScenario{
		{
			name: "force_replace with message",
			files: map[string]string{
				"main.tf":             "variable \"v\" {\n  default = \"1\"\n}\n\nresource \"terraform_data\" \"a\" {\n  input = var.v\n}\n",
				".tenet/rules/r.rego": replaceWhenInputChanges("input changed"),
			},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				step(0, "plan", "No changes."),
				step(0, "plan -var v=2 -explain", "# terraform_data.a will be replaced, as requested", "Plan: 1 to add, 0 to change, 1 to destroy.",
					"reason: replace_by_request", "team:.tenet/rules/r.rego:3 at .tenet/rules/r.rego:3", "message: input changed"),
			},
		},
		{
			name: "prevent_destroy from a -rules directory",
			files: map[string]string{
				"main.tf": oneResource,
				"team/keep.rego": `package tenet.decide

prevent_destroy contains [i, "kept by policy"] if {
	some i, inst in input.instances
	inst.name == "a"
}
`,
			},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				step(0, "plan -destroy", "1 to destroy"),
				step(1, "plan -destroy -rules=team", "Error: Instance cannot be destroyed", "protected by a team rule: kept by policy"),
				step(1, "apply -destroy -auto-approve -rules=team", "Error: Instance cannot be destroyed"),
				step(0, "plan -rules=team", "No changes."),
			},
		},
		{
			name: "dynamic prevent_destroy reads variables",
			files: map[string]string{
				"main.tf": "variable \"env\" {\n  default = \"dev\"\n}\n\nresource \"terraform_data\" \"a\" {\n  triggers_replace = var.env\n}\n",
				".tenet/rules/r.rego": `package tenet.decide

prevent_destroy contains [i, "prod"] if {
	input.run.variables.env == "prod"
	some i, _ in input.instances
}
`,
			},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				// Replacing is destroying: from dev to prod is allowed, the rule
				// reads the new value of the variable.
				step(1, "plan -var env=prod", "Error: Instance cannot be destroyed"),
				step(0, "plan -var env=staging", "1 to add, 0 to change, 1 to destroy"),
			},
		},
		{
			name: "force_create_before_destroy",
			files: map[string]string{
				"main.tf":             "variable \"v\" {\n  default = \"1\"\n}\n\nresource \"terraform_data\" \"a\" {\n  triggers_replace = var.v\n}\n",
				".tenet/rules/r.rego": "package tenet.cbd\n\nforce_create_before_destroy contains \"terraform_data.a\"\n",
			},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				step(0, "plan -var v=2 -explain", "+/- resource \"terraform_data\" \"a\"", "action: create-then-delete", "create_before_destroy: true"),
			},
		},
		{
			name: "ignore_paths by wildcard",
			files: map[string]string{
				"main.tf": "variable \"g\" {\n  default = \"1\"\n}\n\nresource \"null_resource\" \"a\" {\n  triggers = {\n    keep = \"x\"\n    \"ext/gen\" = var.g\n  }\n}\n",
				".tenet/rules/r.rego": `package tenet.prepare

ignore_paths contains [i, ["triggers", k]] if {
	some i, inst in input.instances
	some k, _ in inst.config.values.triggers
	startswith(k, "ext/")
}
`,
			},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				step(0, "plan -var g=2", "No changes."),
				step(0, "explain null_resource.a -var g=2", "action: no-op", `ignored: [triggers["ext/gen"]]`),
			},
		},
		{
			name: "equivalent keeps the prior text",
			files: map[string]string{
				"main.tf": "variable \"doc\" {}\nvariable \"size\" {\n  default = \"s\"\n}\n\nresource \"terraform_data\" \"a\" {\n  input = {\n    doc  = var.doc\n    size = var.size\n  }\n}\n",
				".tenet/rules/r.rego": `package tenet.prepare

equivalent contains [i, ["input", "doc"]] if {
	some i, inst in input.instances
	json.unmarshal(inst.config.values.input.doc) == json.unmarshal(inst.prior.values.input.doc)
}
`,
			},
			steps: []teamStep{
				{args: []string{"apply", "-auto-approve", `-var=doc={"a": 1, "b": 2}`}, expect: []string{applyOK}},
				{args: []string{"plan", `-var=doc={"b":2,"a":1}`}, expect: []string{"No changes."}},
				// Another change is an update; the equivalent text is not rewritten.
				{args: []string{"plan", `-var=doc={"b":2,"a":1}`, "-var=size=l"}, expect: []string{`~ size = "s" -> "l"`, "0 to add, 1 to change"}, reject: []string{`{\"b\":2,\"a\":1}`}},
				{args: []string{"plan", `-var=doc={"b":3,"a":1}`}, expect: []string{"0 to add, 1 to change"}},
			},
		},
	})
}

// TestTeamComputedMovesRename applies a configuration, renames its resource
// and checks that a computed move carries the object over.
func TestTeamComputedMovesRename(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"old_a\" {\n  input = \"a\"\n}\n")
	writeFile(t, filepath.Join(dir, ".tenet/rules/r.rego"), `package tenet.moves

moves contains [r.address, sprintf("%s.%s", [r.type, trim_prefix(r.name, "old_")])] if {
	some r in input.state.resources
	startswith(r.name, "old_")
}
`)
	if code, out := runTenetIn(t, dir, "apply", "-auto-approve"); code != 0 {
		t.Fatal(out)
	}
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = \"a\"\n}\n")
	code, out := runTenetIn(t, dir, "apply", "-auto-approve")
	if code != 0 {
		t.Fatal(out)
	}
	if missing := missingInOrder(out, []string{"# terraform_data.old_a has moved to terraform_data.a", "0 added, 0 changed, 0 destroyed"}); missing != "" {
		t.Fatalf("output lacks %q\n%s", missing, out)
	}
	code, out = runTenetIn(t, dir, "state", "list")
	if code != 0 || strings.TrimSpace(out) != "terraform_data.a" {
		t.Fatalf("state list = %q (exit %d), want terraform_data.a", out, code)
	}
}

// TestTeamRulePrecedence checks the fixed order in which behaviours combine
// (docs/rules.md, "Precedence").
func TestTeamRulePrecedence(t *testing.T) {
	replaceAll := everyInstanceRule("force_replace", "always")
	keepAll := everyInstanceRule("prevent_destroy", "kept")
	runScenarios(t, []teamScenario{
		{
			name:  "protection wins over force_replace",
			files: map[string]string{"main.tf": oneResource, "rules/replace.rego": replaceAll, "rules/keep.rego": keepAll},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				step(1, "plan -rules=rules", "will be replaced, as requested", "Error: Instance cannot be destroyed"),
			},
		},
		{
			name:  "force_replace does not turn a create into a replace",
			files: map[string]string{"main.tf": oneResource, ".tenet/rules/replace.rego": replaceAll},
			steps: []teamStep{step(0, "plan -explain", "will be created", "action: create", "tenet.decide.create_no_prior")},
		},
		{
			name:  "tainted wins over force_replace",
			files: map[string]string{"main.tf": oneResource},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				step(0, "taint terraform_data.a"),
				{args: []string{"explain", "terraform_data.a"}, expect: []string{"reason: replace_because_tainted", "tenet.decide.replace_because_tainted"}},
			},
		},
		{
			name: "an ignored path does not stop a forced replacement",
			files: map[string]string{
				"main.tf":            "variable \"v\" {\n  default = \"1\"\n}\n\nresource \"terraform_data\" \"a\" {\n  input = var.v\n  lifecycle {\n    ignore_changes = [input]\n  }\n}\n",
				"rules/replace.rego": replaceWhenInputChanges("input differs"),
			},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				step(0, "plan -var v=2", "No changes."),
				step(0, "plan -var v=2 -rules=rules -explain", "will be replaced, as requested", "reason: replace_by_request", "message: input differs", "tenet.prepare.ignore_changes"),
			},
		},
		{
			name: "a team rule forces create_before_destroy on over the configuration",
			files: map[string]string{
				"main.tf":             "variable \"v\" {\n  default = \"1\"\n}\n\nresource \"terraform_data\" \"a\" {\n  triggers_replace = var.v\n  lifecycle {\n    create_before_destroy = false\n  }\n}\n",
				".tenet/rules/c.rego": "package tenet.cbd\n\nforce_create_before_destroy contains r.address if {\n\tsome r in input.resources\n}\n",
			},
			steps: []teamStep{
				step(0, "apply -auto-approve", applyOK),
				step(0, "plan -var v=2", "+/- resource \"terraform_data\" \"a\""),
			},
		},
		{
			name: "a moved block wins over a computed move with the same from",
			files: map[string]string{
				"main.tf":             "resource \"terraform_data\" \"b\" {\n  input = \"x\"\n}\n\nresource \"terraform_data\" \"c\" {\n  input = \"x\"\n}\n\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n",
				".tenet/rules/m.rego": "package tenet.moves\n\nmoves contains [\"terraform_data.a\", \"terraform_data.c\"]\n",
			},
			steps: []teamStep{step(0, "plan", "+ resource \"terraform_data\" \"b\"", "+ resource \"terraform_data\" \"c\"")},
		},
		{
			name: "two rules moving one address to two places are an error",
			files: map[string]string{
				"main.tf":              "resource \"terraform_data\" \"b\" {\n  input = \"x\"\n}\n",
				".tenet/rules/m1.rego": "package tenet.moves\n\nmoves contains [\"terraform_data.a\", \"terraform_data.b\"]\n",
				".tenet/rules/m2.rego": "package tenet.moves\n\nmoves contains [\"terraform_data.a\", \"terraform_data.c\"]\n",
			},
			steps: []teamStep{step(1, "plan", "Error: Invalid computed moves", ".tenet/rules/m1.rego:3", ".tenet/rules/m2.rego:3")},
		},
	})
}

// TestTeamPreventDestroyForget: a removed block with destroy = false
// forgets the object even though a team rule protects it.
func TestTeamPreventDestroyForget(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), oneResource)
	writeFile(t, filepath.Join(dir, ".tenet/rules/k.rego"), everyInstanceRule("prevent_destroy", "kept"))
	if code, out := runTenetIn(t, dir, "apply", "-auto-approve"); code != 0 {
		t.Fatal(out)
	}
	writeFile(t, filepath.Join(dir, "main.tf"), "removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = false\n  }\n}\n")
	code, out := runTenetIn(t, dir, "plan")
	if code != 0 || strings.Contains(out, "Instance cannot be destroyed") || !strings.Contains(out, "will be removed from the tenet state but will not be destroyed") {
		t.Fatalf("plan (exit %d) should forget terraform_data.a without error:\n%s", code, out)
	}
	if code, out := runTenetIn(t, dir, "plan", "-destroy"); code == 0 {
		t.Fatalf("plan -destroy should be refused by prevent_destroy; got exit 0\n%s", out)
	}
}

// TestBadRuleFiles: a rule file that does not parse, does not type-check or
// calls a forbidden built-in fails plan and rules test with file and line.
func TestBadRuleFiles(t *testing.T) {
	tests := []struct {
		name, src, summary string
		line               int
	}{
		{"syntax error", "package acme\n\nallow if {\n\tinput.x ==\n}\n", "Invalid rule file", 5},
		{"type error", "package acme\n\nx := y if {\n\ty := 1 + \"a\"\n}\n", "Invalid rule", 4},
		{"unknown function", "package acme\n\nx := no_such_function(1)\n", "Invalid rule", 3},
		{"http.send", "package acme\n\nx := http.send({\"method\": \"get\", \"url\": \"http://example.com\"})\n", "Forbidden built-in function in rule", 3},
		{"pure net builtin", "package acme\n\nx if {\n\tnet.cidr_contains(\"10.0.0.0/8\", \"10.1.2.3\")\n}\n", "Forbidden built-in function in rule", 4},
		{"opa.runtime", "package acme\n\nx := opa.runtime().env\n", "Forbidden built-in function in rule", 3},
		{"time.now_ns", "package acme\n\nx := time.now_ns()\n", "Forbidden built-in function in rule", 3},
		{"redefines a default rule", "package tenet.decide\n\ndecision.noop_unchanged := {}\n", "Team rule redefines a default rule", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
			writeFile(t, filepath.Join(dir, ".tenet/rules/bad.rego"), tt.src)
			where := regexp.MustCompile(`\.tenet/rules/bad\.rego:` + itoa(tt.line) + `\b`)
			for _, args := range [][]string{{"plan"}, {"rules", "test"}} {
				code, out := runTenetIn(t, dir, args...)
				if code != 1 {
					t.Fatalf("tenet %s: exit status %d, want 1\n%s", strings.Join(args, " "), code, out)
				}
				if !strings.Contains(out, "Error: "+tt.summary) || !where.MatchString(out) {
					t.Fatalf("tenet %s: want %q at bad.rego:%d\n%s", strings.Join(args, " "), tt.summary, tt.line, out)
				}
			}
		})
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// TestRulesTestCommand runs team Rego unit tests.
func TestRulesTestCommand(t *testing.T) {
	rule := "package tenet.decide\n\nprevent_destroy contains [i, \"db\"] if {\n\tsome i, inst in input.instances\n\tinst.type == \"db\"\n}\n"
	runScenarios(t, []teamScenario{
		{
			name: "passing and failing tests",
			files: map[string]string{
				"team/keep.rego": rule,
				"team/keep_test.rego": `package acme_test

import data.tenet.decide

test_db_kept if {
	count(decide.prevent_destroy) == 1 with input as {"instances": [{"type": "db"}]}
}

test_wrong if {
	count(decide.prevent_destroy) == 1 with input as {"instances": [{"type": "vm"}]}
}
`,
			},
			steps: []teamStep{
				step(1, "rules test team", "FAIL: acme_test.test_wrong (team/keep_test.rego:9)", "1 passed, 1 failed, 0 skipped"),
				step(1, "rules test -v team", "PASS: acme_test.test_db_kept (team/keep_test.rego:5)", "FAIL: acme_test.test_wrong"),
			},
		},
		{
			name:  "all passing in .tenet/rules",
			files: map[string]string{".tenet/rules/keep.rego": rule, ".tenet/rules/keep_test.rego": "package acme_test\n\nimport data.tenet.decide\n\ntest_db_kept if {\n\tcount(decide.prevent_destroy) == 1 with input as {\"instances\": [{\"type\": \"db\"}]}\n}\n"},
			steps: []teamStep{step(0, "rules test", "1 passed, 0 failed, 0 skipped")},
		},
		{
			name:  "a forbidden built-in in a test file",
			files: map[string]string{".tenet/rules/x_test.rego": "package acme_test\n\ntest_now if {\n\ttime.now_ns() > 0\n}\n"},
			steps: []teamStep{step(1, "rules test", "Error: Forbidden built-in function in rule", ".tenet/rules/x_test.rego:4")},
		},
		{
			name:  "no tests",
			files: map[string]string{".tenet/rules/keep.rego": rule},
			steps: []teamStep{step(0, "rules test", "No tests found in .tenet/rules")},
		},
		{
			name:  "missing directory",
			files: map[string]string{"main.tf": ""},
			steps: []teamStep{step(1, "rules test nowhere", "Error: Invalid rules directory")},
		},
	})
}

// TestExplain checks explain from a saved plan, the provenance and facts in
// the JSON plan, and errors.
func TestExplain(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "variable \"v\" {\n  default = \"1\"\n}\n\nresource \"terraform_data\" \"a\" {\n  count = 2\n  input = var.v\n}\n")
	writeFile(t, filepath.Join(dir, ".tenet/rules/r.rego"), `package tenet.decide

# METADATA
# title: Changed inputs rebuild
# custom:
#   id: acme.rebuild
force_replace contains [i, "input changed"] if {
	some i, inst in input.instances
	inst.key == 0
	inst.prior.values.input != inst.config.values.input
}
`)
	for _, args := range [][]string{{"apply", "-auto-approve"}, {"plan", "-var", "v=2", "-out=p.bin"}} {
		if code, out := runTenetIn(t, dir, args...); code != 0 {
			t.Fatalf("tenet %v: %s", args, out)
		}
	}
	// The rules no longer exist: the saved plan explains itself.
	if err := os.RemoveAll(filepath.Join(dir, ".tenet")); err != nil {
		t.Fatal(err)
	}
	code, out := runTenetIn(t, dir, "explain", "terraform_data.a", "p.bin")
	want := []string{
		"terraform_data.a[0]", "action: delete-then-create", "reason: replace_by_request",
		"- tenet.decide.replace_by_request at rules/planning/decide.rego:",
		"- acme.rebuild at .tenet/rules/r.rego:7", "Changed inputs rebuild", "message: input changed",
		"has_prior: true", "planned_equals_prior: false", "requires_replace: []", "force_replace: false",
		"terraform_data.a[1]", "action: update", "- tenet.decide.update_in_place",
	}
	if missing := missingInOrder(out, want); code != 0 || missing != "" {
		t.Fatalf("explain (exit %d) lacks %q:\n%s", code, missing, out)
	}

	code, out = runTenetIn(t, dir, "explain", "-json", "terraform_data.a[0]", "p.bin")
	var got struct {
		Explanations []struct {
			Address string
			Action  string
			Reason  string
			Rules   []struct{ ID, File, Message string }
			Facts   map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("explain -json (exit %d): %v\n%s", code, err, out)
	}
	if len(got.Explanations) != 1 || got.Explanations[0].Action != "delete-then-create" || len(got.Explanations[0].Rules) != 2 ||
		got.Explanations[0].Rules[1].Message != "input changed" || got.Explanations[0].Facts["has_prior"] != true {
		t.Errorf("explain -json = %+v", got)
	}

	code, out = runTenetIn(t, dir, "show", "-json", "p.bin")
	var plan struct {
		Tenet struct {
			Provenance map[string][]struct{ ID, File, Message string }
			Facts      map[string]map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &plan); code != 0 || err != nil {
		t.Fatalf("show -json (exit %d): %v", code, err)
	}
	prov := plan.Tenet.Provenance["terraform_data.a[0]"]
	if diff := cmp.Diff([]string{"tenet.decide.replace_by_request", "acme.rebuild"}, []string{prov[0].ID, prov[len(prov)-1].ID}); diff != "" || prov[1].Message != "input changed" {
		t.Errorf("JSON plan provenance (-want +got):\n%s%+v", diff, prov)
	}
	if f := plan.Tenet.Facts["terraform_data.a[1]"]; f["has_config"] != true || f["planned_equals_prior"] != nil {
		t.Errorf("JSON plan facts of terraform_data.a[1] = %v", f)
	}

	if code, out := runTenetIn(t, dir, "explain", "terraform_data.nope", "p.bin"); code != 1 || !strings.Contains(out, "Nothing to explain") {
		t.Errorf("explain of an unknown address: exit %d\n%s", code, out)
	}
	if code, out := runTenetIn(t, dir, "explain", "not an address"); code != 1 || !strings.Contains(out, "Invalid address") {
		t.Errorf("explain of a bad address: exit %d\n%s", code, out)
	}
}

// TestTeamRulesDeterministic plans twice with the same inputs and team rules
// that produce many elements, and compares the JSON plans.
func TestTeamRulesDeterministic(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "variable \"v\" {\n  default = \"1\"\n}\n\nresource \"terraform_data\" \"a\" {\n  count = 50\n  input = \"${var.v}-${count.index}\"\n}\n")
	writeFile(t, filepath.Join(dir, ".tenet/rules/r.rego"), `package tenet.decide

force_replace contains [i, sprintf("every third (%d)", [inst.key])] if {
	some i, inst in input.instances
	inst.key % 3 == 0
}

force_replace contains [i, "and every fifth"] if {
	some i, inst in input.instances
	inst.key % 5 == 0
}
`)
	if code, out := runTenetIn(t, dir, "apply", "-auto-approve"); code != 0 {
		t.Fatal(out)
	}
	var plans []string
	for i := range 2 {
		name := "p" + itoa(i)
		if code, out := runTenetIn(t, dir, "plan", "-var", "v=2", "-out="+name); code != 0 {
			t.Fatal(out)
		}
		code, out := runTenetIn(t, dir, "show", "-json", name)
		if code != 0 {
			t.Fatal(out)
		}
		plans = append(plans, regexp.MustCompile(`"timestamp":"[^"]*"`).ReplaceAllString(out, ""))
	}
	if diff := cmp.Diff(plans[0], plans[1]); diff != "" {
		t.Errorf("two plans with the same inputs differ:\n%s", diff)
	}
	if !strings.Contains(plans[0], `"message":"and every fifth"`) {
		t.Errorf("the plan lacks the team rule's message")
	}
}
