package modinstall

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInstallFaults(t *testing.T) {
	reg := newRegistry(t)
	h := reg.host()
	reg.archives["/escape.tar.gz"] = tarGz(t, entry{name: "main.tf", body: "#\n"}, entry{name: "../../evil.tf", body: "#\n"})
	reg.archives["/abs.tar.gz"] = tarGz(t, entry{name: "/tmp/evil.tf", body: "#\n"})
	reg.archives["/link.tar.gz"] = tarGz(t, entry{name: "passwd", link: "../../../../etc/passwd"})
	reg.archives["/abslink.zip"] = zipArchive(t, entry{name: "passwd", link: "/etc/passwd"})
	reg.archives["/escape.zip"] = zipArchive(t, entry{name: "../evil.tf", body: "#\n"})
	reg.archives["/big.tar.gz"] = tarGz(t, entry{name: "main.tf", body: strings.Repeat("#", 4096)})
	reg.archives["/nosub.zip"] = zipArchive(t, entry{name: "main.tf", body: "#\n"})
	repo, _ := gitRepo(t, "", commit{tag: "v1", files: map[string]string{"main.tf": "#\n"}})

	tests := []struct {
		name     string
		module   string // body of module "m"
		versions string // registry's versions answer, when set
		max      int64
		want     []string
		detail   string
	}{
		{name: "unknown form", module: `source = "just-a-name"`, want: []string{"main.tf:2: Invalid module source address"}, detail: `use "./just-a-name" instead`},
		{name: "s3", module: `source = "s3::https://s3.amazonaws.com/b/m.zip"`, want: []string{"main.tf:2: Unsupported module source"}, detail: "not supported by tenet"},
		{name: "version on git", module: "source = \"git::" + repo + "\"\n  version = \"1.0.0\"", want: []string{`main.tf:3: Invalid argument "version"`}, detail: "Only module registry sources"},
		{name: "unreachable host", module: `source = "127.0.0.1:1/ns/vpc/aws"`, want: []string{"main.tf:2: Error accessing remote module registry"}, detail: "cannot reach 127.0.0.1:1"},
		{name: "missing ref", module: "source = \"git::" + repo + "?ref=nope\"", want: []string{"main.tf:2: Failed to download module"}, detail: `the ref "nope" does not exist`},
		{name: "missing shallow ref", module: "source = \"git::" + repo + "?ref=nope&depth=1\"", want: []string{"main.tf:2: Failed to download module"}, detail: "nope"},
		{name: "no matching version", module: "source = \"" + h + "/ns/vpc/aws\"\n  version = \"~> 9.0\"", want: []string{"main.tf:3: Unresolvable module version constraint"}, detail: "the registry has 1.0.0, 1.2.0, 1.3.0-beta, 2.0.0"},
		{name: "bad constraint", module: "source = \"" + h + "/ns/vpc/aws\"\n  version = \"!!\"", want: []string{"main.tf:3: Invalid version constraint"}, detail: "~> 1.2"},
		{name: "registry nonsense", module: `source = "` + h + `/ns/vpc/aws"`, versions: `{"modules":[{"versions":[{"version":"banana"}]}]}`, want: []string{"main.tf:2: Invalid response from remote module registry"}, detail: `"banana" is not a version`},
		{name: "registry not json", module: `source = "` + h + `/ns/vpc/aws"`, versions: `<html>`, want: []string{"main.tf:2: Invalid response from remote module registry"}, detail: "not valid"},
		{name: "unknown module", module: `source = "` + h + `/ns/nope/aws"`, want: []string{"main.tf:2: Error accessing remote module registry"}, detail: "has no module ns/nope/aws"},
		{name: "archive escapes", module: `source = "https://` + h + `/escape.tar.gz"`, want: []string{"main.tf:2: Failed to download module"}, detail: "outside the module directory"},
		{name: "absolute entry", module: `source = "https://` + h + `/abs.tar.gz"`, want: []string{"main.tf:2: Failed to download module"}, detail: "outside the module directory"},
		{name: "link escapes", module: `source = "https://` + h + `/link.tar.gz"`, want: []string{"main.tf:2: Failed to download module"}, detail: "points outside"},
		{name: "zip absolute link", module: `source = "https://` + h + `/abslink.zip"`, want: []string{"main.tf:2: Failed to download module"}, detail: "points outside"},
		{name: "zip escapes", module: `source = "https://` + h + `/escape.zip"`, want: []string{"main.tf:2: Failed to download module"}, detail: "outside the module directory"},
		{name: "archive too large", module: `source = "https://` + h + `/big.tar.gz"`, max: 1000, want: []string{"main.tf:2: Failed to download module"}, detail: "unpacks to more than 1000 bytes"},
		{name: "missing subdir", module: `source = "https://` + h + `/nosub.zip//x"`, want: []string{"main.tf:2: Module subdirectory not found"}, detail: `no directory "x"`},
		{name: "archive 404", module: `source = "https://` + h + `/none.zip"`, want: []string{"main.tf:2: Failed to download module"}, detail: "404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.versions != "" {
				old := reg.versions
				reg.versions = tt.versions
				defer func() { reg.versions = old }()
			}
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"main.tf": "module \"m\" {\n  " + tt.module + "\n}\n"})
			opts := reg.opts()
			opts.MaxArchiveBytes = tt.max
			_, diags := Install(context.Background(), root, opts)
			if diff := cmp.Diff(tt.want, diagList(diags)); diff != "" {
				t.Fatalf("diagnostics (-want +got)\n%s\n%v", diff, diags)
			}
			if !strings.Contains(diags[0].Detail, tt.detail) {
				t.Errorf("detail %q does not contain %q", diags[0].Detail, tt.detail)
			}
			if _, err := os.Stat(filepath.Join(root, ".terraform/modules")); err == nil {
				t.Error("a failed install created .terraform/modules")
			}
			ents, _ := os.ReadDir(filepath.Join(root, ".terraform"))
			if len(ents) != 0 {
				t.Errorf(".terraform holds %v after a failed install", ents)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(root), "evil.tf")); err == nil {
				t.Error("the archive wrote outside the target")
			}
		})
	}
}

// TestInstallInterrupted cancels an installation while it downloads: the
// previous installation stays exactly as it was.
func TestInstallInterrupted(t *testing.T) {
	reg := newRegistry(t)
	reg.archives["/a.zip"] = zipArchive(t, entry{name: "main.tf", body: "# a\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"main.tf": fmt.Sprintf("module \"a\" {\n  source = \"https://%s/a.zip\"\n}\n", reg.host())})
	if _, diags := Install(context.Background(), root, reg.opts()); diags.HasErrors() {
		t.Fatal(diags)
	}
	before := readManifest(t, root)

	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	reg.archives["/b.zip"] = nil
	release := make(chan struct{})
	defer close(release)
	inner := reg.srv.Config.Handler
	reg.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/b.zip" {
			close(started)
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		inner.ServeHTTP(w, r)
	})
	writeFiles(t, root, map[string]string{"main.tf": fmt.Sprintf("module \"a\" {\n  source = \"https://%[1]s/a.zip\"\n}\nmodule \"b\" {\n  source = \"https://%[1]s/b.zip\"\n}\n", reg.host())})
	go func() { <-started; cancel() }()
	_, diags := Install(ctx, root, reg.opts())
	if diff := cmp.Diff([]string{"main.tf:5: Module installation interrupted"}, diagList(diags)); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
	if got := readManifest(t, root); got != before {
		t.Errorf("modules.json changed:\n%s\nwant\n%s", got, before)
	}
	ents, _ := os.ReadDir(filepath.Join(root, ".terraform"))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"modules"}, names); diff != "" {
		t.Errorf(".terraform entries (-want +got)\n%s", diff)
	}
	if d := ManifestMatches(root, Options{}); len(d) != 1 || d[0].Summary != "Module not installed" {
		t.Errorf("ManifestMatches = %v, want Module not installed for b", d)
	}
}

func TestManifestMatches(t *testing.T) {
	reg := newRegistry(t)
	for _, v := range []string{"1.0.0", "1.2.0"} {
		reg.archives["/archives/vpc-"+v+".tar.gz"] = tarGz(t, entry{name: "main.tf", body: "#\n"})
	}
	root := t.TempDir()
	write := func(version string) {
		writeFiles(t, root, map[string]string{"main.tf": fmt.Sprintf("module \"vpc\" {\n  source  = \"%s/ns/vpc/aws\"\n  version = %q\n}\n", reg.host(), version)})
	}
	write("1.2.0")
	if _, diags := Install(context.Background(), root, reg.opts()); diags.HasErrors() {
		t.Fatal(diags)
	}
	tests := []struct {
		name, main string
		want       []string
	}{
		{"matches", "", nil},
		{"version changed", "", []string{"main.tf:2: Module version requirements have changed"}},
		{"source changed", "module \"vpc\" {\n  source = \"other.example.com/ns/vpc/aws\"\n}\n", []string{"main.tf:2: Module source has changed"}},
		{"new call", "module \"vpc2\" {\n  source = \"ns/vpc/aws\"\n}\n", []string{"main.tf:2: Module not installed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			switch {
			case tt.name == "version changed":
				write("1.0.0")
			case tt.main != "":
				writeFiles(t, root, map[string]string{"main.tf": tt.main})
			}
			if diff := cmp.Diff(tt.want, diagList(ManifestMatches(root, Options{}))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
