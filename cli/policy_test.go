package cli_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/cli"
)

// These tests change the process working directory: never t.Parallel.

const policyMainTF = `
resource "terraform_data" "db" {
  input = "db"
}
resource "terraform_data" "web" {
  input = "web"
}
`

// policyWorkdir makes a working directory with main.tf and the given
// files (paths relative to it), and changes into it.
func policyWorkdir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["main.tf"] = policyMainTF
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(old) })
	return dir
}

func runPolicyTenet(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errw bytes.Buffer
	code := cli.Main(args, strings.NewReader(stdin), &out, &errw, []string{"NO_COLOR=1", "USER=alice"})
	return code, out.String(), errw.String()
}

// denyDB is a policy failing on terraform_data.db at the given level.
func denyDB(level string) string {
	return `package main

# METADATA
# title: No database
# custom:
#   enforcement: ` + level + `
deny contains {"msg": "db is not allowed", "address": rc.address} if {
	some rc in input.resource_changes
	rc.name == "db"
}
`
}

func TestPolicyEnforcementLevels(t *testing.T) {
	tests := []struct {
		level    string
		override string
		wantCode int
		wantOut  string
	}{
		{"advisory", "", 0, "WARN  No database [advisory]"},
		{"soft-mandatory", "", 3, "FAIL  No database [soft-mandatory]"},
		{"soft-mandatory", "ticket 42", 0, `Policy override by alice: "ticket 42"`},
		{"hard-mandatory", "", 3, "FAIL  No database [hard-mandatory]"},
		{"hard-mandatory", "ticket 42", 3, "Mandatory policies failed: the plan cannot be applied."},
	}
	for _, tt := range tests {
		t.Run(tt.level+"/"+tt.override, func(t *testing.T) {
			policyWorkdir(t, map[string]string{".tenet/policy/db.rego": denyDB(tt.level)})
			args := []string{"plan", "-no-color"}
			if tt.override != "" {
				args = append(args, "-policy-override="+tt.override)
			}
			code, out, errOut := runPolicyTenet(t, "", args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.wantCode, out, errOut)
			}
			if !strings.Contains(out, tt.wantOut) {
				t.Errorf("output lacks %q:\n%s", tt.wantOut, out)
			}
			if !strings.Contains(out, "- db is not allowed") {
				t.Errorf("output lacks the policy message:\n%s", out)
			}
		})
	}
}

func TestPolicyOverrideRecordedInSavedPlan(t *testing.T) {
	policyWorkdir(t, map[string]string{".tenet/policy/db.rego": denyDB("soft-mandatory")})
	if code, out, errOut := runPolicyTenet(t, "", "plan", "-out=p.bin", "-policy-override=CAB-7 approved"); code != 0 {
		t.Fatalf("plan exit %d\n%s%s", code, out, errOut)
	}
	_, js, _ := runPolicyTenet(t, "", "show", "-json", "p.bin")
	var doc struct {
		Tenet struct {
			Policy struct {
				Override struct {
					Reason   string   `json:"reason"`
					User     string   `json:"user"`
					Policies []string `json:"policies"`
				} `json:"override"`
				Results []struct {
					Status   string `json:"status"`
					Messages []struct {
						Addresses []string `json:"addresses"`
					} `json:"messages"`
				} `json:"results"`
			} `json:"policy"`
		} `json:"tenet"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("show -json: %v\n%s", err, js)
	}
	pol := doc.Tenet.Policy
	if diff := cmp.Diff("CAB-7 approved", pol.Override.Reason); diff != "" {
		t.Errorf("override reason (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"No database (.tenet/policy/db.rego:7)"}, pol.Override.Policies); diff != "" {
		t.Errorf("overridden policies (-want +got):\n%s", diff)
	}
	if len(pol.Results) != 1 || pol.Results[0].Status != "overridden" || pol.Results[0].Messages[0].Addresses[0] != "terraform_data.db" {
		t.Errorf("results = %+v", pol.Results)
	}
	code, out, errOut := runPolicyTenet(t, "", "apply", "-no-color", "p.bin")
	if code != 0 {
		t.Fatalf("apply exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, `Policy override by alice: "CAB-7 approved"`) || !strings.Contains(out, "Apply complete!") {
		t.Errorf("apply output lacks the override or the apply:\n%s", out)
	}
}

func TestApplyRefusesFailingSavedPlan(t *testing.T) {
	tests := []struct {
		level    string
		override string
		wantCode int
	}{
		{"soft-mandatory", "", 3},
		{"soft-mandatory", "hotfix", 0},
		{"hard-mandatory", "hotfix", 3},
	}
	for _, tt := range tests {
		t.Run(tt.level+"/"+tt.override, func(t *testing.T) {
			policyWorkdir(t, map[string]string{".tenet/policy/db.rego": denyDB(tt.level)})
			if code, _, _ := runPolicyTenet(t, "", "plan", "-out=p.bin"); code != 3 {
				t.Fatalf("plan exit %d, want 3", code)
			}
			if _, err := os.Stat("p.bin"); err != nil {
				t.Fatalf("the failing plan was not saved: %v", err)
			}
			args := []string{"apply", "-no-color"}
			if tt.override != "" {
				args = append(args, "-policy-override="+tt.override)
			}
			code, out, errOut := runPolicyTenet(t, "", append(args, "p.bin")...)
			if code != tt.wantCode {
				t.Fatalf("apply exit %d, want %d\n%s%s", code, tt.wantCode, out, errOut)
			}
			_, statErr := os.Stat("terraform.tfstate")
			if applied := statErr == nil; applied != (tt.wantCode == 0) {
				t.Errorf("state written = %v, want %v", applied, tt.wantCode == 0)
			}
			if tt.wantCode == 3 && !strings.Contains(errOut, "Policy check failed") {
				t.Errorf("stderr lacks the refusal:\n%s", errOut)
			}
		})
	}
}

func TestApplyChecksPoliciesBeforeConfirmation(t *testing.T) {
	policyWorkdir(t, map[string]string{".tenet/policy/db.rego": denyDB("hard-mandatory")})
	code, out, errOut := runPolicyTenet(t, "yes\n", "apply", "-no-color")
	if code != 3 {
		t.Fatalf("exit %d, want 3\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "Enter a value") {
		t.Errorf("asked for confirmation although the policy check failed:\n%s", out)
	}
	if _, err := os.Stat("terraform.tfstate"); err == nil {
		t.Error("state was written")
	}
}

// tarGz builds an archive from name → content.
func tarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

const tofuReplacePlan = "../testdata/conformance/scenarios/106-fan-out-replace/expected/plan.raw.json"

func conformancePlan(t *testing.T, rel string) string {
	t.Helper()
	wd, _ := os.Getwd()
	p, err := filepath.Abs(filepath.Join(wd, rel))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPolicyCheckBundleOnOpenTofuPlan(t *testing.T) {
	plan := conformancePlan(t, tofuReplacePlan)
	bundle := tarGz(t, map[string]string{
		".manifest":        `{"revision": "7", "roots": ["limits"], "metadata": {"tenet": {"enforcement": {"limits": "soft-mandatory"}}}}`,
		"limits/data.json": `{"max_replacements": 2}`,
		// Rego v0 syntax, as conftest policies are often written.
		"limits/replace.rego": `package limits

deny[msg] {
	n := count([rc | rc := input.resource_changes[_]; rc.change.actions[_] == "delete"; rc.change.actions[_] == "create"])
	n > data.limits.max_replacements
	msg := sprintf("%d replacements, at most %d allowed", [n, data.limits.max_replacements])
}
`,
	})
	dir := policyWorkdir(t, map[string]string{})
	os.WriteFile(filepath.Join(dir, "limits.tar.gz"), bundle, 0o644)
	code, out, errOut := runPolicyTenet(t, "", "policy", "check", "-no-color", "-policy=limits.tar.gz", plan)
	if code != 3 {
		t.Fatalf("exit %d, want 3\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"FAIL  limits.deny [soft-mandatory] (limits.tar.gz/limits/replace.rego:3)", "- 4 replacements, at most 2 allowed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, out, _ := runPolicyTenet(t, "", "policy", "check", "-policy=limits.tar.gz", "-policy-override=known", plan); code != 0 {
		t.Errorf("override: exit %d\n%s", code, out)
	}
}

func TestPolicyCheckExamplesOnOpenTofuPlans(t *testing.T) {
	examples, _ := filepath.Abs("../examples/policies")
	tests := []struct {
		scenario string
		wantCode int
	}{
		{"001-create-chain-unknown", 0},
		{"106-fan-out-replace", 0},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			plan := conformancePlan(t, "../testdata/conformance/scenarios/"+tt.scenario+"/expected/plan.raw.json")
			policyWorkdir(t, map[string]string{})
			code, out, errOut := runPolicyTenet(t, "", "policy", "check", "-policy="+examples, plan)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.wantCode, out, errOut)
			}
			if !strings.Contains(out, "6 policies: 6 passed") {
				t.Errorf("output:\n%s", out)
			}
		})
	}
}

func TestPolicyCheckOutputFormats(t *testing.T) {
	policyWorkdir(t, map[string]string{".tenet/policy/db.rego": denyDB("hard-mandatory")})
	if code, _, _ := runPolicyTenet(t, "", "plan", "-out=p.bin"); code != 3 {
		t.Fatalf("plan exit %d, want 3", code)
	}
	tests := []struct {
		format string
		check  func(t *testing.T, out string)
	}{
		{"human", func(t *testing.T, out string) {
			if !strings.Contains(out, "FAIL  No database [hard-mandatory] (.tenet/policy/db.rego:7)") {
				t.Errorf("human:\n%s", out)
			}
		}},
		{"json", func(t *testing.T, out string) {
			var rep struct {
				Summary struct {
					Failed  int  `json:"failed"`
					Blocked bool `json:"blocked"`
				} `json:"summary"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Summary.Failed != 1 || !rep.Summary.Blocked {
				t.Errorf("json: %v %+v\n%s", err, rep, out)
			}
		}},
		{"junit", func(t *testing.T, out string) {
			var suites struct {
				Tests    int `xml:"tests,attr"`
				Failures int `xml:"failures,attr"`
				Suites   []struct {
					Cases []struct {
						Name    string `xml:"name,attr"`
						Failure *struct {
							Text string `xml:",chardata"`
						} `xml:"failure"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal([]byte(out), &suites); err != nil {
				t.Fatalf("junit: %v\n%s", err, out)
			}
			if suites.Tests != 1 || suites.Failures != 1 || suites.Suites[0].Cases[0].Failure == nil ||
				!strings.Contains(suites.Suites[0].Cases[0].Failure.Text, "db is not allowed [terraform_data.db]") {
				t.Errorf("junit: %+v\n%s", suites, out)
			}
		}},
		{"sarif", func(t *testing.T, out string) {
			var log struct {
				Version string `json:"version"`
				Runs    []struct {
					Results []struct {
						Level     string                `json:"level"`
						Message   struct{ Text string } `json:"message"`
						Locations []struct {
							PhysicalLocation struct {
								ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
								Region           struct{ StartLine int } `json:"region"`
							} `json:"physicalLocation"`
							LogicalLocations []struct {
								FullyQualifiedName string `json:"fullyQualifiedName"`
							} `json:"logicalLocations"`
						} `json:"locations"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &log); err != nil {
				t.Fatalf("sarif: %v", err)
			}
			r := log.Runs[0].Results
			if log.Version != "2.1.0" || len(r) != 1 || r[0].Level != "error" || r[0].Message.Text != "db is not allowed" ||
				r[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != ".tenet/policy/db.rego" ||
				r[0].Locations[0].PhysicalLocation.Region.StartLine != 7 ||
				r[0].Locations[0].LogicalLocations[0].FullyQualifiedName != "terraform_data.db" {
				t.Errorf("sarif: %+v\n%s", log, out)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			code, out, errOut := runPolicyTenet(t, "", "policy", "check", "-no-color", "-format="+tt.format, "p.bin")
			if code != 3 {
				t.Fatalf("exit %d, want 3\n%s%s", code, out, errOut)
			}
			tt.check(t, out)
		})
	}
	t.Run("plan -json", func(t *testing.T) {
		code, out, _ := runPolicyTenet(t, "", "plan", "-json")
		if code != 3 || !strings.Contains(out, `"type":"policy_check"`) {
			t.Errorf("exit %d; plan -json stream lacks a policy_check message:\n%s", code, out)
		}
	})
}

func TestPolicyFailsClosed(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			"does not compile",
			map[string]string{".tenet/policy/bad.rego": "package main\n\ndeny contains msg if {\n\tmsg := undefined_function(1)\n}\n"},
			[]string{".tenet/policy/bad.rego:4", "undefined function undefined_function"},
		},
		{
			"does not parse",
			map[string]string{".tenet/policy/bad.rego": "package main\n\ndeny contains msg if {\n\tmsg := \"x\"\n"},
			[]string{".tenet/policy/bad.rego:"},
		},
		{
			"errors at evaluation",
			map[string]string{".tenet/policy/div.rego": "package main\n\ndeny contains msg if {\n\tx := count(input.resource_changes) / 0\n\tmsg := sprintf(\"%v\", [x])\n}\n"},
			[]string{"ERROR main.deny [hard-mandatory] (.tenet/policy/div.rego:3)", ".tenet/policy/div.rego:4: eval_builtin_error: div: divide by zero"},
		},
		{
			// Each definition alone passes; together they conflict.
			"complete rule with conflicting definitions",
			map[string]string{".tenet/policy/conflict.rego": "package main\n\nimport rego.v1\n\ndeny := set() if { true }\n\ndeny := [] if { true }\n"},
			[]string{"ERROR main.deny [hard-mandatory] (.tenet/policy/conflict.rego:5)", "eval_conflict_error"},
		},
		{
			"times out",
			map[string]string{
				".tenet/policy/policy-set.yaml": "timeout: 50ms\n",
				".tenet/policy/slow.rego":       "package main\n\ndeny contains msg if {\n\tcount([x | some x in numbers.range(1, 100000000)]) > 0\n\tmsg := \"slow\"\n}\n",
			},
			[]string{"ERROR main.deny", "did not finish within the time limit (50ms)"},
		},
		{
			"reaches the network",
			map[string]string{".tenet/policy/net.rego": "package main\n\ndeny contains msg if {\n\tr := http.send({\"method\": \"GET\", \"url\": \"http://example.com\"})\n\tmsg := r.body\n}\n"},
			[]string{".tenet/policy/net.rego:4", "http.send reaches the network", "allow: [network]"},
		},
		{
			"reads the environment",
			map[string]string{".tenet/policy/env.rego": "package main\n\ndeny contains opa.runtime().env.USER if { true }\n"},
			[]string{".tenet/policy/env.rego:3", "opa.runtime reads the environment"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			policyWorkdir(t, tt.files)
			code, out, errOut := runPolicyTenet(t, "", "plan", "-no-color")
			if code != 3 {
				t.Fatalf("exit %d, want 3\n%s%s", code, out, errOut)
			}
			all := out + errOut
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
		})
	}
}

func TestPolicySandboxAllowedByConfig(t *testing.T) {
	policyWorkdir(t, map[string]string{
		".tenet/policy/policy-set.yaml": "allow: [environment]\n",
		".tenet/policy/env.rego":        "package main\n\nwarn contains sprintf(\"run by %s\", [opa.runtime().env.USER]) if { true }\n",
	})
	code, out, errOut := runPolicyTenet(t, "", "plan", "-no-color")
	if code != 0 || !strings.Contains(out, "- run by alice") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestPolicyTestCommand(t *testing.T) {
	examples, _ := filepath.Abs("../examples/policies")
	policyWorkdir(t, map[string]string{
		"failing/p.rego":      "package p\n\nimport rego.v1\n\ndeny contains \"x\" if { input.x }\n",
		"failing/p_test.rego": "package p_test\n\nimport rego.v1\n\ntest_denies if { count(data.p.deny) == 0 with input as {\"x\": true} }\n",
	})
	code, out, errOut := runPolicyTenet(t, "", "policy", "test", "-coverage", examples)
	if code != 0 || !strings.Contains(out, "8 tests: 8 passed, 0 failed.") || !strings.Contains(out, "Coverage: 100.0%") {
		t.Errorf("examples: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runPolicyTenet(t, "", "policy", "test", "-format=junit", "failing")
	if code != 1 || !strings.Contains(out, `failures="1"`) {
		t.Errorf("failing: exit %d\n%s", code, out)
	}
}

func TestPolicySourceGivenTwiceIsReadOnce(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"default directory named again", []string{"-policy=.tenet/policy"}},
		{"spelled differently", []string{"-policy=./.tenet/policy/"}},
		{"the same -policy twice", []string{"-policy=extra", "-policy=extra"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{".tenet/policy/db.rego": denyDB("hard-mandatory")}
			if strings.Contains(strings.Join(tt.args, " "), "extra") {
				files = map[string]string{"extra/db.rego": denyDB("hard-mandatory")}
			}
			policyWorkdir(t, files)
			code, out, errOut := runPolicyTenet(t, "", append([]string{"plan", "-no-color"}, tt.args...)...)
			if code != 3 || !strings.Contains(out, "1 policies: 0 passed, 1 failed") {
				t.Errorf("exit %d, want 3 and one policy\n%s%s", code, out, errOut)
			}
		})
	}
}
