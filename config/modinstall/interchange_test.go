package modinstall

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/config"
)

// testdata/tofu-installed is a working directory as OpenTofu 1.10.6 left
// it after `tofu init` (the .git directories of its clones left out):
// local modules, git modules with a tag, a branch with depth=1 and
// subdirectories, a local call inside a git package and a git call
// inside a local module. init-modules.txt is what that init printed for
// modules. The git repository was at recordedRepo then.
const (
	recordedDir  = "testdata/tofu-installed"
	recordedRepo = "/tmp/tenet-modrec/repo.git"
)

func copyRecorded(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "root")
	if err := copyTree(recordedDir, root, nil); err != nil {
		t.Fatal(err)
	}
	return root
}

// treeOf lists the files under dir (without .git) with their contents.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The installation OpenTofu wrote is read by the same code that reads
// ours: it matches the configuration, init keeps it without fetching
// anything, and the loader finds every module where OpenTofu put it.
func TestReadsOpenTofuInstallation(t *testing.T) {
	root := copyRecorded(t)
	recorded := readManifest(t, root)
	if d := ManifestMatches(root, Options{}); len(d) > 0 {
		t.Fatalf("OpenTofu's installation does not match its configuration: %v", diagList(d))
	}
	// Without git on PATH any fetch would fail: nothing may be fetched.
	t.Setenv("PATH", "")
	var events []string
	m, diags := Install(context.Background(), root, Options{Progress: func(e Event) { events = append(events, e.String()) }})
	if diags.HasErrors() {
		t.Fatal(diagList(diags))
	}
	if len(events) != 0 {
		t.Errorf("init showed %q for an installation that is complete; OpenTofu shows nothing", events)
	}
	if got := readManifest(t, root); got != recorded {
		t.Errorf("init rewrote OpenTofu's modules.json differently:\n got %s\nwant %s", got, recorded)
	}
	if diff := cmp.Diff(treeOf(t, recordedDir), treeOf(t, root)); diff != "" {
		t.Errorf("init changed the installed files (-recorded +now)\n%s", diff)
	}
	cfg, diags := config.LoadWithModules(os.DirFS(root), ".", m)
	if diags.HasErrors() {
		t.Fatal(diagList(diags))
	}
	got := map[string]string{}
	for _, mod := range cfg.Modules() {
		got[config.ModuleKey(mod.Path)] = mod.SourceDir
	}
	want := map[string]string{
		"":            ".",
		"local":       "local",
		"local.again": ".terraform/modules/local.again/shared",
		"net":         ".terraform/modules/net/net",
		"net.route":   ".terraform/modules/net/shared",
		"shallow":     ".terraform/modules/shallow/shared",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loaded module directories (-want +got)\n%s", diff)
	}
}

// Installing the same configuration from the same repository gives what
// OpenTofu gave: modules.json byte for byte, the same files in the same
// directories, and init's lines in OpenTofu's words and order.
func TestWritesOpenTofuInstallation(t *testing.T) {
	recPkg := filepath.Join(recordedDir, ".terraform/modules/net")
	src := t.TempDir()
	git(t, src, "init", "-q", "-b", "main")
	for _, f := range []string{"net/main.tf", "shared/main.tf"} {
		b, err := os.ReadFile(filepath.Join(recPkg, f))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, src, map[string]string{f: string(b)})
	}
	git(t, src, "add", ".")
	git(t, src, "commit", "-q", "-m", "v1")
	git(t, src, "tag", "v1.0.0")
	git(t, src, "checkout", "-q", "-b", "feature")
	git(t, src, "commit", "-q", "--allow-empty", "-m", "f")
	git(t, src, "checkout", "-q", "main")
	repo := filepath.Join(t.TempDir(), "repo.git")
	git(t, src, "clone", "-q", "--bare", src, repo)
	moved := func(s string) string { return strings.ReplaceAll(s, recordedRepo, repo) }

	root := filepath.Join(t.TempDir(), "root")
	for _, f := range []string{"main.tf", "local/main.tf"} {
		b, err := os.ReadFile(filepath.Join(recordedDir, f))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, root, map[string]string{f: moved(string(b))})
	}
	var events []string
	if _, diags := Install(context.Background(), root, Options{Progress: func(e Event) { events = append(events, e.String()) }}); diags.HasErrors() {
		t.Fatal(diagList(diags))
	}
	recorded, err := os.ReadFile(filepath.Join(recordedDir, ".terraform/modules/modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(moved(string(recorded)), readManifest(t, root)); diff != "" {
		t.Errorf("modules.json (-OpenTofu's +ours)\n%s", diff)
	}
	wantTree := treeOf(t, filepath.Join(recordedDir, ".terraform/modules"))
	delete(wantTree, "modules.json")
	gotTree := treeOf(t, filepath.Join(root, ".terraform/modules"))
	delete(gotTree, "modules.json")
	if diff := cmp.Diff(wantTree, gotTree); diff != "" {
		t.Errorf("installed files (-OpenTofu's +ours)\n%s", diff)
	}
	out, err := os.ReadFile(filepath.Join(recordedDir, "init-modules.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(moved(string(out))), "\n")
	if diff := cmp.Diff(lines[1:], events); diff != "" { // lines[0] is the CLI's header
		t.Errorf("init's module lines (-OpenTofu's +ours)\n%s", diff)
	}
}
