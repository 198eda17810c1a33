package installer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/lockfile"
)

var linux = getproviders.Platform{OS: "linux", Arch: "amd64"}

var widget = addrs.MustParseProviderSource("example.com/acme/widget")

func constraints(t *testing.T, s string) getproviders.Constraints {
	t.Helper()
	c, err := getproviders.ParseConstraints(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// recorder renders init's progress lines, to check what the CLI will print.
type recorder struct{ lines []string }

func (r *recorder) events() Events {
	return Events{
		FindingVersions: func(p addrs.Provider, c getproviders.Constraints) {
			r.lines = append(r.lines, fmt.Sprintf("- Finding %s versions matching %q...", p.ForDisplay(), c.String()))
		},
		ReusingLocked: func(p addrs.Provider, v getproviders.Version) {
			r.lines = append(r.lines, fmt.Sprintf("- Reusing previous version of %s from the dependency lock file", p.ForDisplay()))
		},
		AlreadyInstalled: func(p addrs.Provider, v getproviders.Version) {
			r.lines = append(r.lines, fmt.Sprintf("- Using previously-installed %s v%s", p.ForDisplay(), v))
		},
		LinkedFromCache: func(p addrs.Provider, v getproviders.Version) {
			r.lines = append(r.lines, fmt.Sprintf("- Using %s v%s from the shared cache directory", p.ForDisplay(), v))
		},
		Installing: func(p addrs.Provider, v getproviders.Version) {
			r.lines = append(r.lines, fmt.Sprintf("- Installing %s v%s...", p.ForDisplay(), v))
		},
		Installed: func(p addrs.Provider, v getproviders.Version, auth *getproviders.AuthResult) {
			r.lines = append(r.lines, fmt.Sprintf("- Installed %s v%s (%s)", p.ForDisplay(), v, auth))
		},
	}
}

func directConfig(reg *fakeRegistry) getproviders.Config {
	return getproviders.Config{
		Methods:    []getproviders.Method{{Kind: getproviders.MethodDirect}},
		HTTPClient: reg.client(),
		Platform:   linux,
	}
}

func ensure(t *testing.T, cfg getproviders.Config, dataDir string, reqs Requirements, locks *lockfile.Locks, opts Options) (map[addrs.Provider]Selection, *lockfile.Locks, hcl.Diagnostics) {
	t.Helper()
	inst, diags := New(cfg, dataDir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if locks == nil {
		locks = lockfile.New()
	}
	return inst.EnsureProviders(context.Background(), reqs, locks, opts)
}

func TestInstallFromRegistry(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0", "1.1.0", "2.0.0")
	data := filepath.Join(t.TempDir(), ".terraform")
	rec := &recorder{}
	reqs := Requirements{widget: constraints(t, "~> 1.0")}
	sel, locks, diags := ensure(t, directConfig(reg), data, reqs, nil, Options{Events: rec.events()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	key := testKeys(t)[0].id()
	want := []string{
		`- Finding example.com/acme/widget versions matching "~> 1.0"...`,
		"- Installing example.com/acme/widget v1.1.0...",
		"- Installed example.com/acme/widget v1.1.0 (signed, key ID " + key + ")",
	}
	if diff := cmp.Diff(want, rec.lines); diff != "" {
		t.Fatalf("progress (-want +got):\n%s", diff)
	}
	s := sel[widget]
	wantDir := filepath.Join(data, "providers", "example.com", "acme", "widget", "1.1.0", "linux_amd64")
	if s.Dir != wantDir || s.Executable != filepath.Join(wantDir, "terraform-provider-widget_v1.1.0-linux_amd64") {
		t.Fatalf("selection %+v", s)
	}
	if fi, err := os.Stat(s.Executable); err != nil || fi.Mode()&0o100 == 0 {
		t.Fatalf("executable not installed as executable: %v %v", fi, err)
	}
	e := locks.Provider(widget)
	h1, _ := getproviders.HashDir(wantDir)
	wantHashes := []getproviders.Hash{h1, reg.zh("1.1.0", "darwin_arm64"), reg.zh("1.1.0", "linux_amd64")}
	if e == nil || e.Version.String() != "1.1.0" || e.Constraints.String() != "~> 1.0" {
		t.Fatalf("lock entry %+v", e)
	}
	if diff := cmp.Diff(sortHashes(wantHashes), e.Hashes); diff != "" {
		t.Fatalf("locked hashes (-want +got):\n%s", diff)
	}

	// The next init reuses the locked version and the installed package.
	rec.lines = nil
	reg.versions = append(reg.versions, "1.2.0")
	reg.build()
	_, again, diags := ensure(t, directConfig(reg), data, reqs, locks, Options{Events: rec.events()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want = []string{
		"- Reusing previous version of example.com/acme/widget from the dependency lock file",
		"- Using previously-installed example.com/acme/widget v1.1.0",
	}
	if diff := cmp.Diff(want, rec.lines); diff != "" {
		t.Fatalf("progress (-want +got):\n%s", diff)
	}
	if !again.Equal(locks) {
		t.Fatalf("lock changed:\n%s", again.Bytes())
	}

	// -upgrade ignores the locked version but keeps the constraints.
	_, upgraded, diags := ensure(t, directConfig(reg), data, reqs, locks, Options{Upgrade: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if v := upgraded.Provider(widget).Version.String(); v != "1.2.0" {
		t.Fatalf("upgraded to %s, want 1.2.0 (2.0.0 is outside ~> 1.0)", v)
	}

	// plan and apply find the locked package.
	got, diags := Installed(data, reqs, upgraded, getproviders.Config{Platform: linux})
	if diags.HasErrors() || got[widget].Version.String() != "1.2.0" {
		t.Fatalf("Installed: %v %v", got, diags)
	}
}

func sortHashes(hs []getproviders.Hash) []getproviders.Hash {
	l := lockfile.New()
	return l.SetProvider(widget, getproviders.Version{}, getproviders.Constraints{}, hs).Hashes
}

func TestLockedVersionOutsideConstraints(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0", "2.0.0")
	data := filepath.Join(t.TempDir(), ".terraform")
	locks, diags := lockfile.Parse([]byte("provider \"example.com/acme/widget\" {\n  version = \"1.0.0\"\n}\n"), ".terraform.lock.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, _, diags = ensure(t, directConfig(reg), data, Requirements{widget: constraints(t, ">= 2.0")}, locks, Options{})
	wantDiag(t, diags, "Locked provider version does not match the constraints", "-upgrade")
	if diags[0].Subject == nil || diags[0].Subject.Filename != ".terraform.lock.hcl" || diags[0].Subject.Start.Line != 1 {
		t.Fatalf("want the lock entry as subject, got %v", diags[0].Subject)
	}
}

func wantDiag(t *testing.T, diags hcl.Diagnostics, summary string, details ...string) {
	t.Helper()
	if !diags.HasErrors() {
		t.Fatalf("no error; diagnostics: %v", diags)
	}
	d := diags[0]
	if d.Summary != summary {
		t.Fatalf("summary %q, want %q (detail: %s)", d.Summary, summary, d.Detail)
	}
	for _, s := range details {
		if !strings.Contains(d.Detail, s) {
			t.Fatalf("detail %q does not mention %q", d.Detail, s)
		}
	}
}

func TestInstallFailures(t *testing.T) {
	otherKey := func(r *fakeRegistry) { r.signer = testKeys(t)[1] }
	tests := map[string]struct {
		setup    func(*fakeRegistry)
		cfg      func(*fakeRegistry, getproviders.Config) getproviders.Config
		provider addrs.Provider
		want     string
		details  []string
		lock     string
	}{
		"provider not found": {
			provider: addrs.MustParseProviderSource("example.com/acme/nope"),
			cfg: func(r *fakeRegistry, c getproviders.Config) getproviders.Config {
				c.Methods = append([]getproviders.Method{{Kind: getproviders.MethodFilesystemMirror, Location: "/no/such/mirror"}}, c.Methods...)
				return c
			},
			want:    "Provider not found",
			details: []string{"example.com/acme/nope", "filesystem mirror at /no/such/mirror", "the registry at example.com"},
		},
		"no method applies": {
			cfg: func(r *fakeRegistry, c getproviders.Config) getproviders.Config {
				c.Methods[0].Exclude = []getproviders.ProviderPattern{getproviders.PatternFor(widget)}
				return c
			},
			want: "Provider not found", details: []string{"no installation method applies"},
		},
		"registry unreachable": {
			cfg: func(r *fakeRegistry, c getproviders.Config) getproviders.Config {
				r.srv.Close()
				return c
			},
			want: "Provider registry unreachable", details: []string{"example.com/acme/widget", "example.com"},
		},
		"signature mismatch": {
			setup: otherKey,
			want:  "Provider signature does not verify", details: []string{"example.com/acme/widget v1.0.0"},
		},
		"checksum mismatch with the registry": {
			setup: func(r *fakeRegistry) { r.badShasum = true },
			want:  "Provider checksum mismatch", details: []string{"example.com/acme/widget v1.0.0", "shasum", "zh:"},
		},
		"checksum mismatch with the lock file": {
			lock: "provider \"example.com/acme/widget\" {\n  version = \"1.0.0\"\n  hashes = [\n    \"h1:AAAAmnRkaONUMkq3h3GtQ/BUVv/fz6AlJ1hl4ZFRhg0=\",\n  ]\n}\n",
			want: "Provider checksum mismatch", details: []string{"example.com/acme/widget v1.0.0", "dependency lock file", "h1:AAAAmnRkaONUMkq3h3GtQ/BUVv/fz6AlJ1hl4ZFRhg0="},
		},
		"no version matches": {
			provider: widget,
			want:     "No provider version matches the constraints", details: []string{">= 5.0", "1.0.0"},
		},
		"no package for this platform": {
			cfg: func(r *fakeRegistry, c getproviders.Config) getproviders.Config {
				c.Platform = getproviders.Platform{OS: "plan9", Arch: "386"}
				return c
			},
			want: "Provider not available for this platform", details: []string{"plan9_386", "v1.0.0"},
		},
		"nonsense download answer": {
			setup: func(r *fakeRegistry) { r.nonsense = true },
			want:  "Invalid answer from provider registry", details: []string{"filename"},
		},
		"nonsense versions list": {
			setup: func(r *fakeRegistry) { r.versionsJSON = `{"versions": "lots"}` },
			want:  "Invalid answer from provider registry", details: []string{"versions list"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			reg := newFakeRegistry(t, "widget", "1.0.0")
			if tc.setup != nil {
				tc.setup(reg)
			}
			cfg := directConfig(reg)
			if tc.cfg != nil {
				cfg = tc.cfg(reg, cfg)
			}
			p := widget
			if tc.provider != (addrs.Provider{}) {
				p = tc.provider
			}
			c := constraints(t, ">= 1.0")
			if name == "no version matches" {
				c = constraints(t, ">= 5.0")
			}
			locks := lockfile.New()
			if tc.lock != "" {
				var diags hcl.Diagnostics
				locks, diags = lockfile.Parse([]byte(tc.lock), ".terraform.lock.hcl")
				if diags.HasErrors() {
					t.Fatal(diags)
				}
			}
			data := filepath.Join(t.TempDir(), ".terraform")
			sel, newLocks, diags := ensure(t, cfg, data, Requirements{p: c}, locks, Options{})
			wantDiag(t, diags, tc.want, tc.details...)
			if _, ok := sel[p]; ok {
				t.Fatal("a failed provider was selected")
			}
			if !newLocks.Equal(locks) {
				t.Fatalf("a failed install changed the lock:\n%s", newLocks.Bytes())
			}
			if _, err := os.Stat(filepath.Join(data, "providers", "example.com", "acme", "widget", "1.0.0")); err == nil && tc.lock != "" {
				t.Fatal("a refused package was left installed")
			}
		})
	}
}

func TestUnsignedRegistryPackageWarns(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0")
	reg.noKeys = true
	sel, _, diags := ensure(t, directConfig(reg), filepath.Join(t.TempDir(), ".terraform"), Requirements{widget: {}}, nil, Options{})
	if diags.HasErrors() || len(diags) != 1 || diags[0].Summary != "Provider installed without a signature check" {
		t.Fatalf("got %v", diags)
	}
	if sel[widget].Executable == "" {
		t.Fatal("not installed")
	}
}

func TestRegistryWarningsShown(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0")
	reg.versionsJSON = `{"versions": [{"version": "1.0.0", "protocols": ["5.0"]}], "warnings": ["this provider is deprecated; use acme/gadget"]}`
	_, _, diags := ensure(t, directConfig(reg), filepath.Join(t.TempDir(), ".terraform"), Requirements{widget: {}}, nil, Options{})
	if diags.HasErrors() || len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Detail, "use acme/gadget") {
		t.Fatalf("got %v", diags)
	}
}

func TestHostServicesAndTokens(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0")
	cfg := directConfig(reg)
	cfg.HostServices = map[string]map[string]string{"example.com": {"providers.v1": "/v1/providers/"}}
	cfg.Token = func(host string) string {
		if host == "example.com" {
			return "s3cret"
		}
		return ""
	}
	if _, _, diags := ensure(t, cfg, filepath.Join(t.TempDir(), ".terraform"), Requirements{widget: {}}, nil, Options{}); diags.HasErrors() {
		t.Fatal(diags)
	}
	for i, p := range reg.requests {
		if p == "/.well-known/terraform.json" {
			t.Fatal("service discovery was asked although a host block answers it")
		}
		if reg.auth[i] != "Bearer s3cret" {
			t.Fatalf("request %s sent Authorization %q", p, reg.auth[i])
		}
	}
}
