package policy

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBundlePath(t *testing.T) {
	tests := []struct {
		name   string
		want   string
		wantOK bool
	}{
		{"data.json", "data.json", true},
		{"/data.json", "data.json", true},
		{"./a/b.rego", "a/b.rego", true},
		{"a//b/./c.rego", "a/b/c.rego", true},
		{"../x.rego", "", false},
		{"a/../../x.rego", "", false},
		// Inside the root after cleaning, but a ".." may still name
		// another entry than the one people read: refused too.
		{"a/../x.rego", "", false},
		{`a\..\..\x.rego`, "", false},
		{"..data.json", "..data.json", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := bundlePath(tt.name)
			if diff := cmp.Diff([]any{tt.want, tt.wantOK}, []any{got, ok}); diff != "" {
				t.Errorf("bundlePath(%q) (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestReadBundleLimits runs the limits lowered, on archives that stay
// small.
func TestReadBundleLimits(t *testing.T) {
	lim := bundleLimits{total: 64 << 10, file: 16 << 10, entries: 10}
	var emptyMember bytes.Buffer
	gzip.NewWriter(&emptyMember).Close()
	emptyMembers := bytes.Repeat(emptyMember.Bytes(), 10000)
	tests := []struct {
		name    string
		archive []byte
		want    string // the diagnostic's summary, "" for none
	}{
		{"small", tarGzFiles(t, map[string]int{"a.rego": 100}), ""},
		{"entry too large", tarGzFiles(t, map[string]int{"data.json": 17 << 10}), "Policy bundle entry too large"},
		{"expands too far", tarGzFiles(t, map[string]int{"a.bin": 15 << 10, "b.bin": 15 << 10, "c.bin": 15 << 10, "d.bin": 15 << 10, "e.bin": 15 << 10}), "Policy bundle too large"},
		{"empty gzip members", emptyMembers, "Policy bundle too large"},
		{"too many entries", tarGzFiles(t, map[string]int{"0": 1, "1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "8": 1, "9": 1, "10": 1}), "Policy bundle has too many entries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := readBundleFrom(bytes.NewReader(tt.archive), "b.tar.gz", lim)
			got := ""
			if len(diags) > 0 {
				got = diags[0].Summary
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostic (-want +got):\n%s\n%v", diff, diags)
			}
		})
	}
}

// tarGzFiles builds an archive of files of zeros, name → size.
func tarGzFiles(t testing.TB, files map[string]int) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, size := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(size), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(make([]byte, size))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// FuzzReadBundle reads arbitrary archives within small limits: reading
// never panics, and what it returns keeps the limits and only clean paths
// inside the bundle.
func FuzzReadBundle(f *testing.F) {
	lim := bundleLimits{total: 64 << 10, file: 16 << 10, entries: 10}
	f.Add(tarGzFiles(f, map[string]int{"a.rego": 10, "/b/data.json": 20, "./c.rego": 1}))
	f.Add(tarGzFiles(f, map[string]int{"x/../../y": 1}))
	f.Add(tarGzFiles(f, map[string]int{"big": 20 << 10}))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, archive []byte) {
		files, diags := readBundleFrom(bytes.NewReader(archive), "f.tar.gz", lim)
		if diags.HasErrors() {
			if files != nil {
				t.Errorf("files returned with an error: %v", diags)
			}
			return
		}
		var total int64
		for name, b := range files {
			total += int64(len(b))
			if int64(len(b)) > lim.file {
				t.Errorf("%q: %d bytes, over the file limit", name, len(b))
			}
			if name == "" || strings.HasPrefix(name, "/") || path.Clean(name) != name || slices.Contains(strings.Split(name, "/"), "..") {
				t.Errorf("unclean path %q", name)
			}
		}
		if total > lim.total || len(files) > lim.entries {
			t.Errorf("%d files of %d bytes, over the limits", len(files), total)
		}
	})
}
