package cli_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The http backend keeps one state, so the workspace commands fail in
// OpenTofu's words (recorded from OpenTofu 1.10.6), and workspace show
// still names the default workspace.
func TestHTTPBackendWorkspaceCommands(t *testing.T) {
	var mu sync.Mutex
	var stored []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.Method {
		case http.MethodGet:
			if stored == nil {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			w.Write(stored)
		case http.MethodPost:
			stored, _ = io.ReadAll(r.Body)
		default:
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	writeMain(t, dir, `terraform {
  backend "http" {
    address = "`+srv.URL+`/state"
  }
}
resource "terraform_data" "a" {}
`)
	mustTenet(t, dir, nil, "init", "-no-color")
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"workspace", "list", "-no-color"}, "workspaces not supported\n"},
		{[]string{"workspace", "new", "-no-color", "a"}, "Failed to get configured named states: workspaces not supported\n"},
		{[]string{"workspace", "select", "-no-color", "a"}, "workspaces not supported\n"},
		{[]string{"workspace", "select", "-no-color", "-or-create", "a"}, "workspaces not supported\n"},
		{[]string{"workspace", "delete", "-no-color", "a"}, "workspaces not supported\n"},
	} {
		t.Run(tc.args[1], func(t *testing.T) {
			out, stderr, err := tenetRun(t, dir, "", nil, tc.args...)
			if err == nil {
				t.Fatalf("tenet %v succeeded:\n%s", tc.args, out)
			}
			if diff := cmp.Diff(tc.stderr, stderr); diff != "" || out != "" {
				t.Errorf("tenet %v: stdout %q, stderr (-want +got):\n%s", tc.args, out, diff)
			}
		})
	}
	if out := mustTenet(t, dir, nil, "workspace", "show"); out != "default\n" {
		t.Errorf("workspace show: %q, want \"default\\n\"", out)
	}
}
