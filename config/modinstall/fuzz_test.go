package modinstall

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzParseVersionsAnswer(f *testing.F) {
	f.Add([]byte(`{"modules":[{"versions":[{"version":"1.0.0"},{"version":"2.0.0-rc1"}]}]}`))
	f.Add([]byte(`{"modules":[]}`))
	f.Add([]byte(`{"modules":[{"versions":[{"version":"x"}]}]}`))
	f.Add([]byte(`{"modules":[{"versions":[{"version":"20000000000000000000.0.0"}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		list, err := parseVersionsAnswer(b)
		if err != nil {
			return
		}
		for _, v := range list {
			if v.String() == "" {
				t.Fatalf("empty version from %q", b)
			}
		}
	})
}

func FuzzResolveLocation(f *testing.F) {
	for _, s := range []string{"/a/b.zip", "./x.tgz//sub", "../../y.tar.gz", "git::https://h/r.git?ref=v1", "https://h/a.zip", "ns/n/s", "./", "s3::x"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://registry.example.com/v1/modules/ns/n/s/1.0.0/download")
	f.Fuzz(func(t *testing.T, loc string) {
		s, err := resolveLocation(base, loc)
		if err != nil {
			return
		}
		if s.Kind != SourceGit && s.Kind != SourceHTTP {
			t.Fatalf("%q resolved to a %v source, which cannot be fetched", loc, s.Kind)
		}
	})
}

// FuzzExtract feeds arbitrary bytes to the archive readers: whatever they
// hold, nothing may be written outside the target directory.
func FuzzExtract(f *testing.F) {
	f.Add(tarGz(f, entry{name: "a/b.tf", body: "x"}, entry{name: "l", link: "a/b.tf"}), "tar.gz")
	f.Add(zipArchive(f, entry{name: "a.tf", body: "x"}), "zip")
	f.Add(tarGz(f, entry{name: "../x", body: "x"}), "tar.gz")
	f.Fuzz(func(t *testing.T, data []byte, format string) {
		if format != "zip" && format != "tar.gz" && format != "tar" && format != "tar.bz2" {
			return
		}
		base := t.TempDir()
		dst := filepath.Join(base, "out")
		os.MkdirAll(dst, 0o755)
		src := filepath.Join(base, "in")
		if err := os.WriteFile(src, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(src)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		_ = extract(fh, int64(len(data)), format, dst, 1<<20)
		ents, _ := os.ReadDir(base)
		for _, e := range ents {
			if e.Name() != "in" && e.Name() != "out" {
				t.Fatalf("extract wrote %s outside the target", e.Name())
			}
		}
		filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type()&os.ModeSymlink != 0 {
				l, _ := os.Readlink(p)
				r := filepath.Join(filepath.Dir(p), l)
				if filepath.IsAbs(l) || !strings.HasPrefix(r, dst) {
					t.Fatalf("link %s -> %s leaves the target", p, l)
				}
			}
			return nil
		})
	})
}
