package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tenetplan/tenet/addrs"
)

// Config is a loaded configuration: the root module with its whole tree
// of local child modules.
type Config struct {
	Root *Module
	// Files holds every parsed file by the filename its ranges use, so a
	// diagnostic printer can show source snippets.
	Files map[string]*hcl.File
	// Digest is a hex sha256 over every loaded file's name and bytes; a
	// saved plan records it to refuse applying against changed config.
	Digest string
}

// Descendant returns the module at a static path, or nil if there is none.
func (c *Config) Descendant(p addrs.Module) *Module {
	if c == nil || c.Root == nil {
		return nil
	}
	m := c.Root
	for _, name := range p {
		m = m.Children[name]
		if m == nil {
			return nil
		}
	}
	return m
}

// Modules lists every module of the tree: the root first, then each
// module followed by its descendants, children in name order.
func (c *Config) Modules() []*Module {
	if c == nil || c.Root == nil {
		return nil
	}
	var out []*Module
	var walk func(m *Module)
	walk = func(m *Module) {
		out = append(out, m)
		for _, name := range slices.Sorted(maps.Keys(m.Children)) {
			walk(m.Children[name])
		}
	}
	walk(c.Root)
	return out
}

// maxModuleDepth stops runaway recursion through local module sources that
// call each other.
const maxModuleDepth = 64

type loader struct {
	fsys fs.FS
	// modules is the manifest of installed modules; nil when only local
	// sources may be loaded. root is the directory the manifest's Dir
	// fields are relative to.
	modules ModuleManifest
	root    string
	parser  *hclparse.Parser
	digest  map[string][]byte
	static  StaticInputs
	// rootCalls: LoadOptions.RootCallsInstalled.
	rootCalls bool
}

// LoadOptions are what LoadWith reads besides the files.
type LoadOptions struct {
	// Modules is the manifest of installed modules (see LoadWithModules);
	// nil loads local sources only.
	Modules ModuleManifest
	// Static gives the values early evaluation (module sources and
	// versions) needs.
	Static StaticInputs
	// RootCallsInstalled reports the root module's calls whose source
	// could not be computed as not installed, as OpenTofu's plan, apply,
	// refresh, console and graph do (its validate does not; in child
	// modules both do).
	RootCallsInstalled bool
}

// Load reads the root module in dir of fsys and, recursively, every module
// it calls with a local source. It returns whatever it could decode even
// when there are errors, so callers can still show partial results.
func Load(fsys fs.FS, dir string) (*Config, hcl.Diagnostics) {
	return LoadWithModules(fsys, dir, nil)
}

// LoadWithModules is [Load] that also reads modules with registry and
// remote sources from the directories init installed them in, as listed
// by the manifest (see [ReadModuleManifest]). A call the manifest does
// not list is an error that tells the user to run init.
func LoadWithModules(fsys fs.FS, dir string, installed ModuleManifest) (*Config, hcl.Diagnostics) {
	return LoadWith(fsys, dir, LoadOptions{Modules: installed})
}

// LoadWith is [LoadWithModules] with the values of the root module's
// variables that module sources and versions may use.
func LoadWith(fsys fs.FS, dir string, opts LoadOptions) (*Config, hcl.Diagnostics) {
	dir = cleanDir(dir)
	l := &loader{fsys: fsys, parser: hclparse.NewParser(), digest: map[string][]byte{}, modules: opts.Modules, root: dir, static: opts.Static, rootCalls: opts.RootCallsInstalled}
	root, diags := l.loadModule(dir, addrs.RootModule, nil, nil)
	cfg := &Config{Root: root, Files: l.parser.Files(), Digest: l.sum()}
	diags = append(diags, cfg.validateRemoved()...)
	return cfg, diags
}

// validateRemoved rejects removed blocks whose target is still declared;
// this needs the whole tree, so it runs after loading.
func (c *Config) validateRemoved() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range c.Modules() {
		for _, rm := range m.Removed {
			target := append(append(addrs.Module{}, m.Path...), rm.From.Module...)
			kind, still := "module", "called"
			var exists bool
			if rm.From.Resource != nil {
				kind, still = "resource", "declared"
				mod := c.Descendant(target)
				exists = mod != nil && mod.ManagedResources[rm.From.Resource.String()] != nil
			} else {
				parent := c.Descendant(target.Parent())
				exists = parent != nil && parent.ModuleCalls[target[len(target)-1]] != nil
			}
			if !exists {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Removed %s block still exists", kind),
				Detail:   fmt.Sprintf("This removed block targets %s, which is still %s in the configuration. Remove the %s block, or remove this removed block.", rm.From, still, kind),
				Subject:  rm.From.SourceRange.Ptr(),
			})
		}
	}
	return diags
}

func cleanDir(dir string) string {
	if dir == "" {
		return "."
	}
	return path.Clean(dir)
}

func (l *loader) sum() string {
	names := make([]string, 0, len(l.digest))
	for n := range l.digest {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%d:%s\n%d:", len(n), n, len(l.digest[n]))
		h.Write(l.digest[n])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// loadModule parses one module directory and then its local children.
func (l *loader) loadModule(dir string, p addrs.Module, parent *Module, call *ModuleCall) (*Module, hcl.Diagnostics) {
	files, diags := l.parseDir(dir, call)
	m := newModule(p, dir, parent)
	for _, f := range files {
		diags = append(diags, m.decodeFile(f.file, f.override)...)
	}
	if !p.IsRoot() && len(m.Import) > 0 {
		for _, imp := range m.Import {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Import blocks are only allowed in the root module",
				Detail:   "Move this import block to the root module and address the resource through its module path, as in module.name.type.name.",
				Subject:  imp.DeclRange.Ptr(),
			})
		}
		m.Import = nil
	}
	diags = append(diags, m.validate()...)
	rootDir := dir
	for r := m; r.Parent != nil; r = r.Parent {
		rootDir = r.Parent.SourceDir
	}
	m.static = newStaticEval(m, rootDir, l.static, call)
	diags = append(diags, m.decodeStaticFields()...)

	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		mc := m.ModuleCalls[name]
		childDir, ok, d := l.childDir(dir, p.Child(name), mc)
		diags = append(diags, d...)
		if !ok {
			continue
		}
		if len(p) >= maxModuleDepth {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module nesting too deep",
				Detail:   fmt.Sprintf("Modules are nested more than %d levels deep; local module sources probably call each other in a cycle.", maxModuleDepth),
				Subject:  mc.SourceAddrRange.Ptr(),
			})
			continue
		}
		child, d := l.loadModule(childDir, p.Child(name), m, mc)
		diags = append(diags, d...)
		diags = append(diags, checkModuleInputs(mc, child)...)
		m.Children[name] = child
	}
	return m, diags
}

// childDir finds a called module's directory: local paths relative to
// the caller, anything else where the manifest says it was installed.
func (l *loader) childDir(dir string, p addrs.Module, mc *ModuleCall) (string, bool, hcl.Diagnostics) {
	src := mc.SourceAddr
	rec, recorded := l.modules[ModuleKey(p)]
	switch {
	case l.modules != nil && src == "" && !recorded && (len(p) > 1 || l.rootCalls):
		// As OpenTofu: a call whose source could not be computed was
		// not installed either. (OpenTofu does not follow a root
		// module with errors into its children, so says nothing there.)
		return "", false, hcl.Diagnostics{notInstalled(mc.DeclRange)}
	case l.modules != nil && recorded && isLocalSource(src) && rec.Source != normalLocalSource(src):
		return "", false, hcl.Diagnostics{SourceChanged(rec.Source, normalLocalSource(src), mc.SourceAddrRange)}
	}
	if l.modules == nil || src == "" || isLocalSource(src) {
		return localSourceDir(dir, mc)
	}
	if d, ok := l.modules.installedDir(l.root, ModuleKey(p)); ok {
		return d, true, nil
	}
	return "", false, hcl.Diagnostics{notInstalled(mc.DeclRange)}
}

func notInstalled(rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Module not installed",
		Detail:   "This module is not yet installed. Run \"tenet init\" to install all modules required by this configuration.",
		Subject:  rng.Ptr(),
	}
}

// SourceChanged is the error for a module call whose source is not the
// one init installed the module from.
func SourceChanged(installed, now string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Module source has changed",
		Detail:   fmt.Sprintf("The source address was changed from %q to %q since this module was installed. Run \"tenet init\" to install all modules required by this configuration.", installed, now),
		Subject:  rng.Ptr(),
	}
}

func isLocalSource(src string) bool {
	return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../")
}

// normalLocalSource is a local source as the manifest records it:
// cleaned, keeping its "./" or "../" start.
func normalLocalSource(p string) string {
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return c
	}
	if c == "." {
		return "./"
	}
	return "./" + c
}

// isAbsDir says dir is an absolute path: a module installed under an
// absolute data directory (TF_DATA_DIR=/…), which the manifest records as
// such, lies outside the fs.FS the configuration is loaded from.
func isAbsDir(dir string) bool {
	return path.IsAbs(dir) || filepath.IsAbs(filepath.FromSlash(dir))
}

// readDir and readFile read through the loader's fs.FS, except for
// absolute paths, which only an installed module's directory can be and
// which are read from the operating system.
func (l *loader) readDir(dir string) ([]fs.DirEntry, error) {
	if isAbsDir(dir) {
		return os.ReadDir(filepath.FromSlash(dir))
	}
	return fs.ReadDir(l.fsys, dir)
}

func (l *loader) readFile(name string) ([]byte, error) {
	if isAbsDir(name) {
		return os.ReadFile(filepath.FromSlash(name))
	}
	return fs.ReadFile(l.fsys, name)
}

// localSourceDir resolves a module call's source against the calling
// module's directory. Only local paths are supported.
func localSourceDir(dir string, mc *ModuleCall) (string, bool, hcl.Diagnostics) {
	src := mc.SourceAddr
	if src == "" {
		return "", false, nil // already reported as missing
	}
	if !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
		return "", false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Module source not supported",
			Detail:   fmt.Sprintf("The module source %q is not a local path. Only local module sources such as \"./modules/name\" are supported; registry and remote sources cannot be installed yet.", src),
			Subject:  mc.SourceAddrRange.Ptr(),
		}}
	}
	joined := path.Join(dir, src)
	if isAbsDir(dir) {
		// Inside an installed package; modinstall has checked that the
		// path stays within it.
		return joined, true, nil
	}
	if !fs.ValidPath(joined) {
		return "", false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Module source outside the working directory",
			Detail:   fmt.Sprintf("The module source %q leads outside the directory being loaded (%s), which cannot be read.", src, joined),
			Subject:  mc.SourceAddrRange.Ptr(),
		}}
	}
	return joined, true, nil
}

type parsedFile struct {
	file     *hcl.File
	override bool
}

// parseDir parses every configuration file of a module directory, primary
// files first and override files after them, each group in name order.
func (l *loader) parseDir(dir string, call *ModuleCall) ([]parsedFile, hcl.Diagnostics) {
	return l.parseDirNamed(dir, dir, call)
}

// parseDirNamed is parseDir that names the files of dir shown/NAME.
func (l *loader) parseDirNamed(dir, shown string, call *ModuleCall) ([]parsedFile, hcl.Diagnostics) {
	entries, err := l.readDir(dir)
	if err != nil {
		d := &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module directory",
			Detail:   fmt.Sprintf("Module directory %s does not exist or cannot be read.", dir),
		}
		if call != nil {
			d.Subject = call.SourceAddrRange.Ptr()
		}
		return nil, hcl.Diagnostics{d}
	}
	var primary, overrides []parsedFile
	var diags hcl.Diagnostics
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	for _, name := range ConfigFiles(names) {
		isJSON := strings.HasSuffix(name, ".json")
		filename := path.Join(shown, name)
		src, err := l.readFile(path.Join(dir, name))
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to read file",
				Detail:   fmt.Sprintf("The configuration file %q could not be read: %s.", filename, err),
			})
			continue
		}
		l.digest[filename] = src
		if d := CheckNesting(src, filename, isJSON); d.HasErrors() {
			diags = append(diags, d...)
			continue
		}
		var f *hcl.File
		var d hcl.Diagnostics
		if isJSON {
			f, d = l.parser.ParseJSON(src, filename)
		} else {
			f, d = l.parser.ParseHCL(src, filename)
		}
		diags = append(diags, d...)
		if f == nil || f.Body == nil {
			continue
		}
		pf := parsedFile{file: f, override: IsOverrideFile(name)}
		if pf.override {
			overrides = append(overrides, pf)
		} else {
			primary = append(primary, pf)
		}
	}
	return append(primary, overrides...), diags
}

// checkModuleInputs matches a call's arguments with the variables the
// called module declares.
func checkModuleInputs(mc *ModuleCall, child *Module) hcl.Diagnostics {
	attrs, diags := mc.Config.JustAttributes()
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		if _, ok := child.Variables[name]; !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected here: module %q declares no variable of that name.", name, mc.Name),
				Subject:  attrs[name].NameRange.Ptr(),
			})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(child.Variables)) {
		if _, ok := attrs[name]; !ok && child.Variables[name].Required() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The argument %q is required, but no definition was found.", name),
				Subject:  mc.DeclRange.Ptr(),
			})
		}
	}
	return diags
}
