package modinstall

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/config"
)

// TestFromModule copies a module from a git package with a local call, a
// call of another git package and a call leaving its subdirectory, and
// checks the lines, the files and the manifest against what OpenTofu
// 1.10.6 produces for the same layout.
func TestFromModule(t *testing.T) {
	shared, _ := gitRepo(t, "", commit{files: map[string]string{
		"main.tf":      "module \"inner\" {\n  source = \"./inner\"\n}\n",
		"inner/v.tf":   "output \"v\" { value = 1 }\n",
		".gitignore":   "x\n",
		"other/o.tf":   "",
		"other/p/p.tf": "",
	}})
	pkg, _ := gitRepo(t, "", commit{files: map[string]string{
		"app/main.tf":   "module \"loc\" {\n  source = \"./l\"\n}\nmodule \"shared\" {\n  source = \"git::" + shared + "\"\n}\n",
		"app/l/main.tf": "",
		"app/.hidden":   "secret\n",
		"other/main.tf": "module \"up\" {\n  source = \"../app/l\"\n}\n",
	}})
	tests := []struct {
		name, source string
		wantLines    []string
		wantErr      string
		wantManifest config.ModuleManifest
		wantFiles    []string
	}{{
		name:   "git subdirectory",
		source: "git::" + pkg + "//app",
		wantLines: []string{
			"Downloading git::" + shared + " for shared...",
			"- loc", "- shared", "- shared.inner",
		},
		wantManifest: config.ModuleManifest{
			"":             {Key: "", Dir: "."},
			"loc":          {Key: "loc", Source: "./l", Dir: ".terraform/init-from-module/root/app/l"},
			"shared":       {Key: "shared", Source: "git::" + shared, Dir: ".terraform/modules/shared"},
			"shared.inner": {Key: "shared.inner", Source: "./inner", Dir: ".terraform/modules/shared/inner"},
		},
		wantFiles: []string{"main.tf", "l/main.tf", ".terraform/modules/shared/inner/v.tf"},
	}, {
		name:      "call leaving the subdirectory",
		source:    "git::" + pkg + "//other",
		wantLines: []string{"- up"},
		wantErr:   "The requested module \"git::" + pkg + "//other\" refers to a module via its parent directory. To use this as a new root module this source string must be rewritten as a remote source address, such as \"git::" + pkg + "//app/l\".",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			var lines []string
			diags := FromModule(context.Background(), root, tc.source, Options{Progress: func(e Event) { lines = append(lines, e.String()) }})
			if diff := cmp.Diff(tc.wantLines, lines); diff != "" {
				t.Errorf("lines (-want +got)\n%s", diff)
			}
			if tc.wantErr != "" {
				if !diags.HasErrors() || diags[0].Detail != tc.wantErr {
					t.Fatalf("diagnostics = %v; want the error %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(string(tc.wantManifest.Marshal()), readManifest(t, root)); diff != "" {
				t.Errorf("modules.json (-want +got)\n%s", diff)
			}
			for _, f := range tc.wantFiles {
				if _, err := os.Stat(filepath.Join(root, f)); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
			for _, f := range []string{".hidden", ".terraform/modules/shared/.git", ".terraform/modules/shared/.gitignore", FromModuleDir} {
				if _, err := os.Stat(filepath.Join(root, f)); err == nil {
					t.Errorf("%s was copied; dot entries and the installation directory must not be left", f)
				}
			}
		})
	}
}

// TestFromModuleNotEmpty refuses a directory holding anything but
// .terraform, and accepts one holding just that.
func TestFromModuleNotEmpty(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"README": "x"})
	diags := FromModule(context.Background(), root, "./x", Options{})
	if !diags.HasErrors() || diags[0].Summary != "Can't populate non-empty directory" {
		t.Fatalf("diagnostics = %v; want Can't populate non-empty directory", diags)
	}
}

// TestFromModuleRegistry copies the newest release a registry offers
// (no version constraint can be given) and installs what it calls.
func TestFromModuleRegistry(t *testing.T) {
	reg := newRegistry(t)
	for _, v := range []string{"1.0.0", "2.0.0"} {
		reg.archives["/archives/vpc-"+v+".tar.gz"] = tarGz(t,
			entry{name: "main.tf", body: "module \"sub\" {\n  source = \"./sub\"\n}\n# " + v + "\n"},
			entry{name: "sub/main.tf", body: ""},
		)
	}
	root := t.TempDir()
	var lines []string
	opts := reg.opts()
	opts.Progress = func(e Event) { lines = append(lines, e.String()) }
	if diags := FromModule(context.Background(), root, reg.host()+"/ns/vpc/aws", opts); diags.HasErrors() {
		t.Fatal(diags)
	}
	if diff := cmp.Diff([]string{"- sub"}, lines); diff != "" {
		t.Errorf("lines (-want +got)\n%s", diff)
	}
	b, err := os.ReadFile(filepath.Join(root, "main.tf"))
	if err != nil || !strings.Contains(string(b), "# 2.0.0") {
		t.Errorf("main.tf = %q, %v; want the 2.0.0 release", b, err)
	}
	want := config.ModuleManifest{"": {Dir: "."}, "sub": {Key: "sub", Source: "./sub", Dir: FromModuleDir + "/root/sub"}}
	if diff := cmp.Diff(string(want.Marshal()), readManifest(t, root)); diff != "" {
		t.Errorf("modules.json (-want +got)\n%s", diff)
	}
}
