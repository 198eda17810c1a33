package config

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadWithModulesRecordedManifest(t *testing.T) {
	fsys := os.DirFS("testdata/installed")
	m, err := ReadModuleManifest(fsys, ".terraform/modules/modules.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := LoadWithModules(fsys, ".", m)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := map[string]string{}
	for _, mod := range cfg.Modules() {
		got[ModuleKey(mod.Path)] = mod.SourceDir
	}
	want := map[string]string{
		"":          ".",
		"vpc":       ".terraform/modules/vpc",
		"net":       ".terraform/modules/net/modules/subnet",
		"net.route": ".terraform/modules/net/modules/route",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("module dirs (-want +got)\n%s", diff)
	}
	// The manifest is written back byte for byte as OpenTofu wrote it.
	raw, _ := os.ReadFile("testdata/installed/.terraform/modules/modules.json")
	if diff := cmp.Diff(string(raw), string(m.Marshal())); diff != "" {
		t.Errorf("Marshal (-recorded +ours)\n%s", diff)
	}
}

func TestLoadWithModulesErrors(t *testing.T) {
	fsys := os.DirFS("testdata/installed")
	tests := []struct {
		name     string
		manifest ModuleManifest
		want     string
	}{
		{"not installed", ModuleManifest{"": {Dir: "."}}, "main.tf:7,1-13: Module not installed"}, // at the block, as OpenTofu
		{"plain Load", nil, "main.tf:8,12-69: Module source not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := LoadWithModules(fsys, ".", tt.manifest)
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tt.want) {
				t.Errorf("diags = %v, want %q", diags, tt.want)
			}
		})
	}
}

func TestParseModuleManifestErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"not json", "{", "not valid"},
		{"duplicate", `{"Modules":[{"Key":"a","Dir":"x"},{"Key":"a","Dir":"y"}]}`, "twice"},
		{"no dir", `{"Modules":[{"Key":"a"}]}`, "no directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseModuleManifest([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func FuzzParseModuleManifest(f *testing.F) {
	f.Add([]byte(`{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"a","Source":"x/y/z","Version":"1.0.0","Dir":".terraform/modules/a"}]}`))
	f.Add([]byte(`{"Modules":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseModuleManifest(b)
		if err != nil {
			return
		}
		again, err := ParseModuleManifest(m.Marshal())
		if err != nil {
			t.Fatalf("re-reading our own manifest: %v", err)
		}
		if diff := cmp.Diff(m, again); diff != "" {
			t.Fatalf("round trip (-first +second)\n%s", diff)
		}
	})
}
