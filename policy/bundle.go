package policy

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"

	"github.com/tenetplan/tenet/internal/regokit"
)

// bundleLimits bound what reading one bundle may expand to. A bundle is a
// few files of policy and data; a small archive that inflates without
// bound (a gzip bomb) or lists endless entries must stop with a
// diagnostic, not take the machine's memory.
type bundleLimits struct {
	// total bounds the compressed file and, again, the uncompressed
	// archive (tar headers, padding and entries tenet ignores included).
	total int64
	// file bounds one entry.
	file int64
	// entries bounds the number of entries, directories included.
	entries int
}

var defaultBundleLimits = bundleLimits{total: 64 << 20, file: 16 << 20, entries: 10000}

// errBundleTooLarge marks a read stopped by the total limit.
var errBundleTooLarge = errors.New("bundle larger than the limit")

// limitedReader reads at most n bytes, then fails with errBundleTooLarge:
// a plain io.LimitReader would end in a silent EOF, which tar reads as a
// truncated archive.
type limitedReader struct {
	r io.Reader
	n int64
}

func (lr *limitedReader) Read(b []byte) (int, error) {
	if lr.n <= 0 {
		return 0, errBundleTooLarge
	}
	if int64(len(b)) > lr.n {
		b = b[:lr.n]
	}
	n, err := lr.r.Read(b)
	lr.n -= int64(n)
	return n, err
}

// readBundle reads the regular files of the bundle archive at p, keyed by
// their path inside the bundle (no leading "/"), within the default
// limits.
func readBundle(p string) (map[string][]byte, hcl.Diagnostics) {
	f, err := os.Open(p)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read policy bundle", Detail: fmt.Sprintf("Opening %s failed: %s.", p, errText(err))}}
	}
	defer f.Close()
	return readBundleFrom(f, p, defaultBundleLimits)
}

// readBundleFrom reads a bundle archive named p from r. It refuses,
// naming the entry, what OPA's reader would skip or let override
// silently: links, devices and other non-regular entries, paths that
// leave the bundle root, and a path given twice; and it stops at lim.
func readBundleFrom(r io.Reader, p string, lim bundleLimits) (map[string][]byte, hcl.Diagnostics) {
	fail := func(summary, format string, args ...any) (map[string][]byte, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)}}
	}
	tooLarge := func() (map[string][]byte, hcl.Diagnostics) {
		return fail("Policy bundle too large", "%s is or expands to more than %s, the limit for a policy bundle. Keep bundles to policies and the data they need; check that the archive is the one intended.", p, byteSize(lim.total))
	}
	// Compressed data no larger than what it expands to bounds the file
	// too: otherwise endless empty gzip members would expand to nothing,
	// and be read forever.
	zr, err := gzip.NewReader(&limitedReader{r: r, n: lim.total})
	if errors.Is(err, errBundleTooLarge) {
		return tooLarge()
	}
	if err != nil {
		return fail("Invalid policy bundle", "%s is not a gzip-compressed tar archive: %s. Build bundles with \"opa build\" or as a .tar.gz of .rego and data.json files.", p, err)
	}
	defer zr.Close()
	tr := tar.NewReader(&limitedReader{r: zr, n: lim.total})
	files := map[string][]byte{}
	for entries := 0; ; entries++ {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if errors.Is(err, errBundleTooLarge) {
			return tooLarge()
		}
		if err != nil {
			return fail("Invalid policy bundle", "%s is not a readable tar archive: %s. Build bundles with \"opa build\" or as a .tar.gz of .rego and data.json files.", p, err)
		}
		if entries >= lim.entries {
			return fail("Policy bundle has too many entries", "%s has more than %d entries, the limit for a policy bundle. Keep bundles to policies and the data they need.", p, lim.entries)
		}
		switch h.Typeflag {
		case tar.TypeXGlobalHeader:
			continue
		case tar.TypeReg, tar.TypeDir:
		case tar.TypeSymlink, tar.TypeLink:
			return fail("Link in policy bundle", "%s: the entry %q is a link (to %q). Policy bundles must hold regular files only: a link could make tenet read a file outside the bundle or one entry under two names. Replace the link with the file itself.", p, h.Name, h.Linkname)
		default:
			return fail("Unsupported entry in policy bundle", "%s: the entry %q is not a regular file or directory (tar type %q). Policy bundles must hold regular files only.", p, h.Name, string(h.Typeflag))
		}
		rel, ok := bundlePath(h.Name)
		if !ok {
			return fail("Policy bundle entry outside the bundle", "%s: the entry %q leaves the bundle root. Entry paths must stay inside the bundle (no \"..\").", p, h.Name)
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		if rel == "" {
			return fail("Invalid policy bundle", "%s: the file entry %q has no name inside the bundle.", p, h.Name)
		}
		if _, dup := files[rel]; dup {
			return fail("Duplicate entry in policy bundle", "%s: the path %q appears twice, so one copy would silently replace the other. Keep one entry per path.", p, h.Name)
		}
		if h.Size > lim.file {
			return fail("Policy bundle entry too large", "%s: the entry %q is %s, more than %s, the limit for one file in a policy bundle.", p, h.Name, byteSize(h.Size), byteSize(lim.file))
		}
		b, err := io.ReadAll(tr)
		if errors.Is(err, errBundleTooLarge) {
			return tooLarge()
		}
		if err != nil {
			return fail("Invalid policy bundle", "%s: reading the entry %q failed: %s.", p, h.Name, err)
		}
		files[rel] = b
	}
}

// bundlePath is an entry name as a path inside the bundle: OPA writes
// "/data.json", tar tools "./data.json" or "data.json", all the same
// path. ok is false for a path with a ".." segment (a backslash counts as
// a separator, as it does on Windows), which could leave the root.
func bundlePath(name string) (string, bool) {
	name = strings.ReplaceAll(name, "\\", "/")
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return "", false
		}
	}
	return strings.TrimPrefix(path.Clean("/"+name), "/"), true
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// loadBundle reads an OPA bundle archive: modules, data.json / data.yaml
// files at their directory's path, and the .manifest. The manifest's
// rego_version (and file_rego_versions) are honoured; without them each
// module gets the v1-then-v0 fallback. The manifest's metadata.tenet
// object is the policy-set config (a bundle carries no other files).
// Signatures are not verified.
func (l *loaded) loadBundle(p string, withTests bool) hcl.Diagnostics {
	files, diags := readBundle(p)
	if diags.HasErrors() {
		return diags
	}
	invalid := func(err error) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid policy bundle",
			Detail: fmt.Sprintf("%s is not a readable OPA bundle: %s. Build bundles with \"opa build\" or as a .tar.gz of .rego and data.json files.", p, err)}}
	}
	var manifest bundle.Manifest
	if raw, ok := files[".manifest"]; ok {
		if err := json.Unmarshal(raw, &manifest); err != nil {
			return invalid(fmt.Errorf(".manifest: %w", err))
		}
	}
	src := &source{name: p, cfg: emptyConfig()}
	l.sources = append(l.sources, src)
	if meta, ok := manifest.Metadata["tenet"]; ok {
		js, _ := json.Marshal(meta)
		cfg, err := ParseSetConfig(js)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid policy-set config",
				Detail: fmt.Sprintf("%s: .manifest metadata.tenet: %s.", p, err)})
		} else {
			src.cfg = cfg
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, rel := range names {
		display := p + "/" + rel
		switch base := path.Base(rel); {
		case strings.HasSuffix(rel, ".rego"):
			if isTestFile(rel) && !withTests {
				continue
			}
			m, err := regokit.ParseFile(display, files[rel], manifestRegoVersion(manifest, rel))
			if err != nil {
				diags = append(diags, regokit.ErrorDiags("Invalid policy file", err)...)
				continue
			}
			l.modules = append(l.modules, &moduleFile{mod: m, file: display, rel: rel, src: src})
		case base == "data.json" || base == "data.yaml" || base == "data.yml":
			diags = append(diags, l.addData(display, path.Dir(rel), files[rel])...)
		}
	}
	return diags
}

func manifestRegoVersion(m bundle.Manifest, rel string) ast.RegoVersion {
	v := m.RegoVersion
	if fv, ok := m.FileRegoVersions[rel]; ok {
		v = &fv
	} else if fv, ok := m.FileRegoVersions["/"+rel]; ok {
		v = &fv
	}
	switch {
	case v == nil:
		return ast.RegoUndefined
	case *v == 0:
		return ast.RegoV0
	}
	return ast.RegoV1
}
