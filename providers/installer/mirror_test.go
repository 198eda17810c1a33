package installer

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
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

func writeFile(t *testing.T, path string, data []byte, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, perm); err != nil {
		t.Fatal(err)
	}
}

var timeProvider = addrs.NewDefaultProvider("time")

func TestFilesystemMirrorLayouts(t *testing.T) {
	mirror := t.TempDir()
	// 0.14.1 unpacked, 0.14.2 packed: both layouts in one mirror.
	writeFile(t, filepath.Join(mirror, "registry.opentofu.org", "hashicorp", "time", "0.14.1", "linux_amd64", "terraform-provider-time_v0.14.1_x5"), []byte("#!/bin/sh\n"), 0o755)
	zipData := packageZip(t, "time", "0.14.2")
	writeFile(t, filepath.Join(mirror, "registry.opentofu.org", "hashicorp", "time", "terraform-provider-time_0.14.2_linux_amd64.zip"), zipData, 0o644)
	// Noise a mirror may hold.
	writeFile(t, filepath.Join(mirror, "registry.opentofu.org", "hashicorp", "time", "README"), []byte("x"), 0o644)

	cfg := getproviders.Config{Methods: []getproviders.Method{{Kind: getproviders.MethodFilesystemMirror, Location: mirror}}, Platform: linux}
	for _, tc := range []struct {
		constraint, version, exe string
		zh                       bool
	}{
		{"0.14.1", "0.14.1", "terraform-provider-time_v0.14.1_x5", false},
		{"~> 0.14", "0.14.2", "terraform-provider-time_v0.14.2", true},
	} {
		t.Run(tc.version, func(t *testing.T) {
			rec := &recorder{}
			data := filepath.Join(t.TempDir(), ".terraform")
			sel, locks, diags := ensure(t, cfg, data, Requirements{timeProvider: constraints(t, tc.constraint)}, nil, Options{Events: rec.events()})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := filepath.Base(sel[timeProvider].Executable); got != tc.exe {
				t.Fatalf("executable %q, want %q", got, tc.exe)
			}
			if last := rec.lines[len(rec.lines)-1]; last != "- Installed hashicorp/time v"+tc.version+" (unauthenticated)" {
				t.Fatalf("last line %q", last)
			}
			e := locks.Provider(timeProvider)
			hasZH := false
			for _, h := range e.Hashes {
				hasZH = hasZH || h.Scheme() == getproviders.SchemeZH
			}
			if e.Version.String() != tc.version || hasZH != tc.zh {
				t.Fatalf("lock entry %+v", e)
			}
			// A packed and an unpacked install have the same h1.
			h1, _ := getproviders.HashDir(sel[timeProvider].Dir)
			if e.Hashes[0] != h1 {
				t.Fatalf("h1 %s not locked: %v", h1, e.Hashes)
			}
		})
	}
}

func TestNetworkMirror(t *testing.T) {
	zipData := packageZip(t, "time", "0.14.2")
	sum := sha256.Sum256(zipData)
	zh := getproviders.ZHFromSHA256(sum)
	tamper := false
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/mirror/registry.opentofu.org/hashicorp/time/index.json":
			fmt.Fprint(w, `{"versions": {"0.14.1": {}, "0.14.2": {}}}`)
		case "/mirror/registry.opentofu.org/hashicorp/time/0.14.2.json":
			json.NewEncoder(w).Encode(map[string]any{"archives": map[string]any{
				"linux_amd64": map[string]any{"url": "terraform-provider-time_0.14.2_linux_amd64.zip", "hashes": []string{string(zh)}},
			}})
		case "/mirror/registry.opentofu.org/hashicorp/time/terraform-provider-time_0.14.2_linux_amd64.zip":
			if tamper {
				w.Write(append([]byte{}, packageZip(t, "time", "evil")...))
				return
			}
			w.Write(zipData)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cfg := getproviders.Config{
		Methods:    []getproviders.Method{{Kind: getproviders.MethodNetworkMirror, Location: srv.URL + "/mirror/"}},
		HTTPClient: srv.Client(),
		Platform:   linux,
	}
	reqs := Requirements{timeProvider: constraints(t, "~> 0.14")}
	sel, locks, diags := ensure(t, cfg, filepath.Join(t.TempDir(), ".terraform"), reqs, nil, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if sel[timeProvider].Version.String() != "0.14.2" || !locks.Provider(timeProvider).ContainsAny([]getproviders.Hash{zh}) {
		t.Fatalf("selection %+v, lock %s", sel[timeProvider], locks.Bytes())
	}

	tamper = true
	_, _, diags = ensure(t, cfg, filepath.Join(t.TempDir(), ".terraform"), reqs, nil, Options{})
	wantDiag(t, diags, "Provider checksum mismatch", "hashicorp/time v0.14.2", "network mirror", string(zh))

	// A mirror without the provider: not found, naming the mirror.
	_, _, diags = ensure(t, cfg, filepath.Join(t.TempDir(), ".terraform"), Requirements{addrs.NewDefaultProvider("null"): {}}, nil, Options{})
	wantDiag(t, diags, "Provider not found", "hashicorp/null", "network mirror at "+srv.URL+"/mirror/")
}

func TestPluginCache(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0")
	cache := t.TempDir()
	cfg := directConfig(reg)
	cfg.PluginCacheDir = cache
	reqs := Requirements{widget: {}}

	// First working directory: downloaded into the cache and linked.
	first := filepath.Join(t.TempDir(), ".terraform")
	sel, locks, diags := ensure(t, cfg, first, reqs, nil, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cached := filepath.Join(cache, "example.com", "acme", "widget", "1.0.0", "linux_amd64")
	if _, ok := getproviders.FindExecutable(cached, "widget"); !ok {
		t.Fatal("the cache was not filled")
	}
	if target, err := os.Readlink(sel[widget].Dir); err != nil || target != cached {
		t.Fatalf("install dir is not a link to the cache: %q %v", target, err)
	}

	// plan and apply accept the linked package.
	if got, diags := Installed(first, reqs, locks, getproviders.Config{Platform: linux}); diags.HasErrors() || got[widget].Executable == "" {
		t.Fatalf("Installed through the cache link: %v", diags)
	}

	// Second working directory with the lock: taken from the cache, no
	// download.
	reg.requests = nil
	rec := &recorder{}
	second := filepath.Join(t.TempDir(), ".terraform")
	_, _, diags = ensure(t, cfg, second, reqs, locks, Options{Events: rec.events()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{
		"- Reusing previous version of example.com/acme/widget from the dependency lock file",
		"- Using example.com/acme/widget v1.0.0 from the shared cache directory",
	}
	if diff := cmp.Diff(want, rec.lines); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if len(reg.requests) != 0 {
		t.Fatalf("the registry was asked: %v", reg.requests)
	}

	// Without a lock entry the cache is not trusted (unless allowed).
	rec.lines = nil
	_, _, diags = ensure(t, cfg, filepath.Join(t.TempDir(), ".terraform"), reqs, nil, Options{Events: rec.events()})
	if diags.HasErrors() || !strings.HasPrefix(rec.lines[len(rec.lines)-1], "- Installed") {
		t.Fatalf("%v %v", rec.lines, diags)
	}
	cfg.PluginCacheMayBreakLockFile = true
	rec.lines = nil
	_, _, diags = ensure(t, cfg, filepath.Join(t.TempDir(), ".terraform"), reqs, nil, Options{Events: rec.events()})
	if diags.HasErrors() || !strings.Contains(rec.lines[len(rec.lines)-1], "shared cache directory") {
		t.Fatalf("%v %v", rec.lines, diags)
	}
}

func TestDevOverrides(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "terraform-provider-time"), []byte("#!/bin/sh\n"), 0o755)
	cfg := getproviders.Config{DevOverrides: map[addrs.Provider]string{timeProvider: dir}, Platform: linux}
	locks := lockfile.New()
	sel, newLocks, diags := ensure(t, cfg, filepath.Join(t.TempDir(), ".terraform"), Requirements{timeProvider: constraints(t, "~> 9.0")}, locks, Options{})
	if diags.HasErrors() || len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || diags[0].Summary != "Provider development overrides are in effect" || !strings.Contains(diags[0].Detail, "hashicorp/time in "+dir) {
		t.Fatalf("got %v", diags)
	}
	if s := sel[timeProvider]; !s.DevOverride || s.Executable != filepath.Join(dir, "terraform-provider-time") {
		t.Fatalf("selection %+v", s)
	}
	if len(newLocks.AllProviders()) != 0 {
		t.Fatalf("dev override was locked:\n%s", newLocks.Bytes())
	}
	// plan and apply warn too, at every run.
	_, diags = Installed(t.TempDir(), Requirements{timeProvider: {}}, locks, cfg)
	if diags.HasErrors() || len(diags) != 1 || diags[0].Summary != "Provider development overrides are in effect" {
		t.Fatalf("got %v", diags)
	}
}

func TestInstalledChecks(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0")
	data := filepath.Join(t.TempDir(), ".terraform")
	reqs := Requirements{widget: {}}
	sel, locks, diags := ensure(t, directConfig(reg), data, reqs, nil, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cfg := getproviders.Config{Platform: linux}
	if _, diags := Installed(data, reqs, lockfile.New(), cfg); !diags.HasErrors() || diags[0].Summary != "Provider not in the dependency lock file" {
		t.Fatalf("got %v", diags)
	}
	writeFile(t, sel[widget].Executable, []byte("#!/bin/sh\necho tampered\n"), 0o755)
	_, diags = Installed(data, reqs, locks, cfg)
	wantDiag(t, diags, "Provider checksum mismatch", "example.com/acme/widget v1.0.0", "init")
	os.RemoveAll(sel[widget].Dir)
	_, diags = Installed(data, reqs, locks, cfg)
	wantDiag(t, diags, "Required provider not installed", "Run init")
}

func TestBuiltInAndLegacyProviders(t *testing.T) {
	reqs := Requirements{
		addrs.NewBuiltInProvider("terraform"):                        {},
		addrs.MustParseProviderSource("registry.terraform.io/-/aws"): {},
	}
	sel, _, diags := ensure(t, getproviders.Config{Platform: linux}, t.TempDir(), reqs, nil, Options{})
	wantDiag(t, diags, "Legacy provider address", "registry.terraform.io/-/aws")
	if len(sel) != 0 || len(diags) != 1 {
		t.Fatalf("%v %v", sel, diags)
	}
}
