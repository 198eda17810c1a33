package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

const sensitiveTF = `
variable "pw" {
  type      = string
  sensitive = true
  default   = "hunter2-\"quoted\""
}
variable "port" {
  type      = number
  sensitive = true
  default   = 54321
}
resource "terraform_data" "db" {
  input = { password = var.pw, port = var.port, name = "db" }
}
`

func TestPolicyMessagesRedactSensitiveValues(t *testing.T) {
	secrets := []string{"hunter2", "54321"}
	tests := []struct {
		name   string
		policy string
	}{
		{"sprintf over after", `deny contains sprintf("%s password is %s", [rc.address, rc.change.after.input.password]) if {
	some rc in input.resource_changes
}`},
		{"%v over the whole value", `deny contains sprintf("%s is %v", [rc.address, rc.change.after]) if {
	some rc in input.resource_changes
}`},
		{"details", `deny contains {"msg": "see details", "password": rc.change.after.input.password, "port": rc.change.after.input.port} if {
	some rc in input.resource_changes
}`},
		{"variables", `deny contains sprintf("pw=%s port=%d", [input.variables.pw.value, input.variables.port.value]) if { true }`},
		{"planned values", `deny contains sprintf("%v", [r.values.input]) if {
	some r in input.planned_values.root_module.resources
}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			policyWorkdir(t, map[string]string{".tenet/policy/p.rego": "package main\n\nimport rego.v1\n\n" + tt.policy + "\n"})
			writeFile(t, "main.tf", sensitiveTF)
			code, out, errOut := runPolicyTenet(t, "", "plan", "-no-color", "-out=p.bin")
			if code != 3 {
				t.Fatalf("plan: exit %d, want 3\n%s%s", code, out, errOut)
			}
			if !strings.Contains(out, "(sensitive value)") && tt.name != "details" {
				t.Errorf("plan output lacks the redaction:\n%s", out)
			}
			_, report, _ := runPolicyTenet(t, "", "policy", "check", "-format=json", "p.bin")
			_, sarif, _ := runPolicyTenet(t, "", "policy", "check", "-format=sarif", "p.bin")
			_, shown, _ := runPolicyTenet(t, "", "show", "-json", "p.bin")
			var doc struct {
				Tenet struct {
					Policy json.RawMessage `json:"policy"`
				} `json:"tenet"`
			}
			if err := json.Unmarshal([]byte(shown), &doc); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(report, "(sensitive value)") {
				t.Errorf("report lacks the redaction:\n%s", report)
			}
			for name, text := range map[string]string{"plan output": out + errOut, "json report": report, "sarif": sarif, "stored report": string(doc.Tenet.Policy)} {
				for _, s := range secrets {
					if strings.Contains(text, s) {
						t.Errorf("%s prints the sensitive value %q:\n%s", name, s, text)
					}
				}
			}
		})
	}
}
