package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// remoteBackends are the backends the end-to-end test runs against, each
// with the block that points at the test server (from scripts/services.sh).
func remoteBackends(t *testing.T) []struct{ name, block string } {
	var out []struct{ name, block string }
	suffix := fmt.Sprintf("%d", time.Now().UnixNano())
	if conn := os.Getenv("TENET_TEST_PG_CONN"); conn != "" {
		out = append(out, struct{ name, block string }{"pg", fmt.Sprintf("backend \"pg\" {\n    conn_str = %q\n    schema_name = \"cli_%s\"\n  }", conn, suffix)})
	} else {
		t.Log("SKIPPING pg: TENET_TEST_PG_CONN is not set (eval \"$(bash scripts/services.sh)\")")
	}
	if ep := os.Getenv("TENET_TEST_S3_ENDPOINT"); ep != "" {
		out = append(out, struct{ name, block string }{"s3", fmt.Sprintf("backend \"s3\" {\n    bucket = %q\n    key = \"cli-%s/terraform.tfstate\"\n    region = %q\n    endpoints = { s3 = %q }\n    use_path_style = true\n    access_key = %q\n    secret_key = %q\n    skip_credentials_validation = true\n    use_lockfile = true\n  }",
			os.Getenv("TENET_TEST_S3_BUCKET"), suffix, os.Getenv("TENET_TEST_S3_REGION"), ep, os.Getenv("TENET_TEST_S3_ACCESS_KEY"), os.Getenv("TENET_TEST_S3_SECRET_KEY"))})
	} else {
		t.Log("SKIPPING s3: TENET_TEST_S3_ENDPOINT is not set (eval \"$(bash scripts/services.sh)\")")
	}
	if len(out) == 0 {
		t.Skip("SKIPPING: no backend test server configured")
	}
	return out
}

// TestBackendRemoteEndToEnd runs init, apply, state commands, workspaces
// and output against each remote backend: nothing may land in a local
// terraform.tfstate.
func TestBackendRemoteEndToEnd(t *testing.T) {
	for _, be := range remoteBackends(t) {
		t.Run(be.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := "terraform {\n  " + be.block + "\n}\n" + `
resource "terraform_data" "a" {
  input = terraform.workspace
}
output "ws" {
  value = terraform_data.a.output
}
`
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			readerDir := t.TempDir()
			settings := be.block[strings.Index(be.block, "{"):]
			readerCfg := fmt.Sprintf("data \"terraform_remote_state\" \"x\" {\n  backend = %q\n  config = %s\n}\noutput \"seen\" {\n  value = data.terraform_remote_state.x.outputs.ws\n}\n", be.name, settings)
			if err := os.WriteFile(filepath.Join(readerDir, "main.tf"), []byte(readerCfg), 0o644); err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				args     []string
				ok       bool
				stdout   string
				stderr   string
				noLocalF bool
				reader   bool // run in the directory reading the state with terraform_remote_state
			}{
				{args: []string{"plan", "-no-color"}, stderr: `Backend initialization required`},
				{args: []string{"init", "-no-color"}, ok: true, stdout: `Successfully configured the backend "` + be.name},
				{args: []string{"apply", "-auto-approve", "-no-color"}, ok: true, stdout: `Apply complete! Resources: 1 added`, noLocalF: true},
				{args: []string{"plan", "-no-color"}, ok: true, stdout: `No changes\.`},
				{args: []string{"apply", "-auto-approve", "-no-color"}, ok: true, stdout: `seen = "default"`, reader: true},
				{args: []string{"state", "list"}, ok: true, stdout: `(?m)^terraform_data\.a$`},
				{args: []string{"output", "-raw", "ws"}, ok: true, stdout: `\Adefault\z`},
				{args: []string{"state", "pull"}, ok: true, stdout: `"serial":\s*1,`},
				{args: []string{"workspace", "new", "dev"}, ok: true, stdout: `Created and switched to workspace "dev"`},
				{args: []string{"workspace", "list"}, ok: true, stdout: `(?m)^  default\n\* dev$`},
				{args: []string{"apply", "-auto-approve", "-no-color"}, ok: true, stdout: `ws = "dev"`, noLocalF: true},
				{args: []string{"state", "rm", "terraform_data.a"}, ok: true},
				{args: []string{"plan", "-no-color", "-out=p.tfplan"}, ok: true, stdout: `Plan: 1 to add`},
				{args: []string{"apply", "-no-color", "p.tfplan"}, ok: true, stdout: `Apply complete! Resources: 1 added`, noLocalF: true},
				{args: []string{"apply", "-no-color", "p.tfplan"}, stderr: `Saved plan is stale`},
				{args: []string{"workspace", "select", "default"}, ok: true},
				{args: []string{"workspace", "delete", "dev"}, stderr: `is currently tracking the following resource instances`},
				{args: []string{"workspace", "delete", "-force", "dev"}, ok: true, stdout: `Deleted workspace "dev"`},
				{args: []string{"workspace", "list"}, ok: true, stdout: `\A\* default\n\n\z`},
				{args: []string{"destroy", "-auto-approve", "-no-color"}, ok: true, stdout: `Resources: 1 destroyed`, noLocalF: true},
			}
			for _, s := range steps {
				cmd := exec.Command(os.Args[0], s.args...)
				cmd.Dir = dir
				if s.reader {
					cmd.Dir = readerDir
				}
				cmd.Env = []string{"TENET_SCRIPT_TEST_RUN_MAIN=1", "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				if (err == nil) != s.ok {
					t.Fatalf("tenet %s: err=%v, want ok=%v\nstdout:\n%s\nstderr:\n%s", strings.Join(s.args, " "), err, s.ok, out.String(), errb.String())
				}
				if s.stdout != "" && !regexp.MustCompile(s.stdout).MatchString(out.String()) {
					t.Fatalf("tenet %s: stdout does not match %q:\n%s\nstderr:\n%s", strings.Join(s.args, " "), s.stdout, out.String(), errb.String())
				}
				if s.stderr != "" && !regexp.MustCompile(s.stderr).MatchString(errb.String()) {
					t.Fatalf("tenet %s: stderr does not match %q:\n%s", strings.Join(s.args, " "), s.stderr, errb.String())
				}
				if s.noLocalF {
					for _, p := range []string{"terraform.tfstate", "errored.tfstate"} {
						if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
							t.Fatalf("tenet %s left %s: the state must go to the backend", strings.Join(s.args, " "), p)
						}
					}
					if left, _ := filepath.Glob(filepath.Join(dir, ".terraform", "tenet-remote", "*")); len(left) > 0 {
						t.Fatalf("tenet %s left its working copy: %v", strings.Join(s.args, " "), left)
					}
				}
			}
		})
	}
}
