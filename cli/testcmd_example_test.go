package cli_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleModuleTests runs `tenet test` on the bundled example
// (examples/starter and its tests/*.tftest.hcl), so the example's own
// tests run in CI with go test, and checks that they pass and leave
// nothing behind.
func TestExampleModuleTests(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "starter")
	src := filepath.Join("..", "examples", "starter")
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if d.Name() == ".terraform" || d.Name() == "out" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(self, args...)
		cmd.Dir = dir
		cmd.Env = []string{"TENET_SCRIPT_TEST_RUN_MAIN=1", "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "TF_CLI_CONFIG_FILE=/dev/null"}
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	if out, code := run("init"); code != 0 {
		t.Fatalf("init exited %d:\n%s", code, out)
	}
	out, code := run("test", "-no-color")
	if code != 0 {
		t.Fatalf("tenet test exited %d:\n%s", code, out)
	}
	for _, want := range []string{
		"tests/site.tftest.hcl... pass",
		"tests/mocked.tftest.hcl... pass",
		`run "apply_staging"... pass`,
		"Success! 5 passed, 0 failed.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var left []string
	_ = filepath.WalkDir(filepath.Join(dir, "out"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, path)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("the tests left files behind: %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Error("tenet test wrote a state file")
	}
}
