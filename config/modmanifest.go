package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// ModuleRecord is one entry of modules.json, the manifest of installed
// modules that `init` writes under the data directory. The field names
// are OpenTofu's, so either tool reads the other's installation.
type ModuleRecord struct {
	// Key is the module path joined with dots ("" for the root module).
	Key string `json:"Key"`
	// Source is the normalised source address the module was installed
	// from; a change of the configured source means re-running init.
	Source string `json:"Source"`
	// Version is the selected registry version, "" for other sources.
	Version string `json:"Version,omitempty"`
	// Dir is the module's directory relative to the working directory,
	// with forward slashes.
	Dir string `json:"Dir"`
}

// ModuleManifest is the whole manifest, by key.
type ModuleManifest map[string]ModuleRecord

type manifestFile struct {
	Modules []ModuleRecord `json:"Modules"`
}

// ParseModuleManifest decodes modules.json.
func ParseModuleManifest(b []byte) (ModuleManifest, error) {
	var f manifestFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("the module manifest is not valid: %v", err)
	}
	m := ModuleManifest{}
	for _, r := range f.Modules {
		if _, dup := m[r.Key]; dup {
			return nil, fmt.Errorf("the module manifest lists the module %q twice", r.Key)
		}
		if r.Dir == "" {
			return nil, fmt.Errorf("the module manifest gives no directory for the module %q", r.Key)
		}
		r.Dir = strings.ReplaceAll(r.Dir, "\\", "/")
		m[r.Key] = r
	}
	return m, nil
}

// ReadModuleManifest reads name (usually ".terraform/modules/modules.json")
// from fsys. A missing file is an empty manifest: nothing is installed.
func ReadModuleManifest(fsys fs.FS, name string) (ModuleManifest, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ModuleManifest{}, nil
		}
		return nil, err
	}
	return ParseModuleManifest(b)
}

// Marshal encodes the manifest as OpenTofu does: compact JSON, records
// sorted by key.
func (m ModuleManifest) Marshal() []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	f := manifestFile{Modules: make([]ModuleRecord, 0, len(keys))}
	for _, k := range keys {
		f.Modules = append(f.Modules, m[k])
	}
	b, _ := json.Marshal(f) // cannot fail: strings only
	return b
}

// ModuleKey is the manifest key of a module path.
func ModuleKey(p []string) string { return strings.Join(p, ".") }

// installedDir finds a non-local module call's directory in the manifest,
// relative to the directory the configuration is loaded from, or absolute
// when the data directory was given as an absolute path.
func (m ModuleManifest) installedDir(root string, key string) (string, bool) {
	r, ok := m[key]
	if !ok {
		return "", false
	}
	if isAbsDir(r.Dir) {
		return path.Clean(r.Dir), true
	}
	d := path.Join(root, r.Dir)
	if !fs.ValidPath(d) {
		return "", false
	}
	return d, true
}
