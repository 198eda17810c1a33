package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// pluginWorkspace is a working directory whose CLI configuration installs
// registry.opentofu.org/tenet/test v1.0.0 (the plugin client's test
// provider, built for real) from a filesystem mirror.
type pluginWorkspace struct {
	t      *testing.T
	self   string
	dir    string
	mirror string
	env    []string
}

func newPluginWorkspace(t *testing.T, mainTF string) *pluginWorkspace {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and launches a provider plugin")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	mirror := filepath.Join(root, "mirror")
	pkg := filepath.Join(mirror, "registry.opentofu.org", "tenet", "test", "1.0.0", runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(pkg, "terraform-provider-test_v1.0.0"), "../providers/plugin/internal/testprovider/cmd/testprovider")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the test provider: %v\n%s", err, out)
	}
	tfrc := filepath.Join(root, "cli.tfrc")
	writeFile(t, tfrc, `provider_installation {
  filesystem_mirror {
    path = "`+mirror+`"
  }
}
`)
	dir := filepath.Join(root, "work")
	writeFile(t, filepath.Join(dir, "main.tf"), mainTF)
	return &pluginWorkspace{t: t, self: self, dir: dir, mirror: mirror, env: []string{
		runMainEnv + "=1",
		"HOME=" + filepath.Join(root, "home"),
		"PATH=" + os.Getenv("PATH"),
		"TMPDIR=" + os.TempDir(),
		"TF_CLI_CONFIG_FILE=" + tfrc,
	}}
}

func writeFile(t *testing.T, path, src string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs tenet in the workspace and returns its status and output.
func (w *pluginWorkspace) run(args ...string) (int, string, string) {
	w.t.Helper()
	cmd := exec.Command(w.self, append([]string{"-chdir=" + w.dir}, args...)...)
	cmd.Env = w.env
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

func (w *pluginWorkspace) mustRun(args ...string) string {
	w.t.Helper()
	code, out, errOut := w.run(args...)
	if code != 0 {
		w.t.Fatalf("tenet %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

const pluginConfig = `terraform {
  required_providers {
    test = { source = "tenet/test", version = "~> 1.0" }
  }
}
provider "test" {}
provider "test" {
  alias = "b"
}
resource "test_thing" "a" {
  name = "a"
}
resource "test_thing" "b" {
  provider = test.b
  name     = "b"
}
resource "random_pet" "p" {}
`

func TestPluginFromMirror(t *testing.T) {
	w := newPluginWorkspace(t, pluginConfig)

	out := w.mustRun("init", "-no-color")
	mustContain(t, "init output", out,
		"Initializing provider plugins...",
		"- Using tenet's built-in hashicorp/random (no package found in the configured installation sources)",
		`- Finding tenet/test versions matching "~> 1.0"...`,
		"- Installing tenet/test v1.0.0...",
		"- Installed tenet/test v1.0.0 (unauthenticated)",
		"tenet has created a lock file .terraform.lock.hcl to record the provider",
		"Warning: Incomplete lock file information for providers",
	)
	lock, err := os.ReadFile(filepath.Join(w.dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "lock file", string(lock), `provider "registry.opentofu.org/tenet/test"`, `version     = "1.0.0"`, "h1:")
	if strings.Contains(string(lock), "random") {
		t.Errorf("the built-in random got a lock entry:\n%s", lock)
	}

	out = w.mustRun("apply", "-auto-approve", "-no-color")
	mustContain(t, "apply output", out, "test_thing.a: Creation complete", "test_thing.b: Creation complete", "Resources: 3 added")
	caches, _ := filepath.Glob(filepath.Join(w.dir, ".terraform", "providers", ".schemas", "*.json"))
	if len(caches) != 1 {
		t.Errorf("want one cached schema, got %v", caches)
	}
	out = w.mustRun("plan", "-no-color")
	mustContain(t, "plan with a cached schema", out, "No changes.")
	out = w.mustRun("state", "show", "-no-color", "test_thing.a")
	// Drawn with the plugin's schema: blk_group is a nested block.
	mustContain(t, "state show of a plugin's resource", out, `    name = "a"`, "    blk_group {")
	out = w.mustRun("show", "-json")
	mustContain(t, "show -json", out, `"provider_name":"registry.opentofu.org/tenet/test"`)

	var v map[string]any
	if err := json.Unmarshal([]byte(w.mustRun("version", "-json")), &v); err != nil {
		t.Fatal(err)
	}
	if sel, _ := v["provider_selections"].(map[string]any); sel["registry.opentofu.org/tenet/test"] != "1.0.0" || len(sel) != 1 {
		t.Errorf("provider_selections = %v", v["provider_selections"])
	}
	if v["terraform_version"] == "" || v["platform"] != runtime.GOOS+"_"+runtime.GOARCH {
		t.Errorf("version -json = %v", v)
	}

	var schemas struct {
		FormatVersion   string `json:"format_version"`
		ProviderSchemas map[string]struct {
			ResourceSchemas map[string]struct {
				Block struct {
					BlockTypes map[string]struct {
						NestingMode string `json:"nesting_mode"`
						MaxItems    int    `json:"max_items"`
					} `json:"block_types"`
				} `json:"block"`
			} `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("providers", "schema", "-json")), &schemas); err != nil {
		t.Fatal(err)
	}
	bt := schemas.ProviderSchemas["registry.opentofu.org/tenet/test"].ResourceSchemas["test_thing"].Block.BlockTypes["blk_list"]
	if schemas.FormatVersion != "1.0" || bt.NestingMode != "list" || bt.MaxItems != 3 {
		t.Errorf("providers schema -json: format %q, blk_list %+v", schemas.FormatVersion, bt)
	}
	if _, ok := schemas.ProviderSchemas["registry.opentofu.org/hashicorp/random"]; !ok {
		t.Errorf("providers schema -json lacks the built-in random")
	}

	out = w.mustRun("providers", "-no-color")
	mustContain(t, "providers", out, "provider[registry.opentofu.org/tenet/test] ~> 1.0", "provider[registry.opentofu.org/hashicorp/random]")

	// A changed package is refused, never silently replaced.
	exes, _ := filepath.Glob(filepath.Join(w.dir, ".terraform", "providers", "registry.opentofu.org", "tenet", "test", "1.0.0", "*", "terraform-provider-test*"))
	if len(exes) != 1 {
		t.Fatalf("installed executables: %v", exes)
	}
	f, err := os.OpenFile(exes[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	f.Close()
	code, _, errOut := w.run("plan", "-no-color")
	if code != 1 {
		t.Errorf("plan with a changed package: exit %d", code)
	}
	mustContain(t, "plan with a changed package", errOut, "Provider checksum mismatch", "Run init")

	// Reinstalled by init, then the lock file entry goes missing.
	w.mustRun("init", "-no-color")
	os.Remove(filepath.Join(w.dir, ".terraform.lock.hcl"))
	code, _, errOut = w.run("plan", "-no-color")
	if code != 1 {
		t.Errorf("plan without a lock file: exit %d", code)
	}
	mustContain(t, "plan without a lock file", errOut, "Inconsistent dependency lock file", "tenet/test", "on main.tf line 3")
	// A lock file init would have to change is refused under
	// -lockfile=readonly, in OpenTofu's words.
	code, _, errOut = w.run("init", "-no-color", "-lockfile=readonly")
	if code != 1 {
		t.Errorf("init -lockfile=readonly without the lock entry: exit %d", code)
	}
	mustContain(t, "init -lockfile=readonly", errOut, "Error: Provider dependency changes detected",
		"Changes to the required provider dependencies were detected, but the lock\nfile is read-only. To use and record these requirements, run \"tenet init\"\nwithout the \"-lockfile=readonly\" flag.")

	w.mustRun("init", "-no-color")
	out = w.mustRun("destroy", "-auto-approve", "-no-color")
	mustContain(t, "destroy", out, "Resources: 3 destroyed")
}

// A provider tenet has built in is installed when a configured source has
// it; a broken package there is reported, not replaced by the built-in.
func TestBuiltinProviderFromMirror(t *testing.T) {
	w := newPluginWorkspace(t, `resource "random_pet" "p" {}
`)
	pkg := filepath.Join(w.mirror, "registry.opentofu.org", "hashicorp", "random", "3.6.0", runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(pkg, "nowhere"), filepath.Join(pkg, "terraform-provider-random_v3.6.0")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := w.run("init", "-no-color")
	if code != 1 {
		t.Fatalf("init with a dangling symlink in the mirror: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "built-in") || !strings.Contains(errOut, "Error:") || strings.Contains(errOut, "panic") {
		t.Errorf("init output:\n%s\n%s", out, errOut)
	}
	t.Logf("dangling symlink: %s", errOut)
}

// Without a package in any configured source, plan, apply and -lockfile
// run the built-in, with no lock entry.
func TestBuiltinStandsIn(t *testing.T) {
	w := newPluginWorkspace(t, `resource "random_pet" "p" {}
`)
	out := w.mustRun("init", "-no-color", "-lockfile=readonly")
	mustContain(t, "init", out, "- Using tenet's built-in hashicorp/random")
	if _, err := os.Stat(filepath.Join(w.dir, ".terraform.lock.hcl")); err == nil {
		t.Errorf("init wrote a lock file for a built-in provider")
	}
	w.mustRun("apply", "-auto-approve", "-no-color")
	code, _, errOut := w.run("init", "-lockfile=bogus")
	if code != 1 || !strings.Contains(errOut, "Invalid -lockfile option") {
		t.Errorf("init -lockfile=bogus: exit %d\n%s", code, errOut)
	}
}
