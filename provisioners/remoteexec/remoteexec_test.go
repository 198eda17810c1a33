package remoteexec

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/internal/sshtest"
	"github.com/tenetplan/tenet/provisioners"
)

func object(block map[string]cty.Type, attrs map[string]cty.Value) cty.Value {
	full := map[string]cty.Value{}
	for name, ty := range block {
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

func connection(attrs map[string]cty.Value) cty.Value {
	return object(provisioners.ConnectionSchema.ImpliedType().AttributeTypes(), attrs)
}

func TestValidate(t *testing.T) {
	for _, tt := range []struct {
		name  string
		attrs map[string]cty.Value
		ok    bool
	}{
		{"inline", map[string]cty.Value{"inline": cty.ListValEmpty(cty.String)}, true},
		{"none", nil, false},
		{"two", map[string]cty.Value{"inline": cty.ListValEmpty(cty.String), "script": cty.StringVal("x")}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := Provisioner{}.ValidateConfig(context.Background(), provisioners.ValidateConfigRequest{Config: config(tt.attrs)})
			if got := !resp.Diagnostics.HasErrors(); got != tt.ok {
				t.Errorf("valid = %v, want %v (%v)", got, tt.ok, resp.Diagnostics)
			}
		})
	}
}

type lines struct {
	mu  sync.Mutex
	got []string
}

func (l *lines) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, s)
}

func TestProvision(t *testing.T) {
	t.Setenv("SSH_AUTH_SOCK", "")
	s, err := sshtest.Start("tester", "secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dir := t.TempDir()
	script := filepath.Join(dir, "local.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho from file\n"), 0o644)
	conn := connection(map[string]cty.Value{
		"host": cty.StringVal(s.Host), "port": cty.NumberIntVal(int64(s.Port)), "user": cty.StringVal("tester"),
		"password": cty.StringVal("secret"), "agent": cty.False, "script_path": cty.StringVal(filepath.Join(dir, "remote_%RAND%.sh")),
	})
	connected := []string{
		"Connecting to remote host via SSH...\n  Host: 127.0.0.1\n  User: tester\n  Password: true\n  Private key: false\n  Certificate: false\n  SSH Agent: false\n  Checking Host Key: false\n  Target Platform: unix\n",
		"Connected!",
	}
	tests := []struct {
		name    string
		attrs   map[string]cty.Value
		want    []string
		wantErr string
	}{
		{
			name:  "inline",
			attrs: map[string]cty.Value{"inline": cty.ListVal([]cty.Value{cty.StringVal("echo one"), cty.StringVal("echo two >&2")})},
			want:  append(append([]string{}, connected...), "one", "two"),
		},
		{
			name:  "scripts",
			attrs: map[string]cty.Value{"scripts": cty.ListVal([]cty.Value{cty.StringVal(script), cty.StringVal(script)})},
			want:  append(append([]string{}, connected...), "from file", "from file"),
		},
		{
			name:    "failing",
			attrs:   map[string]cty.Value{"inline": cty.ListVal([]cty.Value{cty.StringVal("echo failing"), cty.StringVal("exit 3")})},
			want:    append(append([]string{}, connected...), "failing"),
			wantErr: "Process exited with status 3",
		},
		{
			name:    "missing script",
			attrs:   map[string]cty.Value{"script": cty.StringVal(filepath.Join(dir, "nope.sh"))},
			wantErr: "Failed to open script '" + filepath.Join(dir, "nope.sh") + "'",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out lines
			resp := Provisioner{}.Provision(context.Background(), provisioners.ProvisionRequest{Config: config(tt.attrs), Connection: conn, Output: out.add})
			if diff := cmp.Diff(tt.want, out.got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			switch {
			case tt.wantErr == "" && resp.Diagnostics.HasErrors():
				t.Errorf("failed: %v", resp.Diagnostics)
			case tt.wantErr != "" && (len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Detail, tt.wantErr)):
				t.Errorf("diagnostics = %v, want one containing %q", resp.Diagnostics, tt.wantErr)
			}
		})
	}
	// Every uploaded script was blanked after it ran.
	uploaded, _ := filepath.Glob(filepath.Join(dir, "remote_*.sh"))
	if len(uploaded) == 0 {
		t.Fatal("no script was uploaded to script_path")
	}
	for _, p := range uploaded {
		if data, _ := os.ReadFile(p); len(data) != 0 && !strings.Contains(string(data), "exit 3") {
			t.Errorf("%s still holds %q", p, data)
		}
	}
}

func TestProvisionWithoutConnection(t *testing.T) {
	resp := Provisioner{}.Provision(context.Background(), provisioners.ProvisionRequest{
		Config:     config(map[string]cty.Value{"inline": cty.ListValEmpty(cty.String)}),
		Connection: cty.NullVal(provisioners.ConnectionSchema.ImpliedType()),
		Output:     func(string) {},
	})
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Detail != "Missing connection configuration for provisioner." {
		t.Errorf("diagnostics = %v", resp.Diagnostics)
	}
}
