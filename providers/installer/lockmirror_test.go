package installer

import (
	"context"
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
