package rules

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/tenetplan/tenet/internal/provenance"
)

// TestTeamRuleLoadingErrors checks that a bad team file is refused with a
// diagnostic naming the file and line.
func TestTeamRuleLoadingErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		summary string
		line    int
	}{
		{"bad syntax", "package acme\n\nallow if {\n\tinput.x ==\n}\n", "Invalid rule file", 5},
		{"http.send", "package acme\n\nx := y if {\n\ty := http.send({\"method\": \"get\", \"url\": \"http://example.com\"})\n}\n", "Forbidden built-in function in rule", 4},
		{"time.now_ns", "package acme\n\nnow := time.now_ns()\n", "Forbidden built-in function in rule", 3},
		{"opa.runtime nested", "package acme\n\nenv := object.get(opa.runtime(), \"env\", {})\n", "Forbidden built-in function in rule", 3},
		{"net lookup", "package acme\n\nips := net.lookup_ip_addr(\"example.com\")\n", "Forbidden built-in function in rule", 3},
		{"unsafe var", "package acme\n\nx if {\n\ty > 1\n}\n", "Invalid rule", 4},
		{"redefines default rule", "package tenet.decide\n\ndecision.noop_unchanged := {}\n", "Team rule redefines a default rule", 3},
		{"extension point as complete rule", "package tenet.decide\n\nforce_replace := {}\n", "Invalid extension rule", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"team.rego": {Data: []byte(tt.src)}}
			_, diags := New(context.Background(), Options{Team: []Source{{Name: ".tenet/rules", FS: fsys}}})
			if !diags.HasErrors() {
				t.Fatal("want an error, got none")
			}
			d := diags[0]
			got := fmt.Sprintf("%s @ %s:%d", d.Summary, d.Subject.Filename, d.Subject.Start.Line)
			want := fmt.Sprintf("%s @ .tenet/rules/team.rego:%d", tt.summary, tt.line)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostic (-want +got):\n%s\ndetail: %s", diff, d.Detail)
			}
		})
	}
}

func TestTeamRulesSeeValuesAndRun(t *testing.T) {
	e := newTestEngine(t, map[string]string{"lib/helpers.rego": `package acme.lib

is_db(inst) if inst.type == "db"
`, "replace.rego": `package tenet.decide

import data.acme.lib

force_replace contains [i, sprintf("db at %s", [input.run.timestamp])] if {
	some i, inst in input.instances
	lib.is_db(inst)
}
`})
	batch := []Instance{
		{Address: "db.a", Mode: "managed", Type: "db", HasConfig: true, HasPrior: true, PlannedEqualsPrior: true},
		{Address: "vm.a", Mode: "managed", Type: "vm", HasConfig: true, HasPrior: true, PlannedEqualsPrior: true},
	}
	got, err := e.Decide(context.Background(), Run{Mode: ModeNormal, Timestamp: caseTimestamp}, batch)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Action != "delete-then-create" || got[1].Action != "no-op" {
		t.Fatalf("actions = %s, %s; want delete-then-create, no-op", got[0].Action, got[1].Action)
	}
	team := got[0].Provenance[1]
	want := provenance.Rule{RuleID: "team:.tenet/rules/replace.rego:5", File: ".tenet/rules/replace.rego", Line: 5, Message: "db at 2025-01-02T03:04:05Z"}
	if diff := cmp.Diff(want, team); diff != "" {
		t.Errorf("team provenance (-want +got):\n%s", diff)
	}
}

// TestForbiddenBuiltins: every built-in that reads the clock, the network,
// the environment or randomness is refused when the file loads, with its
// file and line; the deterministic neighbours stay allowed.
func TestForbiddenBuiltins(t *testing.T) {
	tests := []struct {
		call    string
		refused bool
	}{
		{`http.send({"method": "get", "url": "http://example.com"})`, true},
		{`net.lookup_ip_addr("example.com")`, true},
		{`net.cidr_contains("10.0.0.0/8", "10.1.2.3")`, true},
		{`opa.runtime()`, true},
		{`time.now_ns()`, true},
		{`rand.intn("x", 10)`, true},
		{`uuid.rfc4122("x")`, true},
		{`trace("x")`, true},
		{`io.jwt.decode_verify("a.b.c", {"secret": "s"})`, true},
		{`io.jwt.encode_sign({"alg": "ES256"}, {}, {})`, true},
		{`io.jwt.encode_sign_raw("{}", "{}", "{}")`, true},
		{`json.match_schema({}, {"$ref": "http://example.com/s.json"})`, true},
		{`json.verify_schema({"$ref": "http://example.com/s.json"})`, true},
		{`crypto.x509.parse_and_verify_certificates("pem")`, true},
		{`crypto.x509.parse_and_verify_certificates_with_options("pem", {})`, true},
		{`time.date([0, "Local"])`, true},
		{`time.format([0, "Local", "2006"])`, true},
		{`time.date([0, "UTC"])`, false},
		{`time.format(0)`, false},
		{`io.jwt.decode("a.b.c")`, false},
		{`io.jwt.verify_hs256("a.b.c", "s")`, false},
		{`crypto.x509.parse_certificates("pem")`, false},
		{`uuid.parse("00000000-0000-0000-0000-000000000000")`, false},
		{`print("x")`, false},
	}
	for _, tt := range tests {
		t.Run(tt.call, func(t *testing.T) {
			src := fmt.Sprintf("package acme\n\nx if {\n\t%s\n}\n", tt.call)
			fsys := fstest.MapFS{"team.rego": {Data: []byte(src)}}
			_, diags := New(context.Background(), Options{Team: []Source{{Name: ".tenet/rules", FS: fsys}}})
			var got []string
			for _, d := range diags {
				if d.Summary == "Forbidden built-in function in rule" {
					got = append(got, fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line))
				}
			}
			var want []string
			if tt.refused {
				want = []string{".tenet/rules/team.rego:4"}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("forbidden-built-in diagnostics (-want +got):\n%s\nall: %v", diff, diags)
			}
		})
	}
}

// TestNondeterministicBuiltinsForbidden: every built-in OPA itself marks
// non-deterministic is forbidden, so a new one in an OPA upgrade is caught.
func TestNondeterministicBuiltinsForbidden(t *testing.T) {
	for _, b := range ast.CapabilitiesForThisVersion().Builtins {
		if _, bad := forbiddenReason(b.Name); b.Nondeterministic && !bad {
			t.Errorf("%s is non-deterministic but team rules may call it", b.Name)
		}
	}
}
