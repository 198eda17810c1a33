package getproviders

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/addrs"
)

func TestConstraints(t *testing.T) {
	tests := []struct {
		in      string
		canon   string
		allow   []string
		deny    []string
		wantErr bool
	}{
		{in: "~> 0.14", canon: "~> 0.14", allow: []string{"0.14.0", "0.99.1"}, deny: []string{"1.0.0", "0.13.9"}},
		{in: "~> 0.14.1", canon: "~> 0.14.1", allow: []string{"0.14.5"}, deny: []string{"0.15.0"}},
		{in: ">=1.0,<2.0", canon: ">= 1.0, < 2.0", allow: []string{"1.5.0"}, deny: []string{"2.0.0", "0.9.0"}},
		{in: "!= 1.2.0", canon: "!= 1.2.0", allow: []string{"1.2.1"}, deny: []string{"1.2.0"}},
		{in: "= 1.2.0", canon: "1.2.0", allow: []string{"1.2.0"}, deny: []string{"1.2.1"}},
		{in: "1.2.0", canon: "1.2.0", allow: []string{"1.2.0"}},
		{in: "", canon: "", allow: []string{"9.9.9"}, deny: []string{"2.0.0-beta1"}},
		{in: ">= 1.0", canon: ">= 1.0", deny: []string{"2.0.0-beta1"}},
		{in: "2.0.0-beta1", canon: "2.0.0-beta1", allow: []string{"2.0.0-beta1"}},
		{in: "=> 1.0", wantErr: true},
		{in: "v1.0", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			allows := func(c Constraints, v string) bool { return c.Allows(mustVersion(t, v)) }
			c, ok := checkAccepts(t, tc.in, ParseConstraints, tc.wantErr, allows, tc.allow, tc.deny)
			if got := c.String(); ok && got != tc.canon {
				t.Errorf("String %q, want %q", got, tc.canon)
			}
		})
	}
	merged := MergeConstraints(mustConstraints(t, ">= 1.0"), mustConstraints(t, ">=1.0, < 3.0"))
	if merged.String() != ">= 1.0, < 3.0" {
		t.Fatalf("merged %q", merged)
	}
}

// checkAccepts parses in, which must fail when wantErr is set; otherwise
// what it parses to must accept every one of yes and none of no. ok says
// there is a parsed value to check further.
func checkAccepts[T fmt.Stringer](t *testing.T, in string, parse func(string) (T, error), wantErr bool, accepts func(T, string) bool, yes, no []string) (parsed T, ok bool) {
	t.Helper()
	parsed, err := parse(in)
	if wantErr {
		if err == nil {
			t.Fatal("no error")
		}
		return parsed, false
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range yes {
		if !accepts(parsed, s) {
			t.Errorf("%s does not accept %s", parsed, s)
		}
	}
	for _, s := range no {
		if accepts(parsed, s) {
			t.Errorf("%s accepts %s", parsed, s)
		}
	}
	return parsed, true
}

func mustVersion(t *testing.T, s string) Version {
	t.Helper()
	v, err := ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustConstraints(t *testing.T, s string) Constraints {
	t.Helper()
	c, err := ParseConstraints(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFindExecutable(t *testing.T) {
	tests := map[string]struct {
		files []string
		want  string
	}{
		"bare":                {files: []string{"terraform-provider-time"}, want: "terraform-provider-time"},
		"version suffix":      {files: []string{"README", "terraform-provider-time_v0.14.2_x5"}, want: "terraform-provider-time_v0.14.2_x5"},
		"extension":           {files: []string{"terraform-provider-time.exe"}, want: "terraform-provider-time.exe"},
		"longer type ignored": {files: []string{"terraform-provider-timer"}},
		"other provider":      {files: []string{"terraform-provider-null"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o755)
			}
			got, ok := FindExecutable(dir, "time")
			if (tc.want == "") == ok || (ok && filepath.Base(got) != tc.want) {
				t.Fatalf("got %q %v, want %q", got, ok, tc.want)
			}
		})
	}
}

func zipWith(t *testing.T, entries map[string]os.FileMode) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, mode := range entries {
		h := &zip.FileHeader{Name: name}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("data"))
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "p.zip")
	os.WriteFile(path, buf.Bytes(), 0o644)
	return path
}

func TestUnzipRefusesEscapes(t *testing.T) {
	tests := map[string]struct {
		entries map[string]os.FileMode
		wantErr string
	}{
		"plain":          {entries: map[string]os.FileMode{"terraform-provider-x": 0o755, "docs/": os.ModeDir | 0o755, "docs/a.md": 0o644}},
		"dot dot":        {entries: map[string]os.FileMode{"../evil": 0o644}, wantErr: "outside its directory"},
		"nested dot dot": {entries: map[string]os.FileMode{"a/../../evil": 0o644}, wantErr: "outside its directory"},
		"absolute":       {entries: map[string]os.FileMode{"/etc/evil": 0o644}, wantErr: "outside its directory"},
		"backslash":      {entries: map[string]os.FileMode{`..\evil`: 0o644}, wantErr: "outside its directory"},
		"symlink":        {entries: map[string]os.FileMode{"link": os.ModeSymlink | 0o777}, wantErr: "not a regular file"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "pkg")
			err := Unzip(zipWith(t, tc.entries), dir)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if fi, err := os.Stat(filepath.Join(dir, "terraform-provider-x")); err != nil || fi.Mode()&0o100 == 0 {
					t.Fatalf("executable bit lost: %v %v", fi, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if _, err := os.Stat(filepath.Join(parent, "evil")); err == nil {
				t.Fatal("an entry escaped")
			}
		})
	}
}

func TestHashes(t *testing.T) {
	path := zipWith(t, map[string]os.FileMode{"terraform-provider-x": 0o755})
	dir := filepath.Join(t.TempDir(), "pkg")
	if err := Unzip(path, dir); err != nil {
		t.Fatal(err)
	}
	fromZip, err := PackageHashes(PackageLocalArchive(path))
	if err != nil {
		t.Fatal(err)
	}
	fromDir, err := PackageHashes(PackageLocalDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	sum := sha256.Sum256(data)
	if fromZip[0] != fromDir[0] || fromZip[1] != ZHFromSHA256(sum) || !strings.HasPrefix(string(fromDir[0]), "h1:") {
		t.Fatalf("zip %v, dir %v", fromZip, fromDir)
	}
	for _, h := range append(fromZip, fromDir...) {
		if _, err := ParseHash(string(h)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseSHA256SUMS(t *testing.T) {
	a := strings.Repeat("ab", 32)
	b := strings.Repeat("cd", 32)
	got, err := ParseSHA256SUMS([]byte(a + "  one.zip\n" + b + " *two.zip\r\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || ZHFromSHA256(got["one.zip"]) != Hash("zh:"+a) || ZHFromSHA256(got["two.zip"]) != Hash("zh:"+b) {
		t.Fatalf("got %v", got)
	}
	for _, bad := range []string{"xyz  one.zip", a, a + "  one.zip\n" + b + "  one.zip"} {
		if _, err := ParseSHA256SUMS([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestProviderPatterns(t *testing.T) {
	tests := map[string]struct {
		match, nomatch []string
		wantErr        bool
	}{
		"hashicorp/*":          {match: []string{"hashicorp/time", "registry.opentofu.org/hashicorp/null"}, nomatch: []string{"acme/time", "example.com/hashicorp/time"}},
		"example.com/*/*":      {match: []string{"example.com/a/b"}, nomatch: []string{"a/b"}},
		"*/*/*":                {match: []string{"a/b", "example.com/x/y"}},
		"Example.COM/Acme/Foo": {match: []string{"example.com/acme/foo"}},
		"a/b/c/d":              {wantErr: true},
		"example.com/*/bad_":   {wantErr: true},
	}
	for in, tc := range tests {
		t.Run(in, func(t *testing.T) {
			matches := func(p ProviderPattern, s string) bool { return p.Matches(addrs.MustParseProviderSource(s)) }
			checkAccepts(t, in, ParseProviderPattern, tc.wantErr, matches, tc.match, tc.nomatch)
		})
	}
}

func TestDecodeDownload(t *testing.T) {
	u, _ := url.Parse("https://example.com/v1/providers/acme/x/1.0.0/download/linux/amd64")
	p := addrs.MustParseProviderSource("example.com/acme/x")
	v := Version{Major: 1}
	plat := Platform{"linux", "amd64"}
	good := `{"protocols":["5.0"],"os":"linux","arch":"amd64","filename":"terraform-provider-x_1.0.0_linux_amd64.zip",
	  "download_url":"/f/x.zip","shasums_url":"https://cdn.example.com/SUMS","shasums_signature_url":"SUMS.sig",
	  "shasum":"` + strings.Repeat("0", 64) + `","signing_keys":{"gpg_public_keys":[{"key_id":"X","ascii_armor":"K"}]}}`
	meta, err := decodeDownload([]byte(good), u, "reg", p, v, plat)
	if err != nil {
		t.Fatal(err)
	}
	auth := meta.Authentication.(*registryAuth)
	if diff := cmp.Diff([]string{"https://example.com/f/x.zip", "https://cdn.example.com/SUMS", "https://example.com/v1/providers/acme/x/1.0.0/download/linux/SUMS.sig"},
		[]string{meta.Location.String(), auth.sumsURL.String(), auth.sigURL.String()}); diff != "" {
		t.Fatalf("URLs (-want +got):\n%s", diff)
	}
	for name, bad := range map[string]string{
		"not json":        `<html>`,
		"path filename":   strings.Replace(good, `"terraform-provider-x_1.0.0_linux_amd64.zip"`, `"../x.zip"`, 1),
		"wrong platform":  strings.Replace(good, `"os":"linux"`, `"os":"windows"`, 1),
		"file url":        strings.Replace(good, `"/f/x.zip"`, `"file:///etc/passwd"`, 1),
		"short shasum":    strings.Replace(good, strings.Repeat("0", 64), "00", 1),
		"old protocol":    strings.Replace(good, `["5.0"]`, `["4.0"]`, 1),
		"no download url": strings.Replace(good, `"/f/x.zip"`, `""`, 1),
	} {
		if _, err := decodeDownload([]byte(bad), u, "reg", p, v, plat); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// Fuzz targets for every parser of outside input.

func FuzzParseSHA256SUMS(f *testing.F) {
	f.Add([]byte(strings.Repeat("ab", 32) + "  a.zip\n"))
	f.Add([]byte("\n\n*"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sums, err := ParseSHA256SUMS(b)
		if err != nil {
			return
		}
		for name := range sums {
			if name == "" || strings.ContainsAny(name, " \t\n") {
				t.Fatalf("bad name %q", name)
			}
		}
	})
}

func FuzzDecodeVersions(f *testing.F) {
	f.Add([]byte(`{"versions":[{"version":"1.0.0","protocols":["5.0"],"platforms":[{"os":"linux","arch":"amd64"}]}],"warnings":["w"]}`))
	f.Add([]byte(`{"versions":[{"version":"banana"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		vs, _, err := decodeVersions(b, "fuzz")
		if err != nil {
			return
		}
		if !vs.IsSorted() {
			t.Fatal("unsorted")
		}
	})
}

func FuzzDecodeDownload(f *testing.F) {
	f.Add([]byte(`{"filename":"x.zip","download_url":"x.zip","shasum":"` + strings.Repeat("0", 64) + `","shasums_url":"S","shasums_signature_url":"S.sig"}`))
	u, _ := url.Parse("https://example.com/v1/providers/a/x/1.0.0/download/linux/amd64")
	p := addrs.MustParseProviderSource("example.com/a/x")
	f.Fuzz(func(t *testing.T, b []byte) {
		meta, err := decodeDownload(b, u, "fuzz", p, Version{Major: 1}, Platform{"linux", "amd64"})
		if err != nil {
			return
		}
		loc, _ := url.Parse(meta.Location.String())
		if loc == nil || (loc.Scheme != "https" && loc.Scheme != "http") || strings.ContainsAny(meta.Filename, `/\`) {
			t.Fatalf("accepted %+v", meta)
		}
	})
}

func FuzzDecodeMirror(f *testing.F) {
	f.Add([]byte(`{"versions":{"1.0.0":{}}}`), []byte(`{"archives":{"linux_amd64":{"url":"x.zip","hashes":["zh:`+strings.Repeat("0", 64)+`"]}}}`))
	u, _ := url.Parse("https://mirror.example.com/example.com/a/x/1.0.0.json")
	p := addrs.MustParseProviderSource("example.com/a/x")
	f.Fuzz(func(t *testing.T, index, version []byte) {
		if vs, err := decodeMirrorIndex(index, "fuzz"); err == nil && !vs.IsSorted() {
			t.Fatal("unsorted")
		}
		meta, err := decodeMirrorVersion(version, u, "fuzz", p, Version{Major: 1}, Platform{"linux", "amd64"})
		if err != nil {
			return
		}
		for _, h := range meta.Authentication.AcceptableHashes() {
			if _, err := ParseHash(string(h)); err != nil {
				t.Fatalf("accepted hash %q", h)
			}
		}
	})
}

func FuzzParseProviderPattern(f *testing.F) {
	for _, s := range []string{"hashicorp/*", "*/*/*", "example.com/*/x", "a/b/c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pat, err := ParseProviderPattern(s)
		if err != nil {
			return
		}
		again, err := ParseProviderPattern(pat.String())
		if err != nil || again != pat {
			t.Fatalf("%q -> %q -> %q, %v", s, pat, again, err)
		}
	})
}

func FuzzParseConstraints(f *testing.F) {
	for _, s := range []string{"~> 0.14", ">= 1.0, < 2.0", "!= 1.2.0", "1.2.0-beta1", "~> 20000000000000000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConstraints(s)
		if err != nil {
			return
		}
		again, err := ParseConstraints(c.String())
		if err != nil || again.String() != c.String() {
			t.Fatalf("%q -> %q does not parse back the same: %q, %v", s, c.String(), again.String(), err)
		}
	})
}

// FuzzUnzip feeds arbitrary archives to Unzip: whatever happens, nothing
// may be written outside the target directory.
func FuzzUnzip(f *testing.F) {
	for _, entries := range []map[string]os.FileMode{
		{"terraform-provider-x": 0o755},
		{"../evil": 0o644},
		{"a/": os.ModeDir | 0o755, "a/b": 0o644},
	} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, mode := range entries {
			h := &zip.FileHeader{Name: name}
			h.SetMode(mode)
			w, _ := zw.CreateHeader(h)
			w.Write([]byte("x"))
		}
		zw.Close()
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parent := t.TempDir()
		archive := filepath.Join(parent, "in.zip")
		if err := os.WriteFile(archive, data, 0o644); err != nil {
			t.Fatal(err)
		}
		Unzip(archive, filepath.Join(parent, "pkg"))
		entries, _ := os.ReadDir(parent)
		for _, e := range entries {
			if e.Name() != "in.zip" && e.Name() != "pkg" {
				t.Fatalf("%s written outside the package directory", e.Name())
			}
		}
	})
}
