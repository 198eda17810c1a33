package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
)

func TestEvalCondition(t *testing.T) {
	ev := &Evaluator{Cfg: &config.Config{}, Values: NewValueStore(), Exp: NewExpansion(), Pure: true}
	root := ev.Values.Module(addrs.RootModuleInstance)
	root.Set('v', "n", cty.NumberIntVal(3))
	root.Set('v', "later", cty.UnknownVal(cty.Number))
	root.Set('v', "secret", cty.StringVal("s3cret").Mark(SensitiveMark))
	s := &Scope{Ev: ev, Mod: addrs.RootModuleInstance, Cfg: &config.Module{}}
	self := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("abc")})

	cases := []struct {
		name, cond, msg string
		self            cty.Value
		severity        hcl.DiagnosticSeverity
		wantStatus      string
		wantMessage     string
		wantDiags       []string // severity: summary: detail
	}{
		{name: "pass", cond: "var.n > 1", msg: `"n too small"`, wantStatus: checkPass},
		{name: "fail", cond: "var.n > 5", msg: `"n is ${var.n}"`, wantStatus: checkFail, wantMessage: "n is 3",
			wantDiags: []string{"error: Resource precondition failed: n is 3"}},
		{name: "fail as warning", cond: "var.n > 5", msg: `"n is small"`, severity: hcl.DiagWarning, wantStatus: checkFail, wantMessage: "n is small",
			wantDiags: []string{"warning: Resource precondition failed: n is small"}},
		{name: "unknown waits for apply", cond: "var.later > 1", msg: `"x"`, wantStatus: checkUnknown},
		{name: "self", cond: `self.id == "abc"`, msg: `"x"`, self: self, wantStatus: checkPass},
		{name: "self fails", cond: `self.id == "xyz"`, msg: `"id is ${self.id}"`, self: self, wantStatus: checkFail, wantMessage: "id is abc",
			wantDiags: []string{"error: Resource precondition failed: id is abc"}},
		{name: "null result", cond: "null", msg: `"x"`, wantStatus: checkError,
			wantDiags: []string{"error: Invalid condition result: The condition expression returned null. A condition must return either true or false."}},
		{name: "sensitive message is hidden", cond: "false", msg: `"secret is ${var.secret}"`, wantStatus: checkFail,
			wantMessage: "The error message included a sensitive value, so it will not be displayed.",
			wantDiags:   []string{"error: Resource precondition failed: The error message included a sensitive value, so it will not be displayed."}},
		{name: "sensitive condition", cond: `var.secret == "s3cret"`, msg: `"x"`, wantStatus: checkPass},
		{name: "evaluation error downgraded", cond: "var.n.x", msg: `"x"`, severity: hcl.DiagWarning, wantStatus: checkError,
			wantDiags: []string{"warning: Unsupported attribute: Can't access attributes on a primitive-typed value (number)."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cond, d := hclsyntax.ParseExpression([]byte(tc.cond), "main.tf", hcl.InitialPos)
			msg, d2 := hclsyntax.ParseExpression([]byte(tc.msg), "main.tf", hcl.InitialPos)
			if d.HasErrors() || d2.HasErrors() {
				t.Fatal(d, d2)
			}
			severity := tc.severity
			if severity == hcl.DiagInvalid {
				severity = hcl.DiagError
			}
			rule := &config.CheckRule{Condition: cond, ErrorMessage: msg}
			r, diags := evalCondition(s, rule, tc.self, ResourcePreconditionFailed, severity)
			if diff := cmp.Diff(tc.wantStatus, r.status); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantMessage, r.message); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			var got []string
			for _, d := range diags {
				sev := "error"
				if d.Severity == hcl.DiagWarning {
					sev = "warning"
				}
				if d.Subject == nil {
					t.Errorf("diagnostic %q has no location", d.Summary)
				}
				got = append(got, sev+": "+d.Summary+": "+d.Detail)
			}
			if diff := cmp.Diff(tc.wantDiags, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckResultsJSON(t *testing.T) {
	var r CheckResults
	res := Checkable{Kind: "resource", Module: addrs.RootModule, Name: "a", Res: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "a"}}
	r.Report(res, CheckedObject{Key: addrs.IntKey(0)}, checkPass, nil)
	r.Report(res, CheckedObject{Key: addrs.IntKey(1)}, checkPass, nil)
	// A postcondition failing after the precondition passed fails the object.
	r.Report(res, CheckedObject{Key: addrs.IntKey(1)}, checkFail, []string{"bad"})
	r.Declare(Checkable{Kind: "check", Module: addrs.RootModule, Name: "never"})

	wantPlan := `[{"address":{"to_display":"check.never","kind":"check","name":"never"},"status":"unknown"},` +
		`{"address":{"to_display":"terraform_data.a","kind":"resource","mode":"managed","type":"terraform_data","name":"a"},"status":"fail","instances":[` +
		`{"address":{"to_display":"terraform_data.a[0]","instance_key":0},"status":"pass"},` +
		`{"address":{"to_display":"terraform_data.a[1]","instance_key":1},"status":"fail","problems":[{"message":"bad"}]}]}]`
	if diff := cmp.Diff(wantPlan, string(r.PlanChecksJSON())); diff != "" {
		t.Errorf("plan checks (-want +got):\n%s", diff)
	}
	wantState := `[{"object_kind":"check","config_addr":"check.never","status":"unknown","objects":[]},` +
		`{"object_kind":"resource","config_addr":"terraform_data.a","status":"fail","objects":[` +
		`{"object_addr":"terraform_data.a[0]","status":"pass"},{"object_addr":"terraform_data.a[1]","status":"fail","failure_messages":["bad"]}]}]`
	if diff := cmp.Diff(wantState, string(r.StateCheckResultsJSON())); diff != "" {
		t.Errorf("state check results (-want +got):\n%s", diff)
	}
	var empty CheckResults
	if js := empty.PlanChecksJSON(); js != nil {
		t.Errorf("no checkable objects: got %s, want nil", js)
	}
}
