package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// tofuBinary is an OpenTofu binary for the live cross-check: TENET_TEST_TOFU,
// else tofu on PATH. The recorded fixtures of state/backend/backends cover
// the layout without it.
func tofuBinary(t *testing.T) string {
	if p := os.Getenv("TENET_TEST_TOFU"); p != "" {
		return p
	}
	p, err := exec.LookPath("tofu")
	if err != nil {
		t.Skip("SKIPPING: no OpenTofu binary (set TENET_TEST_TOFU or put tofu on PATH); the recorded OpenTofu fixtures are tested in state/backend/backends")
	}
	return p
}

func runTofu(t *testing.T, tofu, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tofu, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("tofu %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// TestBackendOpenTofuCrossCheck: what tenet writes to pg and s3 (two
// workspaces) OpenTofu lists, reads and finds up to date; what OpenTofu
// then writes, tenet reads.
func TestBackendOpenTofuCrossCheck(t *testing.T) {
	tofu := tofuBinary(t)
	needS3(t)
	for _, be := range []struct {
		typ      string
		settings map[string]cty.Value
	}{
		{"pg", pgSettings(t, pgSchema(t))},
		{"s3", s3Settings(t, randomName("cross-")+"/terraform.tfstate")},
	} {
		t.Run(be.typ, func(t *testing.T) {
			if be.typ == "s3" {
				be.settings["skip_requesting_account_id"] = cty.True
			}
			src := backendBlock(be.typ, be.settings) + `
variable "v" {
  type    = string
  default = "tenet"
}
resource "terraform_data" "a" {
  input = "${var.v}-${terraform.workspace}"
}
output "ws" {
  value = terraform_data.a.output
}
`
			dir := t.TempDir()
			writeMain(t, dir, src)
			mustTenet(t, dir, nil, "init", "-no-color")
			mustTenet(t, dir, nil, "apply", "-auto-approve", "-no-color")
			mustTenet(t, dir, nil, "workspace", "new", "prod")
			mustTenet(t, dir, nil, "apply", "-auto-approve", "-no-color")

			tdir := t.TempDir()
			writeMain(t, tdir, src)
			runTofu(t, tofu, tdir, nil, "init", "-no-color")
			if out := runTofu(t, tofu, tdir, nil, "workspace", "list"); !strings.Contains(out, "default") || !strings.Contains(out, "prod") {
				t.Fatalf("tofu workspace list:\n%s", out)
			}
			for _, ws := range []string{"default", "prod"} {
				env := []string{"TF_WORKSPACE=" + ws}
				if out := runTofu(t, tofu, tdir, env, "plan", "-no-color"); !strings.Contains(out, "No changes") {
					t.Fatalf("tofu plan of %s after tenet:\n%s", ws, out)
				}
				if out := runTofu(t, tofu, tdir, env, "output", "-raw", "ws"); out != "tenet-"+ws {
					t.Fatalf("tofu output in %s = %q", ws, out)
				}
				runTofu(t, tofu, tdir, env, "apply", "-auto-approve", "-no-color", "-var", "v=tofu")
				if out := mustTenet(t, dir, env, "output", "-raw", "ws"); out != "tofu-"+ws {
					t.Fatalf("tenet output in %s after tofu = %q", ws, out)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
				t.Fatal("a local state appeared")
			}
		})
	}
}
