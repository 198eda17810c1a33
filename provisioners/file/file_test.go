package file

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/sshtest"
	"github.com/tenetplan/tenet/provisioners"
)

func object(types map[string]cty.Type, attrs map[string]cty.Value) cty.Value {
	full := map[string]cty.Value{}
	for name, ty := range types {
		full[name] = cty.NullVal(ty)
	}
	for k, v := range attrs {
		full[k] = v
	}
	return cty.ObjectVal(full)
}

func config(attrs map[string]cty.Value) cty.Value {
	return object(schema.ImpliedType().AttributeTypes(), attrs)
}

func TestValidate(t *testing.T) {
	for _, tt := range []struct {
		name  string
		attrs map[string]cty.Value
		want  string
	}{
		{"content", map[string]cty.Value{"content": cty.StringVal("x")}, ""},
		{"neither", nil, "Must provide one of 'source' or 'content'"},
		{"both", map[string]cty.Value{"content": cty.StringVal("x"), "source": cty.StringVal("y")}, "Cannot set both 'source' and 'content'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			attrs := map[string]cty.Value{"destination": cty.StringVal("/d")}
			for k, v := range tt.attrs {
				attrs[k] = v
			}
			resp := Provisioner{}.ValidateConfig(context.Background(), provisioners.ValidateConfigRequest{Config: config(attrs)})
			got := ""
			if len(resp.Diagnostics) > 0 {
				got = resp.Diagnostics[0].Summary
			}
			if got != tt.want {
				t.Errorf("error = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestProvision(t *testing.T) {
	t.Setenv("SSH_AUTH_SOCK", "")
	s, err := sshtest.Start("tester", "secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	src, dst := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("from a file"), 0o644)
	os.MkdirAll(filepath.Join(src, "dir", "sub"), 0o755)
	os.WriteFile(filepath.Join(src, "dir", "sub", "b.txt"), []byte("nested"), 0o644)
	conn := object(provisioners.ConnectionSchema.ImpliedType().AttributeTypes(), map[string]cty.Value{
		"host": cty.StringVal(s.Host), "port": cty.NumberIntVal(int64(s.Port)), "user": cty.StringVal("tester"),
		"password": cty.StringVal("secret"), "agent": cty.False,
	})
	for _, attrs := range []map[string]cty.Value{
		{"content": cty.StringVal("some content"), "destination": cty.StringVal(filepath.Join(dst, "content.txt"))},
		{"source": cty.StringVal(filepath.Join(src, "a.txt")), "destination": cty.StringVal(filepath.Join(dst, "copy.txt"))},
		{"source": cty.StringVal(filepath.Join(src, "dir")), "destination": cty.StringVal(dst)},
	} {
		var out []string
		resp := Provisioner{}.Provision(context.Background(), provisioners.ProvisionRequest{Config: config(attrs), Connection: conn, Output: func(s string) { out = append(out, s) }})
		if resp.Diagnostics.HasErrors() {
			t.Fatalf("%v: %v", attrs, resp.Diagnostics)
		}
		if len(out) != 0 {
			t.Errorf("output %q, want none (the file provisioner connects silently)", out)
		}
	}
	for p, want := range map[string]string{"content.txt": "some content", "copy.txt": "from a file", "dir/sub/b.txt": "nested"} {
		got, err := os.ReadFile(filepath.Join(dst, p))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", p, got, err, want)
		}
	}
}
