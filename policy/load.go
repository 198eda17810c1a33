package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/util"
)

// source is one policy source as given: a directory, a file or a bundle,
// with its policy-set config (never nil; empty when there is no file).
type source struct {
	name string
	cfg  *SetConfig
}

// moduleFile is one parsed Rego module and where it came from.
type moduleFile struct {
	mod *ast.Module
	// file is the path shown to people (source path joined with rel).
	file string
	// rel is the path inside the source, used to match config keys.
	rel string
	src *source
}

// loaded is everything read from the policy sources.
type loaded struct {
	sources []*source
	modules []*moduleFile
	data    map[string]any
}

// IsBundle reports whether path names an OPA bundle archive.
func IsBundle(p string) bool {
	return strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".tgz")
}

// loadSources reads every path (directory, .rego file, data file or
// bundle). Test files (*_test.rego) are read only when withTests is set.
func loadSources(paths []string, withTests bool) (*loaded, hcl.Diagnostics) {
	l := &loaded{data: map[string]any{}}
	var diags hcl.Diagnostics
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Policy source not found",
				Detail: fmt.Sprintf("The policy source %s cannot be read: %s. Give a directory, a .rego file or an OPA bundle (.tar.gz).", p, errText(err))})
			continue
		}
		switch {
		case fi.IsDir():
			diags = append(diags, l.loadDir(p, withTests)...)
		case IsBundle(p):
			diags = append(diags, l.loadBundle(p, withTests)...)
		default:
			diags = append(diags, l.loadFile(p, withTests)...)
		}
	}
	return l, diags
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func isTestFile(name string) bool { return strings.HasSuffix(name, "_test.rego") }

func isDataFile(name string) bool {
	switch path.Ext(name) {
	case ".json", ".yaml", ".yml":
		return name != ConfigFileName && name != "policy-set.yml"
	}
	return false
}

// loadDir reads a directory the way `opa eval -d DIR` does: every .rego
// file is a module, and every JSON or YAML file is merged into data at the
// path of its directory (the file name does not matter).
func (l *loaded) loadDir(dir string, withTests bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	src := &source{name: dir, cfg: emptyConfig()}
	l.sources = append(l.sources, src)
	for _, name := range []string{ConfigFileName, "policy-set.yml"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		cfg, err := ParseSetConfig(b)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid policy-set config",
				Detail: fmt.Sprintf("%s: %s.", filepath.Join(dir, name), err)})
			continue
		}
		src.cfg = cfg
	}
	fsys := os.DirFS(dir)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		display := filepath.ToSlash(filepath.Join(dir, p))
		switch {
		case strings.HasSuffix(name, ".rego"):
			if isTestFile(name) && !withTests {
				return nil
			}
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			m, err := parseRego(display, b, ast.RegoUndefined)
			if err != nil {
				diags = append(diags, astErrorDiags("Invalid policy file", err)...)
				return nil
			}
			l.modules = append(l.modules, &moduleFile{mod: m, file: display, rel: p, src: src})
		case isDataFile(name) && !(p == name && (name == ConfigFileName || name == "policy-set.yml")):
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			diags = append(diags, l.addData(display, path.Dir(p), b)...)
		}
		return nil
	})
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read policy files",
			Detail: fmt.Sprintf("Reading the policy directory %s failed: %s. Check that it exists and is readable.", dir, err)})
	}
	return diags
}

// loadFile reads a single .rego or data file given on the command line.
func (l *loaded) loadFile(p string, withTests bool) hcl.Diagnostics {
	src := &source{name: p, cfg: emptyConfig()}
	b, err := os.ReadFile(p)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read policy file", Detail: fmt.Sprintf("Reading %s failed: %s.", p, err)}}
	}
	display := filepath.ToSlash(p)
	switch {
	case strings.HasSuffix(p, ".rego"):
		if isTestFile(p) && !withTests {
			return nil
		}
		m, err := parseRego(display, b, ast.RegoUndefined)
		if err != nil {
			return astErrorDiags("Invalid policy file", err)
		}
		l.sources = append(l.sources, src)
		l.modules = append(l.modules, &moduleFile{mod: m, file: display, rel: filepath.Base(p), src: src})
		return nil
	case isDataFile(filepath.Base(p)):
		return l.addData(display, ".", b)
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported policy source",
		Detail: fmt.Sprintf("%s is not a directory, a .rego file, a JSON or YAML data file, or an OPA bundle (.tar.gz).", p)}}
}

func emptyConfig() *SetConfig {
	return &SetConfig{Enforcement: map[string]Level{}, Allow: map[Capability]bool{}}
}

// addData merges a JSON or YAML document into data at dir ("." = root).
func (l *loaded) addData(file, dir string, src []byte) hcl.Diagnostics {
	var v any
	if err := util.Unmarshal(src, &v); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid policy data file",
			Detail: fmt.Sprintf("%s: %s. Data files must hold a JSON or YAML object.", file, err)}}
	}
	if v == nil {
		return nil
	}
	var segs []string
	if dir != "." && dir != "" {
		segs = strings.Split(dir, "/")
	}
	obj, ok := v.(map[string]any)
	if !ok && len(segs) == 0 {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid policy data file",
			Detail: fmt.Sprintf("%s: a data file at the root of a policy source must hold an object, so its keys become data.KEY.", file)}}
	}
	target := l.data
	for i, s := range segs {
		if i == len(segs)-1 && !ok {
			if _, exists := target[s]; exists {
				return dataConflict(file, segs[:i+1])
			}
			target[s] = v
			return nil
		}
		next, exists := target[s]
		if !exists {
			m := map[string]any{}
			target[s] = m
			target = m
			continue
		}
		m, isObj := next.(map[string]any)
		if !isObj {
			return dataConflict(file, segs[:i+1])
		}
		target = m
	}
	if err := mergeInto(target, obj, segs); err != nil {
		return dataConflict(file, err)
	}
	return nil
}

func mergeInto(dst, src map[string]any, at []string) []string {
	for k, v := range src {
		old, exists := dst[k]
		if !exists {
			dst[k] = v
			continue
		}
		om, ok1 := old.(map[string]any)
		nm, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			return append(append([]string(nil), at...), k)
		}
		if conflict := mergeInto(om, nm, append(at, k)); conflict != nil {
			return conflict
		}
	}
	return nil
}

func dataConflict(file string, at []string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Conflicting policy data",
		Detail: fmt.Sprintf("%s sets data.%s, which another data file already sets. Merge the files or move one to another directory.", file, strings.Join(at, "."))}}
}

// parseRego parses a module as Rego v1, falling back to v0 (the syntax of
// most conftest policies, `deny[msg] { … }`) when the file does not parse
// as v1 and does not import rego.v1. A fixed version (from a bundle
// manifest) disables the fallback. When both parses fail, the error found
// furthest into the file is reported: it is the one closest to the typo.
func parseRego(filename string, src []byte, version ast.RegoVersion) (*ast.Module, error) {
	parse := func(v ast.RegoVersion) (*ast.Module, error) {
		return ast.ParseModuleWithOpts(filename, string(src), ast.ParserOptions{RegoVersion: v, ProcessAnnotation: true})
	}
	if version == ast.RegoV0 || version == ast.RegoV1 {
		return parse(version)
	}
	m1, err1 := parse(ast.RegoV1)
	if err1 == nil {
		return m1, nil
	}
	if strings.Contains(string(src), "import rego.v1") {
		return nil, err1
	}
	m0, err0 := parse(ast.RegoV0)
	if err0 == nil {
		return m0, nil
	}
	if errorOffset(err0) > errorOffset(err1) {
		return nil, err0
	}
	return nil, err1
}

func errorOffset(err error) int {
	errs, ok := err.(ast.Errors)
	if !ok || len(errs) == 0 || errs[0].Location == nil {
		return -1
	}
	return errs[0].Location.Offset
}
