package backends

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetplan/tenet/state/backend"
)

func TestConfigure(t *testing.T) {
	if diff := cmp.Diff([]string{"http", "pg", "s3"}, Types()); diff != "" {
		t.Errorf("types (-want +got):\n%s", diff)
	}
	tests := []struct {
		name, typ, body, want string
	}{
		{"unknown type", "consul", ``, `no "consul" backend`},
		{"http configures without contacting the server", "http", `address = "http://127.0.0.1:1/state"`, ""},
		{"http needs an address", "http", ``, "needs address"},
		{"unknown argument from the block", "http", "address = \"http://x/s\"\nlock_adress = \"x\"", `"lock_adress"`},
		{"s3 with dynamodb", "s3", "bucket = \"b\"\nkey = \"k\"\nregion = \"us-east-1\"\ndynamodb_table = \"t\"", "use_lockfile"},
		{"references are not allowed", "http", `address = var.x`, "Variables not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := hclsyntax.ParseConfig([]byte(tt.body), "backend.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			s, diags := backend.DecodeBody(f.Body)
			s.Getenv = func(string) string { return "" }
			if !diags.HasErrors() {
				var b backend.Backend
				b, diags = Configure(context.Background(), tt.typ, s)
				if b != nil {
					defer b.Close()
				}
			}
			if tt.want == "" {
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				return
			}
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tt.want) {
				t.Fatalf("diags = %v, want an error mentioning %q", diags, tt.want)
			}
		})
	}
}
