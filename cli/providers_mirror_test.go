package cli_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// providerRegistry serves the provider registry protocol for the
// providers it is given (address "NS/TYPE" → version → zip), for
// linux_amd64 only, with checksums and no signing keys, as OpenTofu's
// registry serves many providers.
func providerRegistry(t *testing.T, packages map[string]map[string][]byte) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		writeJSON := func(v any) {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(v)
		}
		switch {
		case len(parts) == 5 && parts[0] == "v1" && parts[4] == "versions":
			vs := packages[parts[2]+"/"+parts[3]]
			if vs == nil {
				http.NotFound(w, r)
				return
			}
			var list []map[string]any
			for v := range vs {
				list = append(list, map[string]any{"version": v, "protocols": []string{"5.0"}, "platforms": []map[string]string{{"os": "linux", "arch": "amd64"}}})
			}
			writeJSON(map[string]any{"versions": list})
		case len(parts) == 8 && parts[0] == "v1" && parts[5] == "download":
			zip := packages[parts[2]+"/"+parts[3]][parts[4]]
			if zip == nil || parts[6]+"_"+parts[7] != "linux_amd64" {
				http.NotFound(w, r)
				return
			}
			name := fmt.Sprintf("terraform-provider-%s_%s_linux_amd64.zip", parts[3], parts[4])
			sum := sha256.Sum256(zip)
			base := srv.URL + "/files/" + parts[2] + "/" + parts[3] + "/" + parts[4]
			writeJSON(map[string]any{"protocols": []string{"5.0"}, "os": "linux", "arch": "amd64", "filename": name,
				"download_url": base + "/" + name, "shasums_url": base + "/SHA256SUMS", "shasums_signature_url": base + "/SHA256SUMS.sig",
				"shasum": hex.EncodeToString(sum[:]), "signing_keys": map[string]any{"gpg_public_keys": []any{}}})
		case len(parts) == 5 && parts[0] == "files":
			zip := packages[parts[1]+"/"+parts[2]][parts[3]]
			sum := sha256.Sum256(zip)
			switch parts[4] {
			case "SHA256SUMS":
				fmt.Fprintf(w, "%x  terraform-provider-%s_%s_linux_amd64.zip\n", sum, parts[2], parts[3])
			case "SHA256SUMS.sig":
				w.Write([]byte("not checked without keys"))
			default:
				w.Write(zip)
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// providers mirror asks the origin registry only, as OpenTofu's does:
// not the filesystem mirror the CLI configuration names, and for tenet's
// built-in providers too (only terraform.io/builtin ones are skipped).
// The lines, the layout of the directory and the JSON indexes are what
// OpenTofu 1.10.6 printed and wrote against the same kind of registry
// (OpenTofu visits the providers in no fixed order; tenet in address
// order).
func TestProvidersMirrorFromOriginRegistry(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	randomZip := zipFiles(t, map[string]string{"terraform-provider-random_v3.7.2": "not a real provider\n"})
	srv := providerRegistry(t, map[string]map[string][]byte{
		"hashicorp/random": {"3.7.2": randomZip, "3.6.0": zipFiles(t, map[string]string{"terraform-provider-random_v3.6.0": "old\n"})},
	})
	root := t.TempDir()
	ca := filepath.Join(root, "ca.pem")
	writeFile(t, ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	// A filesystem mirror with another version: mirror must not use it.
	writeFile(t, filepath.Join(root, "fsmirror/registry.opentofu.org/hashicorp/random/3.0.0/linux_amd64/terraform-provider-random_v3.0.0"), "x")
	tfrc := filepath.Join(root, "cli.tfrc")
	writeFile(t, tfrc, fmt.Sprintf(`host "registry.opentofu.org" {
  services = {
    "providers.v1" = "%s/v1/providers/"
  }
}
provider_installation {
  filesystem_mirror {
    path = %q
  }
}
`, srv.URL, filepath.Join(root, "fsmirror")))
	dir := filepath.Join(root, "work")
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.0" }
  }
}
resource "terraform_data" "d" {}
`)
	run := func(wantOK bool, args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(self, append([]string{"-chdir=" + dir}, args...)...)
		cmd.Env = []string{runMainEnv + "=1", "HOME=" + filepath.Join(root, "home"), "PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir(),
			"TF_CLI_CONFIG_FILE=" + tfrc, "SSL_CERT_FILE=" + ca}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); (err == nil) != wantOK {
			t.Fatalf("tenet %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}

	out, _ := run(true, "providers", "mirror", "-no-color", "out")
	want := `- Mirroring hashicorp/random...
  - Selected v3.7.2 to meet constraints ~> 3.0
  - Downloading package for linux_amd64...
  - Package authenticated: signing skipped
- Skipping terraform.io/builtin/terraform because it is built in to tenet CLI
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("output (-want +got)\n%s", diff)
	}
	base := filepath.Join(dir, "out/registry.opentofu.org/hashicorp/random")
	got, err := os.ReadFile(filepath.Join(base, "terraform-provider-random_3.7.2_linux_amd64.zip"))
	if err != nil || string(got) != string(randomZip) {
		t.Errorf("the mirrored archive is not the registry's: %v", err)
	}
	entries, _ := os.ReadDir(base)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"3.7.2.json", "index.json", "terraform-provider-random_3.7.2_linux_amd64.zip"}, names); diff != "" {
		t.Errorf("mirror directory (-want +got)\n%s", diff)
	}
	index, _ := os.ReadFile(filepath.Join(base, "index.json"))
	if diff := cmp.Diff("{\n  \"versions\": {\n    \"3.7.2\": {}\n  }\n}", string(index)); diff != "" {
		t.Errorf("index.json (-want +got)\n%s", diff)
	}
	version, _ := os.ReadFile(filepath.Join(base, "3.7.2.json"))
	wantVersion := "{\n  \"archives\": {\n    \"linux_amd64\": {\n      \"hashes\": [\n        \"h1:"
	if !strings.HasPrefix(string(version), wantVersion) || !strings.HasSuffix(string(version), "\"\n      ],\n      \"url\": \"terraform-provider-random_3.7.2_linux_amd64.zip\"\n    }\n  }\n}") {
		t.Errorf("3.7.2.json:\n%s", version)
	}

	// With a lock file, its selection is mirrored; a provider it lacks is
	// an error, as is one the registry does not have for the platform.
	writeFile(t, filepath.Join(dir, ".terraform.lock.hcl"), `provider "registry.opentofu.org/hashicorp/random" {
  version     = "3.6.0"
  constraints = "~> 3.0"
}
`)
	out, stderr := run(false, "providers", "mirror", "-no-color", "-platform=linux_amd64", "-platform=darwin_arm64", "out")
	want = `- Mirroring hashicorp/random...
  - Selected v3.6.0 to match dependency lock file
  - Downloading package for linux_amd64...
  - Package authenticated: signing skipped
  - Downloading package for darwin_arm64...
- Skipping terraform.io/builtin/terraform because it is built in to tenet CLI
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("output with a lock file (-want +got)\n%s", diff)
	}
	wantErr := `
Error: Provider release not available

Failed to download registry.opentofu.org/hashicorp/random v3.6.0 for
darwin_arm64: provider registry.opentofu.org/hashicorp/random 3.6.0 is not
available for darwin_arm64.

`
	if diff := cmp.Diff(wantErr, stderr); diff != "" {
		t.Errorf("errors with a lock file (-want +got)\n%s", diff)
	}
	index, _ = os.ReadFile(filepath.Join(base, "index.json"))
	if diff := cmp.Diff("{\n  \"versions\": {\n    \"3.6.0\": {},\n    \"3.7.2\": {}\n  }\n}", string(index)); diff != "" {
		t.Errorf("index.json lists every archive in the directory (-want +got)\n%s", diff)
	}
}
