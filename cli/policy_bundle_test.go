package cli_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"strings"
	"testing"
)

// bundleEntry is one tar entry of a test bundle; size, when set, is the
// size the header claims (the body may be shorter: the archive is then
// cut off there, as a hostile one may be).
type bundleEntry struct {
	name     string
	typeflag byte
	body     string
	link     string
	size     int64
	// zeros appends this many zero bytes to body.
	zeros int64
}

func rawBundle(t *testing.T, entries []bundleEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	zero := make([]byte, 1<<20)
	for _, e := range entries {
		typ := e.typeflag
		if typ == 0 {
			typ = tar.TypeReg
		}
		size := int64(len(e.body)) + e.zeros
		if e.size != 0 {
			size = e.size
		}
		if typ != tar.TypeReg {
			size = 0
		}
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Typeflag: typ, Linkname: e.link, Mode: 0o644, Size: size}); err != nil {
			t.Fatal(err)
		}
		if typ != tar.TypeReg {
			continue
		}
		tw.Write([]byte(e.body))
		for n := e.zeros; n > 0; n -= int64(len(zero)) {
			tw.Write(zero[:min(n, int64(len(zero)))])
		}
		if e.size != 0 {
			break // the header lied: end the archive here
		}
	}
	tw.Flush()
	gz.Close()
	return buf.Bytes()
}

const bundlePolicy = "package main\n\ndeny contains \"no\" if { false }\n"

func TestPolicyBundleRefusesHostileArchives(t *testing.T) {
	many := []bundleEntry{{name: "main.rego", body: bundlePolicy}}
	for i := range 10001 {
		many = append(many, bundleEntry{name: fmt.Sprintf("d%d/", i), typeflag: tar.TypeDir})
	}
	var padding []bundleEntry
	for i := range 9 {
		padding = append(padding, bundleEntry{name: fmt.Sprintf("pad/%d.bin", i), zeros: 8 << 20})
	}
	tests := []struct {
		name    string
		entries []bundleEntry
		want    []string
	}{
		{
			"expands past the total limit",
			append([]bundleEntry{{name: "main.rego", body: bundlePolicy}}, padding...),
			[]string{"Policy bundle too large", "b.tar.gz is or expands to more than 64 MiB"},
		},
		{
			"one entry claims 1 GiB",
			[]bundleEntry{{name: "main.rego", body: bundlePolicy}, {name: "data.json", body: "{", size: 1 << 30}},
			[]string{"Policy bundle entry too large", `"data.json" is 1 GiB, more than 16 MiB`},
		},
		{
			"too many entries",
			many,
			[]string{"Policy bundle has too many entries", "b.tar.gz has more than 10000 entries"},
		},
		{
			"symlink",
			[]bundleEntry{{name: "main.rego", body: bundlePolicy}, {name: "secret.rego", typeflag: tar.TypeSymlink, link: "/etc/passwd"}},
			[]string{"Link in policy bundle", `the entry "secret.rego" is a link (to "/etc/passwd")`},
		},
		{
			"hard link",
			[]bundleEntry{{name: "main.rego", body: bundlePolicy}, {name: "again.rego", typeflag: tar.TypeLink, link: "main.rego"}},
			[]string{"Link in policy bundle", `the entry "again.rego" is a link`},
		},
		{
			"device",
			[]bundleEntry{{name: "main.rego", body: bundlePolicy}, {name: "zero", typeflag: tar.TypeChar}},
			[]string{"Unsupported entry in policy bundle", `"zero"`},
		},
		{
			"escapes the root",
			[]bundleEntry{{name: "main.rego", body: bundlePolicy}, {name: "x/../../escape.rego", body: bundlePolicy}},
			[]string{"Policy bundle entry outside the bundle", `"x/../../escape.rego"`},
		},
		{
			"duplicate path",
			[]bundleEntry{{name: "main.rego", body: bundlePolicy}, {name: "/main.rego", body: "package main\n"}},
			[]string{"Duplicate entry in policy bundle", `the path "/main.rego" appears twice`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			policyWorkdir(t, map[string]string{})
			if err := os.WriteFile("b.tar.gz", rawBundle(t, tt.entries), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runPolicyTenet(t, "", "plan", "-no-color", "-policy=b.tar.gz")
			if code != 3 {
				t.Fatalf("exit %d, want 3\n%s%s", code, out, errOut)
			}
			all := strings.Join(strings.Fields(out+errOut), " ")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
	t.Run("a good bundle still loads", func(t *testing.T) {
		policyWorkdir(t, map[string]string{})
		entries := []bundleEntry{{name: "/", typeflag: tar.TypeDir}, {name: "/main.rego", body: bundlePolicy}, {name: "./data.json", body: `{"x": 1}`}}
		os.WriteFile("b.tar.gz", rawBundle(t, entries), 0o644)
		if code, out, errOut := runPolicyTenet(t, "", "plan", "-no-color", "-policy=b.tar.gz"); code != 0 || !strings.Contains(out, "1 policies: 1 passed") {
			t.Errorf("exit %d\n%s%s", code, out, errOut)
		}
	})
}
