package cli_test

import (
	"archive/zip"
	"bytes"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// moduleRegistry is an httptest TLS server speaking the module registry
// protocol for two hosts' worth of modules, and serving their archives.
// It records each request with the token it carried.
type moduleRegistry struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string
}

func (r *moduleRegistry) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

func zipFiles(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

// newModuleRegistry serves:
//   - example.test's module API (reached through a host block of the CLI
//     configuration) with ns/vpc/aws in four versions, whose download
//     answer is a relative X-Terraform-Get; it wants TF_TOKEN_example_test;
//   - its own host's discovery document and module API with ns/subnet/aws,
//     answered with an absolute X-Terraform-Get, and the archives; these
//     want the token of a credentials block for the server's host.
func newModuleRegistry(t *testing.T) *moduleRegistry {
	r := &moduleRegistry{}
	var self string
	archives := map[string][]byte{}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		p := req.URL.Path
		auth := req.Header.Get("Authorization")
		r.mu.Lock()
		r.seen = append(r.seen, p+" "+auth)
		r.mu.Unlock()
		want := "Bearer host-token"
		if strings.HasPrefix(p, "/example.test/") {
			want = "Bearer example-token"
		}
		if auth != want {
			http.Error(w, "wrong token", http.StatusUnauthorized)
			return
		}
		switch {
		case p == "/.well-known/terraform.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"modules.v1": "/modules/v1/"}`)
		case p == "/example.test/modules/ns/vpc/aws/versions":
			fmt.Fprint(w, `{"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.1.0"}, {"version": "1.2.0"}, {"version": "2.0.0"}]}]}`)
		case strings.HasPrefix(p, "/example.test/modules/ns/vpc/aws/") && strings.HasSuffix(p, "/download"):
			v := strings.TrimSuffix(strings.TrimPrefix(p, "/example.test/modules/ns/vpc/aws/"), "/download")
			w.Header().Set("X-Terraform-Get", "/archives/vpc-"+v+".tar.gz")
			w.WriteHeader(http.StatusNoContent)
		case p == "/modules/v1/ns/subnet/aws/versions":
			fmt.Fprint(w, `{"modules": [{"versions": [{"version": "1.0.0"}]}]}`)
		case p == "/modules/v1/ns/subnet/aws/1.0.0/download":
			w.Header().Set("X-Terraform-Get", "https://"+self+"/archives/subnet.zip")
			w.WriteHeader(http.StatusNoContent)
		case archives[p] != nil:
			w.Write(archives[p])
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.srv.Close)
	self = r.srv.Listener.Addr().String()
	for _, v := range []string{"1.0.0", "1.1.0", "1.2.0", "2.0.0"} {
		archives["/archives/vpc-"+v+".tar.gz"] = tarGz(t, map[string]string{"main.tf": fmt.Sprintf(`module "subnet" {
  source  = "%s/ns/subnet/aws"
  version = "1.0.0"
}

output "name" {
  value = "vpc-%s ${module.subnet.name}"
}
`, self, v)})
	}
	archives["/archives/subnet.zip"] = zipFiles(t, map[string]string{"main.tf": `output "name" { value = "subnet" }` + "\n"})
	archives["/archives/plain.tgz"] = tarGz(t, map[string]string{"sub/main.tf": `output "name" { value = "plain" }` + "\n"})
	return r
}

// Registry and https archive modules through the CLI: a host block and
// TF_TOKEN_<host> for one registry, service discovery and a credentials
// block for another, a version constraint, relative and absolute
// download locations, a registry module inside a registry module, and
// an https archive with a subdirectory. The server's certificate is
// trusted the way a user trusts a private CA: SSL_CERT_FILE, which the
// one registry client (internal/registryhttp) honours for providers and
// modules alike through Go's system roots. The expected lines and
// manifest are what OpenTofu 1.10.6 printed and wrote against this same
// server (with the product name changed); OpenTofu does not send the
// credentials block's token with the archive downloads, tenet does.
func TestModulesFromRegistryAndArchive(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	reg := newModuleRegistry(t)
	host := reg.srv.Listener.Addr().String()
	root := t.TempDir()
	ca := filepath.Join(root, "ca.pem")
	writeFile(t, ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: reg.srv.Certificate().Raw})))
	tfrc := filepath.Join(root, "cli.tfrc")
	writeFile(t, tfrc, fmt.Sprintf(`host "example.test" {
  services = {
    "modules.v1" = "https://%[1]s/example.test/modules/"
  }
}

credentials "%[1]s" {
  token = "host-token"
}
`, host))
	dir := filepath.Join(root, "work")
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(`module "vpc" {
  source  = "example.test/ns/vpc/aws"
  version = "~> 1.1"
}

module "plain" {
  source = "https://%s/archives/plain.tgz//sub"
}

output "names" {
  value = "${module.vpc.name} ${module.plain.name}"
}
`, host))
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(self, append([]string{"-chdir=" + dir}, args...)...)
		cmd.Env = []string{
			runMainEnv + "=1",
			"HOME=" + filepath.Join(root, "home"),
			"PATH=" + os.Getenv("PATH"),
			"TMPDIR=" + os.TempDir(),
			"TF_CLI_CONFIG_FILE=" + tfrc,
			"SSL_CERT_FILE=" + ca,
			"TF_TOKEN_example_test=example-token",
		}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("tenet %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String()
	}

	out := run("init", "-no-color")
	modLines, _, _ := strings.Cut(out, "\n\n")
	want := strings.Join([]string{
		"", // the backend comes first, as in OpenTofu 1.10
		"Initializing the backend...",
		"Initializing modules...",
		"Downloading https://" + host + "/archives/plain.tgz for plain...",
		"- plain in .terraform/modules/plain/sub",
		"Downloading example.test/ns/vpc/aws 1.2.0 for vpc...",
		"- vpc in .terraform/modules/vpc",
		"Downloading " + host + "/ns/subnet/aws 1.0.0 for vpc.subnet...",
		"- vpc.subnet in .terraform/modules/vpc.subnet",
	}, "\n")
	if diff := cmp.Diff(want, modLines); diff != "" {
		t.Errorf("init's module lines (-want +got)\n%s\nwhole output:\n%s", diff, out)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, ".terraform/modules/modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	wantManifest := `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
		`{"Key":"plain","Source":"https://` + host + `/archives/plain.tgz//sub","Dir":".terraform/modules/plain/sub"},` +
		`{"Key":"vpc","Source":"example.test/ns/vpc/aws","Version":"1.2.0","Dir":".terraform/modules/vpc"},` +
		`{"Key":"vpc.subnet","Source":"` + host + `/ns/subnet/aws","Version":"1.0.0","Dir":".terraform/modules/vpc.subnet"}]}`
	if diff := cmp.Diff(wantManifest, string(manifest)); diff != "" {
		t.Errorf("modules.json (-want +got)\n%s", diff)
	}
	for _, s := range reg.requests() {
		if strings.HasSuffix(s, " ") {
			t.Errorf("request without a token: %s", s)
		}
	}

	out = run("plan", "-no-color")
	if !strings.Contains(out, `+ names = "vpc-1.2.0 subnet plain"`) {
		t.Errorf("plan does not use the installed modules:\n%s", out)
	}

	// Installed modules are kept without asking the registry again.
	before := len(reg.requests())
	run("init", "-no-color")
	if after := reg.requests(); len(after) != before {
		t.Errorf("a second init asked the registry %d times: %v", len(after)-before, after[before:])
	}
}

// A registry module's version constraint from a variable (early
// evaluation): init installs the version the value allows; a plan with a
// value the installed version no longer meets says so at the source, in
// OpenTofu's words, until init installs another.
func TestModuleVersionFromVariable(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	reg := newModuleRegistry(t)
	host := reg.srv.Listener.Addr().String()
	root := t.TempDir()
	ca := filepath.Join(root, "ca.pem")
	writeFile(t, ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: reg.srv.Certificate().Raw})))
	tfrc := filepath.Join(root, "cli.tfrc")
	writeFile(t, tfrc, fmt.Sprintf("host \"example.test\" {\n  services = {\n    \"modules.v1\" = \"https://%[1]s/example.test/modules/\"\n  }\n}\n\ncredentials \"%[1]s\" {\n  token = \"host-token\"\n}\n", host))
	dir := filepath.Join(root, "work")
	writeFile(t, filepath.Join(dir, "main.tf"), `variable "v" {}
module "vpc" {
  source  = "example.test/ns/vpc/aws"
  version = var.v
}
output "name" {
  value = module.vpc.name
}
`)
	run := func(args ...string) (string, string, error) {
		t.Helper()
		cmd := exec.Command(self, append([]string{"-chdir=" + dir}, args...)...)
		cmd.Env = []string{
			runMainEnv + "=1",
			"HOME=" + filepath.Join(root, "home"),
			"PATH=" + os.Getenv("PATH"),
			"TMPDIR=" + os.TempDir(),
			"TF_CLI_CONFIG_FILE=" + tfrc,
			"SSL_CERT_FILE=" + ca,
			"TF_TOKEN_example_test=example-token",
		}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}
	out, errOut, err := run("init", "-no-color", "-var", "v=1.1.0")
	if err != nil {
		t.Fatalf("init: %v\n%s%s", err, out, errOut)
	}
	if !strings.Contains(out, "Downloading example.test/ns/vpc/aws 1.1.0 for vpc...") {
		t.Errorf("init did not install the version the variable allows:\n%s", out)
	}
	out, errOut, err = run("plan", "-no-color", "-var", "v=1.1.0")
	if err != nil || !strings.Contains(out, `+ name = "vpc-1.1.0 subnet"`) {
		t.Errorf("plan with the same value: %v\n%s%s", err, out, errOut)
	}
	_, errOut, err = run("plan", "-no-color", "-var", "v=2.0.0")
	want := `
Error: Module version requirements have changed

  on main.tf line 3, in module "vpc":
   3:   source  = "example.test/ns/vpc/aws"

The version requirements have changed since this module was installed and the
installed version (1.1.0) is no longer acceptable. Run "tenet init" to install
all modules required by this configuration.
`
	if err == nil {
		t.Fatal("plan with a value the installed version does not meet succeeded")
	}
	if diff := cmp.Diff(want, errOut); diff != "" {
		t.Errorf("plan's error (-want +got)\n%s", diff)
	}
	if out, errOut, err = run("init", "-no-color", "-var", "v=2.0.0"); err != nil || !strings.Contains(out, "Downloading example.test/ns/vpc/aws 2.0.0 for vpc...") {
		t.Errorf("init with the new value: %v\n%s%s", err, out, errOut)
	}
}
