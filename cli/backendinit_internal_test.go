package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestWorkspaceSelection(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "environment"), []byte("staging\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     []string
		want    string
		wantErr bool
	}{
		{"nothing selected", []string{"TF_DATA_DIR=" + filepath.Join(dir, "none")}, "default", false},
		{"environment file", []string{"TF_DATA_DIR=" + filepath.Join(dir, "data")}, "staging", false},
		{"TF_WORKSPACE wins", []string{"TF_DATA_DIR=" + filepath.Join(dir, "data"), "TF_WORKSPACE=prod"}, "prod", false},
		{"empty TF_WORKSPACE is unset", []string{"TF_DATA_DIR=" + filepath.Join(dir, "data"), "TF_WORKSPACE="}, "staging", false},
		{"invalid TF_WORKSPACE", []string{"TF_WORKSPACE=a/b"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := currentWorkspace(tt.env)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("currentWorkspace = %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestWorkspaceNames(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"dev", true}, {"team-a_1.x~", true}, {"", false}, {"a/b", false}, {"a b", false}, {"ü", false},
	}
	for _, tt := range tests {
		if got := validWorkspaceName(tt.name); got != tt.ok {
			t.Errorf("validWorkspaceName(%q) = %v, want %v", tt.name, got, tt.ok)
		}
	}
}

func TestBackendConfigArg(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "b.hcl")
	if err := os.WriteFile(file, []byte("path = \"p.tfstate\"\nworkspace_dir = \"w\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg     string
		want    map[string]cty.Value
		wantErr bool
	}{
		{"path=x.tfstate", map[string]cty.Value{"path": cty.StringVal("x.tfstate")}, false},
		{"conn_str=postgres://h/db?a=b", map[string]cty.Value{"conn_str": cty.StringVal("postgres://h/db?a=b")}, false},
		{file, map[string]cty.Value{"path": cty.StringVal("p.tfstate"), "workspace_dir": cty.StringVal("w")}, false},
		{"=x", nil, true},
		{filepath.Join(dir, "missing.hcl"), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got, diags := parseBackendConfigArg(tt.arg)
			if diags.HasErrors() != tt.wantErr {
				t.Fatalf("errors = %v, want %v", diags, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if !got[k].RawEquals(v) {
					t.Errorf("%s = %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
}

func TestBackendSettingsRoundTrip(t *testing.T) {
	tests := []map[string]cty.Value{
		{},
		{"path": cty.StringVal("x.tfstate")},
		{"bucket": cty.StringVal("b"), "use_lockfile": cty.True, "max_retries": cty.NumberIntVal(3), "endpoints": cty.ObjectVal(map[string]cty.Value{"s3": cty.StringVal("http://h")})},
	}
	for _, vals := range tests {
		raw, err := encodeSettings(vals)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeSettings(raw)
		if err != nil {
			t.Fatal(err)
		}
		if len(back) != len(vals) {
			t.Fatalf("%s: got %v", raw, back)
		}
		for k, v := range vals {
			if !back[k].RawEquals(v) {
				t.Errorf("%s: %s = %#v, want %#v", raw, k, back[k], v)
			}
		}
	}
}
