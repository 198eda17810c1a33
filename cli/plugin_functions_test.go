package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const functionsConfig = `terraform {
  required_providers {
    test = { source = "tenet/test", version = "~> 1.0" }
  }
}
resource "terraform_data" "a" {
  input = provider::test::upper("x")
}
output "up" {
  value = provider::test::upper("abc")
}
output "sum" {
  value = provider::test::sum(1, 2, 3.5)
}
output "none" {
  value = provider::test::sum()
}
output "null_allowed" {
  value = provider::test::echo(null) == null
}
output "unknown_allowed" {
  value = provider::test::echo(terraform_data.a.id) != ""
}
output "unknown_short_circuits" {
  value = provider::test::upper(terraform_data.a.output)
}
provider "test" {
  alias = "b"
}
output "through_alias" {
  value = provider::test::b::upper("def")
}
`

// Provider-defined functions are called in a real plugin process, over
// both protocols, with their declared parameter and return types.
func TestPluginFunctions(t *testing.T) {
	for _, proto := range []string{"5", "6"} {
		t.Run("protocol"+proto, func(t *testing.T) {
			w := newPluginWorkspace(t, functionsConfig)
			w.env = append(w.env, "TENET_TEST_PROVIDER_PROTOCOL="+proto)
			w.mustRun("init", "-no-color")
			out := w.mustRun("validate", "-no-color")
			mustContain(t, "validate", out, "The configuration is valid")
			out = w.mustRun("plan", "-no-color")
			mustContain(t, "plan", out,
				`+ input  = "X"`,
				`+ up                     = "ABC"`,
				`+ sum                    = 6.5`,
				`+ through_alias          = "DEF"`,
				`+ none                   = 0`,
				`+ null_allowed           = true`,
				`+ unknown_allowed        = (known after apply)`,
				`+ unknown_short_circuits = (known after apply)`,
			)
			out = w.mustRun("apply", "-auto-approve", "-no-color")
			mustContain(t, "apply", out, `up = "ABC"`, "unknown_allowed = true", `unknown_short_circuits = "X"`)
		})
	}
}

// A function's failures are errors at the call, naming the argument a
// provider blames; unknown functions and providers are refused.
func TestPluginFunctionErrors(t *testing.T) {
	w := newPluginWorkspace(t, `terraform {
  required_providers {
    test = { source = "tenet/test" }
  }
}
output "f" {
  value = provider::test::fail("boom")
}
output "n" {
  value = provider::test::upper(null)
}
output "t" {
  value = provider::test::upper(["a"])
}
output "x" {
  value = provider::test::nope(1)
}
output "y" {
  value = provider::other::nope(1)
}
`)
	w.mustRun("init", "-no-color")
	code, _, errOut := w.run("validate", "-no-color")
	if code != 1 {
		t.Fatalf("validate: exit %d", code)
	}
	mustContain(t, "validate", errOut, "Unknown function provider", "on main.tf line 19, in output \"y\":", `Provider "other" does not exist within the required_providers of this`)
	// plan validates first, as OpenTofu's does: validation's error alone.
	code, _, errOut = w.run("plan", "-no-color")
	if code != 1 {
		t.Fatalf("plan: exit %d", code)
	}
	mustContain(t, "plan", errOut, "Unknown function provider", "on main.tf line 19, in output \"y\":")
	if strings.Contains(errOut, "fail always fails") {
		t.Errorf("plan went on after validation failed:\n%s", errOut)
	}
	// Without the unknown provider, each call's own error.
	src, err := os.ReadFile(filepath.Join(w.dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	src = []byte(strings.Replace(string(src), "output \"y\" {\n  value = provider::other::nope(1)\n}\n", "", 1))
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = w.run("plan", "-no-color")
	if code != 1 {
		t.Fatalf("plan: exit %d", code)
	}
	for _, want := range []string{
		"on main.tf line 7, in output \"f\":\n   7:   value = provider::test::fail(\"boom\")",
		"fail always fails: boom",
		"on main.tf line 10, in output \"n\":",
		"argument must not be null",
		"on main.tf line 13, in output \"t\":",
		"string required",
		"on main.tf line 16, in output \"x\":",
		`no function named "nope"`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("plan errors lack %q:\n%s", want, errOut)
		}
	}
}

// A resource removed from the configuration together with its provider
// is destroyed through the provider's plugin: init keeps the provider
// the state needs installed and locked, and plan and apply start it.
func TestPluginRequiredOnlyByState(t *testing.T) {
	w := newPluginWorkspace(t, `terraform {
  required_providers {
    test = { source = "tenet/test" }
  }
}
resource "test_thing" "a" {
  name = "a"
}
`)
	w.mustRun("init", "-no-color")
	w.mustRun("apply", "-auto-approve", "-no-color")

	writeFile(t, filepath.Join(w.dir, "main.tf"), "resource \"terraform_data\" \"x\" {}\n")
	out := w.mustRun("init", "-no-color")
	mustContain(t, "init with the provider only in the state", out, "tenet/test v1.0.0")
	lock, err := os.ReadFile(filepath.Join(w.dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "lock file", string(lock), `provider "registry.opentofu.org/tenet/test"`)
	out = w.mustRun("plan", "-no-color")
	mustContain(t, "plan", out, "test_thing.a will be destroyed", "Plan: 1 to add, 0 to change, 1 to destroy.")
	out = w.mustRun("apply", "-auto-approve", "-no-color")
	mustContain(t, "apply", out, "test_thing.a: Destruction complete", "Resources: 1 added, 0 changed, 1 destroyed.")
	out = w.mustRun("state", "list")
	if strings.Contains(out, "test_thing") {
		t.Errorf("state still lists the destroyed object:\n%s", out)
	}
}

// An update planned with unknown values whose final plan at apply time
// equals the prior object is not applied: no apply messages, not counted
// as changed, the object left as it was.
func TestPluginApplySkipsNoOpUpdate(t *testing.T) {
	w := newPluginWorkspace(t, `terraform {
  required_providers {
    test = { source = "tenet/test" }
  }
}
variable "n" {
  default = 1
}
resource "terraform_data" "t" {
  input            = "same"
  triggers_replace = var.n
}
resource "test_thing" "b" {
  name = terraform_data.t.output
}
`)
	w.mustRun("init", "-no-color")
	w.mustRun("apply", "-auto-approve", "-no-color")
	before := w.mustRun("state", "show", "-no-color", "test_thing.b")
	out := w.mustRun("apply", "-auto-approve", "-no-color", "-var", "n=2")
	mustContain(t, "apply", out, "test_thing.b will be updated in-place", "Resources: 1 added, 0 changed, 1 destroyed.")
	if strings.Contains(out, "test_thing.b: Modif") {
		t.Errorf("apply reported applying the no-op update:\n%s", out)
	}
	if after := w.mustRun("state", "show", "-no-color", "test_thing.b"); after != before {
		t.Errorf("the object changed:\n%s\nthen\n%s", before, after)
	}
}

// import -config=DIR reads the configuration from DIR, keeping the
// working directory's installed providers and state, as
// terraform-plugin-testing's import steps need.
func TestPluginImportConfigDir(t *testing.T) {
	w := newPluginWorkspace(t, `terraform {
  required_providers {
    test = { source = "tenet/test" }
  }
}
resource "test_other" "x" {}
`)
	writeFile(t, filepath.Join(w.dir, "alt", "main.tf"), `terraform {
  required_providers {
    test = { source = "tenet/test" }
  }
}
resource "test_other" "y" {
  value = "imported"
}
resource "test_other" "z" {
  value = "imported"
}
`)
	w.mustRun("init", "-no-color")
	if code, _, errOut := w.run("import", "-no-color", "test_other.y", "id-y"); code == 0 {
		t.Fatalf("import of a resource only alt/ declares succeeded without -config:\n%s", errOut)
	}
	out := w.mustRun("import", "-no-color", "-config=alt", "test_other.y", "id-y")
	mustContain(t, "import -config", out, "Import successful!")
	out = w.mustRun("import", "-no-color", "-config="+filepath.Join(w.dir, "alt"), "test_other.z", "id-z")
	mustContain(t, "import -config=ABSOLUTE", out, "Import successful!")
	out = w.mustRun("state", "show", "-no-color", "test_other.y")
	mustContain(t, "state show", out, `id    = "id-y"`)
	out = w.mustRun("state", "show", "-no-color", "test_other.z")
	mustContain(t, "state show", out, `id    = "id-z"`)
}
