package lockfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
)

const h1 = "h1:FQXAmnRkaONUMkq3h3GtQ/BUVv/fz6AlJ1hl4ZFRhg0="
const h1b = "h1:AAAAmnRkaONUMkq3h3GtQ/BUVv/fz6AlJ1hl4ZFRhg0="
const zh = "zh:0f3c81a3f2a2ae33cb5d1d71cd0e5c1e2e9d5b5c3a4e6f7a8b9c0d1e2f3a4b5c"

// canonical is a lock file exactly as OpenTofu writes it.
const canonical = `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "example.com/acme/widget" {
  version = "2.0.0-beta1"
  hashes = [
    "` + h1 + `",
  ]
}

provider "registry.opentofu.org/hashicorp/time" {
  version     = "0.14.2"
  constraints = "~> 0.14, != 0.14.1"
  hashes = [
    "` + h1b + `",
    "` + h1 + `",
    "` + zh + `",
  ]
}
`

func TestRoundTrip(t *testing.T) {
	locks, diags := Parse([]byte(canonical), FileName)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if diff := cmp.Diff(canonical, string(locks.Bytes())); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	e := locks.Provider(addrs.MustParseProviderSource("hashicorp/time"))
	if e == nil || e.Version.String() != "0.14.2" || len(e.Hashes) != 3 || e.DeclRange.Start.Line != 11 {
		t.Fatalf("unexpected entry %+v", e)
	}
}

func TestWriteNormalizes(t *testing.T) {
	l := New()
	c, err := getproviders.ParseConstraints(">=1.0,<2.0, >= 1.0")
	if err != nil {
		t.Fatal(err)
	}
	l.SetProvider(addrs.MustParseProviderSource("hashicorp/null"), mustVersion(t, "1.2.0"), c,
		[]getproviders.Hash{zh, h1, zh})
	want := `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/null" {
  version     = "1.2.0"
  constraints = ">= 1.0, < 2.0"
  hashes = [
    "` + h1 + `",
    "` + zh + `",
  ]
}
`
	if diff := cmp.Diff(want, string(l.Bytes())); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	// lock wraps body in a lock for hashicorp/time.
	lock := func(body string) string {
		return "provider \"registry.opentofu.org/hashicorp/time\" {\n" + body + "}\n"
	}
	const version = "  version = \"1.0.0\"\n"
	tests := []struct {
		name, src, wantSummary string
		wantLine               int
	}{
		{"unknown argument", lock(version + "  colour = \"red\"\n"), "Unsupported argument", 3},
		{"missing version", lock(""), "Missing required argument", 1},
		{"version range", lock("  version = \">= 1.0\"\n"), "Invalid provider version", 2},
		{"short address", "provider \"hashicorp/time\" {\n" + version + "}\n", "Non-normalized provider source address", 1},
		{"bad address", "provider \"a/b/c/d\" {\n" + version + "}\n", "Invalid provider source address", 1},
		{"bad hash", lock(version + "  hashes = [\n    \"md5:abc\",\n  ]\n"), "Invalid provider hash", 4},
		{"bad constraints", lock(version + "  constraints = \"=> 1\"\n"), "Invalid version constraints", 3},
		{"duplicate", lock(version) + lock(version), "Duplicate provider lock", 4},
		{"syntax", "provider {\n", "Unclosed configuration block", 1},
		{"builtin", "provider \"terraform.io/builtin/terraform\" {\n" + version + "}\n", "Built-in provider in the lock file", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Parse([]byte(tc.src), FileName)
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			d := diags[0]
			if d.Summary != tc.wantSummary || d.Subject == nil || d.Subject.Filename != FileName || d.Subject.Start.Line != tc.wantLine {
				t.Fatalf("got %q at %v, want %q on line %d", d.Summary, d.Subject, tc.wantSummary, tc.wantLine)
			}
		})
	}
}

func TestLoadAndSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	locks, diags := Load(path)
	if diags.HasErrors() || len(locks.AllProviders()) != 0 {
		t.Fatalf("missing file: %v %v", locks.AllProviders(), diags)
	}
	locks, _ = Parse([]byte(canonical), FileName)
	if diags := Save(locks, path); diags.HasErrors() {
		t.Fatal(diags)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != canonical {
		t.Fatalf("saved:\n%s", got)
	}
	again, diags := Load(path)
	if diags.HasErrors() || !again.Equal(locks) {
		t.Fatalf("reloaded differs: %v", diags)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	if diags := Save(locks, filepath.Join(dir, "missing", FileName)); !diags.HasErrors() || !strings.Contains(diags[0].Detail, "missing") {
		t.Fatalf("want a write error, got %v", diags)
	}
}

func mustVersion(t *testing.T, s string) getproviders.Version {
	t.Helper()
	v, err := getproviders.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// FuzzParse checks that the parser never panics, and that whatever it
// accepts is written back in a form that parses to the same locks and is
// then stable.
func FuzzParse(f *testing.F) {
	f.Add([]byte(canonical))
	f.Add([]byte("provider \"registry.opentofu.org/hashicorp/time\" {\n  version = \"1.0.0\"\n}\n"))
	f.Add([]byte("provider \"x\" { version = 1 }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		locks, diags := Parse(src, FileName)
		if diags.HasErrors() {
			return
		}
		out := locks.Bytes()
		again, diags := Parse(out, FileName)
		if diags.HasErrors() {
			t.Fatalf("written form does not parse: %v\n%s", hcl.Diagnostics(diags), out)
		}
		if !again.Equal(locks) {
			t.Fatalf("written form reads differently:\n%s", out)
		}
		if string(again.Bytes()) != string(out) {
			t.Fatalf("not stable:\n%s\n---\n%s", out, again.Bytes())
		}
	})
}
