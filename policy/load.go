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

	"github.com/tenetplan/tenet/internal/regokit"
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
	files, moreDiags := regokit.Dir{
		FS: fsys, Name: dir, Noun: "policy", Version: ast.RegoUndefined, SkipHidden: true,
		Keep: func(name string) bool { return strings.HasSuffix(name, ".rego") && (withTests || !isTestFile(name)) },
		Other: func(rel, shown string) (hcl.Diagnostics, error) {
			if !isDataFile(path.Base(rel)) { // the config files are not data
				return nil, nil
			}
			b, err := fs.ReadFile(fsys, rel)
			if err != nil {
				return nil, err
			}
			return l.addData(shown, path.Dir(rel), b), nil
		},
	}.Load()
	for _, f := range files {
		l.modules = append(l.modules, &moduleFile{mod: f.Module, file: f.Shown, rel: f.Rel, src: src})
	}
	return append(diags, moreDiags...)
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
		m, err := regokit.ParseFile(display, b, ast.RegoUndefined)
		if err != nil {
			return regokit.ErrorDiags("Invalid policy file", err)
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
