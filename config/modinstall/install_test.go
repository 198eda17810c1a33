package modinstall

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/config"
)

func readManifest(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".terraform", "modules", "modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestInstallGit(t *testing.T) {
	repo, hashes := gitRepo(t, "feature",
		commit{tag: "v1.0.0", files: map[string]string{
			"net/main.tf":   "module \"inner\" {\n  source = \"../shared\"\n}\n",
			"shared/out.tf": "output \"v\" { value = \"one\" }\n",
		}},
		commit{files: map[string]string{"shared/out.tf": "output \"v\" { value = \"two\" }\n"}},
	)
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"main.tf": fmt.Sprintf(`module "tagged" {
  source = "git::%[1]s//net?ref=v1.0.0"
}
module "branch" {
  source = "git::%[1]s//shared?ref=feature&depth=1"
}
module "commit" {
  source = "git::%[1]s//shared?ref=%[2]s"
}
module "local" {
  source = "./local"
}
`, repo, hashes[1]),
		"local/main.tf": fmt.Sprintf("module \"again\" {\n  source = \"git::%s//shared?ref=v1.0.0\"\n}\n", repo),
	})
	var events []string
	m, diags := Install(context.Background(), root, Options{Progress: func(e Event) { events = append(events, e.String()) }})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := config.ModuleManifest{
		"":             {Key: "", Dir: "."},
		"branch":       {Key: "branch", Source: "git::" + repo + "//shared?ref=feature&depth=1", Dir: ".terraform/modules/branch/shared"},
		"commit":       {Key: "commit", Source: "git::" + repo + "//shared?ref=" + hashes[1], Dir: ".terraform/modules/commit/shared"},
		"local":        {Key: "local", Source: "./local", Dir: "local"},
		"local.again":  {Key: "local.again", Source: "git::" + repo + "//shared?ref=v1.0.0", Dir: ".terraform/modules/local.again/shared"},
		"tagged":       {Key: "tagged", Source: "git::" + repo + "//net?ref=v1.0.0", Dir: ".terraform/modules/tagged/net"},
		"tagged.inner": {Key: "tagged.inner", Source: "../shared", Dir: ".terraform/modules/tagged/shared"},
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("manifest (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(string(want.Marshal()), readManifest(t, root)); diff != "" {
		t.Errorf("modules.json (-want +got)\n%s", diff)
	}
	for key, body := range map[string]string{"tagged/shared": "one", "local.again/shared": "one", "commit/shared": "two"} {
		b, err := os.ReadFile(filepath.Join(root, ".terraform/modules", key, "out.tf"))
		if err != nil || !strings.Contains(string(b), body) {
			t.Errorf("%s/out.tf = %q, %v; want the %q revision", key, b, err, body)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".terraform/modules/branch/branch.txt")); err != nil {
		t.Errorf("branch checkout: %v", err)
	}
	// Depth first, calls by name, whatever order the downloads finished
	// in; a package is shown without its subdirectory.
	wantEvents := []string{
		"Downloading git::" + repo + "?ref=feature&depth=1 for branch...",
		"- branch in .terraform/modules/branch/shared",
		"Downloading git::" + repo + "?ref=" + hashes[1] + " for commit...",
		"- commit in .terraform/modules/commit/shared",
		"- local in local",
		"Downloading git::" + repo + "?ref=v1.0.0 for local.again...",
		"- local.again in .terraform/modules/local.again/shared",
		"Downloading git::" + repo + "?ref=v1.0.0 for tagged...",
		"- tagged in .terraform/modules/tagged/net",
		"- tagged.inner in .terraform/modules/tagged/shared",
	}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("progress (-want +got)\n%s", diff)
	}

	// The loader reads what was installed.
	man, err := config.ReadModuleManifest(os.DirFS(root), ".terraform/modules/modules.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.LoadWithModules(os.DirFS(root), ".", man)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := len(cfg.Modules()); got != 7 {
		t.Errorf("loaded %d modules, want 7", got)
	}
	if d := ManifestMatches(root, Options{}); d.HasErrors() {
		t.Errorf("ManifestMatches after install: %v", d)
	}

	// A second install with the repository gone keeps everything: no
	// network (here: no git) is needed when the manifest matches.
	os.RemoveAll(strings.TrimPrefix(repo, "file://"))
	events = nil
	if _, diags := Install(context.Background(), root, Options{Progress: func(e Event) { events = append(events, e.String()) }}); diags.HasErrors() {
		t.Fatalf("reinstall without the repository: %v", diags)
	}
	if len(events) != 0 {
		t.Errorf("a reinstall that kept everything showed %q; OpenTofu shows nothing", events)
	}
	if _, diags := Install(context.Background(), root, Options{Upgrade: true}); !diags.HasErrors() {
		t.Fatal("Upgrade without the repository succeeded; it must fetch again")
	}
	if got := readManifest(t, root); got != string(want.Marshal()) {
		t.Errorf("a failed upgrade changed modules.json:\n%s", got)
	}
}

// registry serves a module registry over TLS: versions of ns/vpc/aws, a
// download answer and the archives it points to. It counts requests and
// insists on the bearer token.
type registry struct {
	srv      *httptest.Server
	requests atomic.Int32
	versions string
	download func(w http.ResponseWriter, v string)
	archives map[string][]byte
}

func newRegistry(t *testing.T) *registry {
	r := &registry{archives: map[string][]byte{}}
	r.versions = `{"modules":[{"versions":[{"version":"1.0.0"},{"version":"1.2.0"},{"version":"2.0.0"},{"version":"1.3.0-beta"}]}]}`
	r.download = func(w http.ResponseWriter, v string) {
		w.Header().Set("X-Terraform-Get", "/archives/vpc-"+v+".tar.gz")
		w.WriteHeader(http.StatusNoContent)
	}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.requests.Add(1)
		if req.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		p := req.URL.Path
		switch {
		case p == "/.well-known/terraform.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"modules.v1":"/v1/modules/"}`)
		case p == "/v1/modules/ns/vpc/aws/versions":
			fmt.Fprint(w, r.versions)
		case strings.HasPrefix(p, "/v1/modules/ns/vpc/aws/") && strings.HasSuffix(p, "/download"):
			r.download(w, strings.TrimSuffix(strings.TrimPrefix(p, "/v1/modules/ns/vpc/aws/"), "/download"))
		case r.archives[p] != nil:
			w.Write(r.archives[p])
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *registry) host() string { return r.srv.Listener.Addr().String() }

func (r *registry) opts() Options {
	return Options{HTTPClient: r.srv.Client(), Token: func(h string) string {
		// Credentials are per host and port, as OpenTofu keys them.
		if h == r.host() {
			return "s3cret"
		}
		return ""
	}}
}

func TestInstallRegistry(t *testing.T) {
	reg := newRegistry(t)
	for _, v := range []string{"1.0.0", "1.2.0"} {
		reg.archives["/archives/vpc-"+v+".tar.gz"] = tarGz(t,
			entry{name: "main.tf", body: fmt.Sprintf("output \"version\" { value = %q }\n", v)},
			entry{name: "modules/subnet/main.tf", body: "module \"x\" {\n  source = \"../../\"\n  count = 0\n}\n"},
			entry{name: "link.tf", link: "main.tf"},
		)
	}
	reg.archives["/shared.zip"] = zipArchive(t, entry{name: "m/main.tf", body: "# shared\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"main.tf": fmt.Sprintf(`module "vpc" {
  source  = "%[1]s/ns/vpc/aws"
  version = "~> 1.1"
}
module "sub" {
  source  = "%[1]s/ns/vpc/aws//modules/subnet"
  version = "1.0.0"
}
module "a" {
  source = "https://%[1]s/shared.zip//m"
}
module "b" {
  source = "https://%[1]s/shared.zip//m"
}
`, reg.host())})
	opts := reg.opts()
	opts.DataDir = "data"
	m, diags := Install(context.Background(), root, opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	h := reg.host()
	want := config.ModuleManifest{
		"":      {Dir: "."},
		"vpc":   {Key: "vpc", Source: h + "/ns/vpc/aws", Version: "1.2.0", Dir: "data/modules/vpc"},
		"sub":   {Key: "sub", Source: h + "/ns/vpc/aws//modules/subnet", Version: "1.0.0", Dir: "data/modules/sub/modules/subnet"},
		"sub.x": {Key: "sub.x", Source: "../..", Dir: "data/modules/sub"},
		"a":     {Key: "a", Source: "https://" + h + "/shared.zip//m", Dir: "data/modules/a/m"},
		"b":     {Key: "b", Source: "https://" + h + "/shared.zip//m", Dir: "data/modules/b/m"},
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("manifest (-want +got)\n%s", diff)
	}
	b, _ := os.ReadFile(filepath.Join(root, "data/modules/vpc/link.tf"))
	if !strings.Contains(string(b), "1.2.0") {
		t.Errorf("vpc/link.tf = %q, want the 1.2.0 package through the link", b)
	}
	// discovery, 2×versions, 2×download, 2 version archives, one zip
	// for the two calls that share it.
	if got := reg.requests.Load(); got != 8 {
		t.Errorf("%d requests, want 8 (the shared archive fetched once)", got)
	}
	reg.requests.Store(0)
	if _, diags := Install(context.Background(), root, opts); diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := reg.requests.Load(); got != 0 {
		t.Errorf("reinstall with a matching manifest made %d requests, want 0", got)
	}
	if d := ManifestMatches(root, opts); d.HasErrors() {
		t.Errorf("ManifestMatches: %v", d)
	}
}

func TestRegistryJSONLocation(t *testing.T) {
	reg := newRegistry(t)
	reg.download = func(w http.ResponseWriter, v string) {
		json.NewEncoder(w).Encode(map[string]string{"location": "../../../../../../archives/x.zip"})
	}
	reg.archives["/archives/x.zip"] = zipArchive(t, entry{name: "main.tf", body: "# x\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"main.tf": fmt.Sprintf("module \"x\" {\n  source = \"%s/ns/vpc/aws\"\n}\n", reg.host())})
	m, diags := Install(context.Background(), root, reg.opts())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := m["x"].Version; got != "2.0.0" {
		t.Errorf("version = %q, want the newest release 2.0.0", got)
	}
}

// TestRegistryGitLocation: the registry's download location is a git
// repository with its own subdirectory, and TF_DATA_DIR is absolute.
func TestRegistryGitLocation(t *testing.T) {
	repo, _ := gitRepo(t, "", commit{tag: "v2.0.0", files: map[string]string{"mods/vpc/main.tf": "module \"s\" {\n  source = \"../subnet\"\n}\n", "mods/subnet/main.tf": "#\n"}})
	reg := newRegistry(t)
	reg.download = func(w http.ResponseWriter, v string) {
		w.Header().Set("X-Terraform-Get", "git::"+repo+"//mods?ref=v"+v)
		w.WriteHeader(http.StatusNoContent)
	}
	root, data := t.TempDir(), filepath.Join(t.TempDir(), "tfdata")
	writeFiles(t, root, map[string]string{"main.tf": fmt.Sprintf("module \"vpc\" {\n  source  = \"%s/ns/vpc/aws//vpc\"\n  version = \">= 2.0\"\n}\n", reg.host())})
	opts := reg.opts()
	opts.DataDir = data
	m, diags := Install(context.Background(), root, opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	d := filepath.ToSlash(data)
	want := config.ModuleManifest{
		"":      {Dir: "."},
		"vpc":   {Key: "vpc", Source: reg.host() + "/ns/vpc/aws//vpc", Version: "2.0.0", Dir: d + "/modules/vpc/mods/vpc"},
		"vpc.s": {Key: "vpc.s", Source: "../subnet", Dir: d + "/modules/vpc/mods/subnet"},
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("manifest (-want +got)\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(data, "modules", "modules.json")); err != nil {
		t.Error(err)
	}
	reg.srv.Close()
	if d := ManifestMatches(root, Options{DataDir: data}); d.HasErrors() {
		t.Errorf("ManifestMatches: %v", d)
	}
	if _, diags := Install(context.Background(), root, Options{DataDir: data}); diags.HasErrors() {
		t.Errorf("reinstall with the registry down: %v", diags)
	}
}

func TestEventString(t *testing.T) {
	tests := []struct {
		e    Event
		want string
	}{
		{Event{Kind: EventDownloading, Key: "vpc", Source: "registry.opentofu.org/ns/vpc/aws", Version: "1.2.0"}, "Downloading registry.opentofu.org/ns/vpc/aws 1.2.0 for vpc..."},
		{Event{Kind: EventDownloading, Key: "a.b", Source: "git::https://example.com/r.git?ref=v1"}, "Downloading git::https://example.com/r.git?ref=v1 for a.b..."},
		{Event{Kind: EventInstalled, Key: "vpc", Dir: ".terraform/modules/vpc"}, "- vpc in .terraform/modules/vpc"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.e.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

// The sshkey argument hands ssh a private key for one clone: git must run
// the ssh command with -i naming a file that holds exactly the key, only
// readable by the user, and IdentitiesOnly; the file is gone afterwards.
// A fake ssh records what it was given and serves the repository with
// git-upload-pack, as sshd would.
func TestGitSSHKey(t *testing.T) {
	repo, _ := gitRepo(t, "", commit{tag: "v1", files: map[string]string{"main.tf": `output "x" { value = "ssh" }` + "\n"}})
	repoPath := strings.TrimPrefix(repo, "file://")
	bin := t.TempDir()
	log := filepath.Join(bin, "ssh.log")
	fake := filepath.Join(bin, "fake-ssh")
	script := `#!/bin/sh
for a in "$@"; do [ "$a" = -G ] && exit 1; done
echo "ARGS $*" >> "` + log + `"
prev=
for a in "$@"; do
  if [ "$prev" = -i ]; then
    echo "MODE $(stat -c %a "$a")" >> "` + log + `"
    echo "KEY $(cat "$a")" >> "` + log + `"
  fi
  prev=$a
  last=$a
done
exec sh -c "$last"
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_SSH_COMMAND", fake)
	t.Setenv("GIT_SSH_VARIANT", "simple")
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- test key -----END OPENSSH PRIVATE KEY-----"
	enc := base64.StdEncoding.EncodeToString([]byte(key))
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"main.tf": fmt.Sprintf("module \"m\" {\n  source = \"git::ssh://git@example.test%s?sshkey=%s&ref=v1\"\n}\n", repoPath, enc)})
	m, diags := Install(context.Background(), root, Options{})
	if diags.HasErrors() {
		t.Fatal(diagList(diags))
	}
	if b, err := os.ReadFile(filepath.Join(root, ".terraform/modules/m/main.tf")); err != nil || !strings.Contains(string(b), `"ssh"`) {
		t.Fatalf("module not installed over ssh: %q, %v", b, err)
	}
	if want := "git::ssh://git@example.test" + repoPath + "?sshkey=" + enc + "&ref=v1"; m["m"].Source != want {
		t.Errorf("recorded source %q, want %q", m["m"].Source, want)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 {
		t.Fatalf("fake ssh log:\n%s", b)
	}
	args := regexp.MustCompile(`^ARGS -i (\S+) -o IdentitiesOnly=yes git@example\.test git-upload-pack '` + regexp.QuoteMeta(repoPath) + `'$`).FindStringSubmatch(lines[0])
	if args == nil {
		t.Fatalf("ssh was run as %q", lines[0])
	}
	if lines[1] != "MODE 600" {
		t.Errorf("key file mode: %q, want 600", lines[1])
	}
	if lines[2] != "KEY "+key {
		t.Errorf("key file held %q", lines[2])
	}
	if _, err := os.Stat(args[1]); !os.IsNotExist(err) {
		t.Errorf("the key file %s is still there after the install (%v)", args[1], err)
	}
}
