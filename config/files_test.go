package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConfigFiles(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		want  []string
	}{
		{"tf and json", []string{"a.tf", "b.tf.json", "README.md", "x.tfvars"}, []string{"a.tf", "b.tf.json"}},
		{"tofu files are configuration", []string{"a.tofu", "b.tofu.json"}, []string{"a.tofu", "b.tofu.json"}},
		{"a tofu file hides its tf file", []string{"main.tf", "main.tofu", "other.tf"}, []string{"main.tofu", "other.tf"}},
		{"a tofu json file hides its tf json file only", []string{"m.tf", "m.tf.json", "m.tofu.json"}, []string{"m.tf", "m.tofu.json"}},
		{"overrides too", []string{"override.tf", "override.tofu", "x_override.tf.json"}, []string{"override.tofu", "x_override.tf.json"}},
		{"hidden and backups", []string{".a.tf", "b.tf~", "#c.tf#", "d.tofu"}, []string{"d.tofu"}},
		{"tests are not configuration", []string{"a.tftest.hcl", "a.tofutest.hcl"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ConfigFiles(tt.names)); diff != "" {
				t.Errorf("ConfigFiles(%q) (-want +got):\n%s", tt.names, diff)
			}
		})
	}
}

func TestIsOverrideFile(t *testing.T) {
	for name, want := range map[string]bool{
		"override.tf": true, "override.tofu": true, "x_override.tf.json": true, "x_override.tofu.json": true,
		"main.tf": false, "overrides.tf": false, "main.tofu": false,
	} {
		if got := IsOverrideFile(name); got != want {
			t.Errorf("IsOverrideFile(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestTestFiles(t *testing.T) {
	names := []string{"a.tftest.hcl", "a.tofutest.hcl", "b.tftest.json", "c.tofutest.json", ".d.tftest.hcl", "main.tf", "e.tftest.hcl"}
	want := []string{"a.tofutest.hcl", "b.tftest.json", "c.tofutest.json", "e.tftest.hcl"}
	if diff := cmp.Diff(want, TestFiles(names)); diff != "" {
		t.Errorf("TestFiles (-want +got):\n%s", diff)
	}
}
