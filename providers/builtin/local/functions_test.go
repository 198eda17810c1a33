package local

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// The error texts are hashicorp/local v2.5.3's.
func TestDirExists(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	tests := []struct {
		name    string
		path    string
		want    cty.Value
		wantErr string
	}{
		{"absolute directory", dir, cty.True, ""},
		{"relative directory", "sub", cty.True, ""},
		{"dot", ".", cty.True, ""},
		{"missing", "nope", cty.False, ""},
		{"home is not expanded", "~", cty.False, ""},
		{"file", "file", cty.NilVal, `Invalid file mode detected: "file" was found, but is not a directory`},
		{"below a file", "file/x", cty.NilVal, "Error checking for directory: stat " + filepath.Join(dir, "file", "x") + ": not a directory"},
	}
	p := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := p.CallFunction(context.Background(), providers.CallFunctionRequest{Name: "direxists", Arguments: []cty.Value{cty.StringVal(tt.path)}})
			if tt.wantErr != "" {
				if resp.Err == nil || resp.Err.Text != tt.wantErr || resp.Err.Argument == nil || *resp.Err.Argument != 0 {
					t.Fatalf("error = %#v, want %q blaming argument 0", resp.Err, tt.wantErr)
				}
				return
			}
			if resp.Err != nil {
				t.Fatal(resp.Err)
			}
			if diff := cmp.Diff(tt.want.GoString(), resp.Result.GoString()); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDirExistsDeclared(t *testing.T) {
	resp := New().GetFunctions(context.Background())
	f, ok := resp.Functions["direxists"]
	if !ok || !f.ReturnType.Equals(cty.Bool) || len(f.Parameters) != 1 || f.Parameters[0].Name != "path" {
		t.Errorf("direxists declaration = %#v", f)
	}
}
