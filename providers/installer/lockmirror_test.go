package installer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/lockfile"
)

var darwin = getproviders.Platform{OS: "darwin", Arch: "arm64"}

func TestLockProvidersForPlatforms(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0")
	data := filepath.Join(t.TempDir(), ".terraform")
	inst, diags := New(directConfig(reg), data)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var lines []string
	pev := PlatformEvents{
		Fetching: func(p addrs.Provider, v getproviders.Version, pl getproviders.Platform) {
			lines = append(lines, "- Fetching "+p.ForDisplay()+" "+v.String()+" for "+pl.String()+"...")
		},
		Retrieved: func(p addrs.Provider, v getproviders.Version, pl getproviders.Platform, auth *getproviders.AuthResult) {
			lines = append(lines, "- Retrieved "+p.ForDisplay()+" "+v.String()+" for "+pl.String()+" ("+auth.String()+")")
		},
	}
	locks, diags := inst.LockProviders(context.Background(), Requirements{widget: {}}, lockfile.New(), []getproviders.Platform{linux, darwin}, Events{}, pev)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	key := testKeys(t)[0].id()
	want := []string{
		"- Fetching example.com/acme/widget 1.0.0 for linux_amd64...",
		"- Retrieved example.com/acme/widget 1.0.0 for linux_amd64 (signed, key ID " + key + ")",
		"- Fetching example.com/acme/widget 1.0.0 for darwin_arm64...",
		"- Retrieved example.com/acme/widget 1.0.0 for darwin_arm64 (signed, key ID " + key + ")",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	e := locks.Provider(widget)
	h1s := 0
	for _, h := range e.Hashes {
		if h.Scheme() == getproviders.SchemeH1 {
			h1s++
		}
	}
	if h1s != 2 || len(e.Hashes) != 4 {
		t.Fatalf("want h1 and zh for both platforms, got %v", e.Hashes)
	}
	if _, err := os.Stat(filepath.Join(data, "providers")); err == nil {
		t.Fatal("providers lock installed something")
	}
	// The lock verifies an install on either platform.
	for _, pl := range []getproviders.Platform{linux, darwin} {
		cfg := directConfig(reg)
		cfg.Platform = pl
		if _, _, diags := ensure(t, cfg, filepath.Join(t.TempDir(), ".terraform"), Requirements{widget: {}}, locks, Options{}); diags.HasErrors() {
			t.Fatalf("%s: %v", pl, diags)
		}
	}
}

func TestMirrorThenInstallFromIt(t *testing.T) {
	reg := newFakeRegistry(t, "widget", "1.0.0", "1.1.0")
	inst, diags := New(directConfig(reg), filepath.Join(t.TempDir(), ".terraform"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	dir := t.TempDir()
	reqs := Requirements{widget: constraints(t, "~> 1.0")}
	if diags := inst.Mirror(context.Background(), reqs, lockfile.New(), dir, []getproviders.Platform{linux, darwin}, Events{}, PlatformEvents{}); diags.HasErrors() {
		t.Fatal(diags)
	}
	base := filepath.Join(dir, "example.com", "acme", "widget")
	for _, f := range []string{"terraform-provider-widget_1.1.0_linux_amd64.zip", "terraform-provider-widget_1.1.0_darwin_arm64.zip", "index.json", "1.1.0.json"} {
		if _, err := os.Stat(filepath.Join(base, f)); err != nil {
			t.Fatal(err)
		}
	}
	var idx mirrorIndexDoc
	b, _ := os.ReadFile(filepath.Join(base, "index.json"))
	if err := json.Unmarshal(b, &idx); err != nil || len(idx.Versions) != 1 {
		t.Fatalf("index.json %s %v", b, err)
	}

	// As a filesystem mirror (packed layout)…
	fsCfg := getproviders.Config{Methods: []getproviders.Method{{Kind: getproviders.MethodFilesystemMirror, Location: dir}}, Platform: linux}
	_, fromFS, diags := ensure(t, fsCfg, filepath.Join(t.TempDir(), ".terraform"), reqs, nil, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// …and served over HTTPS as a network mirror, with the same hashes.
	srv := httptest.NewTLSServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	netCfg := getproviders.Config{Methods: []getproviders.Method{{Kind: getproviders.MethodNetworkMirror, Location: srv.URL + "/"}}, HTTPClient: srv.Client(), Platform: linux}
	_, fromNet, diags := ensure(t, netCfg, filepath.Join(t.TempDir(), ".terraform"), reqs, fromFS, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if fromNet.Provider(widget).Version.String() != "1.1.0" || fromFS.Provider(widget).Version.String() != "1.1.0" {
		t.Fatalf("fs:\n%s\nnet:\n%s", fromFS.Bytes(), fromNet.Bytes())
	}
}

func TestRequirementsAndDataDir(t *testing.T) {
	reqs := Requirements{}
	if err := reqs.Add(widget, ">= 1.0"); err != nil {
		t.Fatal(err)
	}
	if err := reqs.Add(widget, "< 2.0"); err != nil {
		t.Fatal(err)
	}
	if err := reqs.Add(timeProvider, ""); err != nil {
		t.Fatal(err)
	}
	if got := reqs[widget].String(); got != ">= 1.0, < 2.0" {
		t.Fatalf("merged %q", got)
	}
	if err := reqs.Add(widget, "=> 1"); err == nil {
		t.Fatal("no error for a bad constraint")
	}
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct{ v, want string }{{"", "/w/.terraform"}, {"data", "/w/data"}, {"/abs", "/abs"}} {
		env["TF_DATA_DIR"] = tc.v
		if got := DataDir("/w", getenv); got != tc.want {
			t.Errorf("TF_DATA_DIR=%q: %q, want %q", tc.v, got, tc.want)
		}
	}
}
