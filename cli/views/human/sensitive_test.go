package human

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestShowSensitiveOff renders the -show-sensitive golden's plan without
// the option: every sensitive value is hidden again, and the lines that do
// not depend on the option are the same.
func TestShowSensitiveOff(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/plan-show-sensitive.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var planJSON []byte
	for _, f := range ar.Files {
		if f.Name == "plan.json" {
			planJSON = f.Data
		}
	}
	var buf bytes.Buffer
	if err := RenderPlan(&buf, planJSON, builtinSchemas, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		`      ~ password = (sensitive value)`,
		`      ~ ports    = [` + "\n" + `            1,` + "\n" + `          - (sensitive value),` + "\n" + `          + (sensitive value),`,
		`            # Warning: this value becomes sensitive with this change and will be hidden in later output.` + "\n" + `          ~ b = (sensitive value)`,
		`            # (this block holds sensitive values, so its contents are not shown)`,
		`      ~ script = (sensitive value)`,
		`      - password = (sensitive value) -> null`,
		`      - tags     = (sensitive value) -> null`,
		`  + fresh  = (sensitive value)`,
		`  ~ secret = (sensitive value)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendering lacks %q:\n%s", want, got)
		}
	}
	for _, secret := range []string{`"old"`, `"new"`, `"pw"`, `"same"`, `"y"`, `"a"`} {
		if strings.Contains(got, secret) {
			t.Errorf("rendering shows the sensitive %s:\n%s", secret, got)
		}
	}
}
