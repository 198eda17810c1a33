package modinstall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/internal/versionparse"
)

// Options are the settings of one installation.
type Options struct {
	// Upgrade re-resolves every remote module: registry versions are
	// chosen again and packages fetched again even when installed ones
	// still match.
	Upgrade bool
	// DataDir replaces ".terraform" (TF_DATA_DIR): relative to the root
	// configuration directory, or absolute, in which case the manifest
	// records absolute directories, as OpenTofu's does.
	DataDir string
	// HTTPClient is used for registry and archive requests; nil means
	// http.DefaultClient. Tests pass an httptest TLS server's client.
	HTTPClient *http.Client
	// Token returns the bearer token for a host, or "": pass
	// cliconfig.Config.Token so TF_TOKEN_<host> and credentials blocks
	// apply to module registries and https archives alike.
	Token func(host string) string
	// HostServices are service discovery answers from host blocks of the
	// CLI configuration, used instead of asking the host.
	HostServices map[string]map[string]string
	// Progress, when set, is told about each module init shows, in
	// OpenTofu's order (depth first, calls by name): a line goes out as
	// soon as every line before it in that order has.
	Progress func(Event)
	// Static gives the root module's variable values and the workspace
	// that module sources and versions may use.
	Static config.StaticInputs
	// RootCallsInstalled: see config.LoadOptions; for ManifestMatches.
	RootCallsInstalled bool
	// MaxArchiveBytes bounds a module archive, downloaded and unpacked;
	// 0 means DefaultMaxArchiveBytes.
	MaxArchiveBytes int64
}

// EventKind says what an Event reports.
type EventKind int

const (
	// EventDownloading: a package was fetched for Key; Source is the
	// package's address (without //subdir), Version the registry's.
	EventDownloading EventKind = iota
	// EventInstalled: Key was newly installed in Dir. Modules kept as
	// they were installed before have no event.
	EventInstalled
)

// Event is one line of init's module output.
type Event struct {
	Kind    EventKind
	Key     string
	Source  string
	Version string
	Dir     string
}

// String is the line init prints.
func (e Event) String() string {
	if e.Kind == EventDownloading {
		src := e.Source
		if e.Version != "" {
			src += " " + e.Version
		}
		return fmt.Sprintf("Downloading %s for %s...", src, e.Key)
	}
	if e.Dir == "" {
		return "- " + e.Key // init -from-module's lines
	}
	return fmt.Sprintf("- %s in %s", e.Key, e.Dir)
}

func dataDir(o *Options) string {
	if o.DataDir != "" {
		return o.DataDir
	}
	return ".terraform"
}

// ManifestPath is the manifest's path relative to the root directory.
func ManifestPath(o Options) string {
	return filepath.Join(dataDir(&o), "modules", "modules.json")
}

// installer holds the state of one Install or ManifestMatches walk.
type installer struct {
	opts    Options
	root    string // root configuration directory on disk
	data    string // data directory as written in manifest Dirs (slashes)
	old     config.ModuleManifest
	stage   string // new modules directory being built; "" when checking
	check   bool   // only compare against the manifest
	client  *client
	mu      sync.Mutex
	fetched map[string]*fetchResult // package identity → fetch
	records config.ModuleManifest
	prog    *progress
}

type fetchResult struct {
	once sync.Once
	dir  string
	err  error
}

// node is a module directory whose calls are still to be walked.
type node struct {
	path    []string
	disk    string // where its files are read from now
	dir     string // its manifest Dir
	pkgDisk string // root of the remote package holding it, "" in the root tree
	pkgDir  string
	// parentMod and call are the calling module and its module block,
	// nil for the root: a child's variables come from the call.
	parentMod *config.Module
	call      *config.ModuleCall
	pkgAddr   string // the package's address, for errors
}

// Install walks the module tree of the configuration in rootDir and
// installs every remote module it calls into the data directory's
// modules/, writing modules.json. Installed packages whose manifest
// record still matches the configuration are kept without asking the
// network, unless opts.Upgrade. The new modules directory is built beside
// the old one and swapped in at the end, so an error or a cancelled ctx
// leaves the previous installation as it was.
func Install(ctx context.Context, rootDir string, opts Options) (config.ModuleManifest, hcl.Diagnostics) {
	in, diags := newInstaller(rootDir, opts)
	if diags.HasErrors() {
		return nil, diags
	}
	dataAbs := in.onDisk(in.data)
	if err := os.MkdirAll(dataAbs, 0o755); err != nil {
		return nil, hcl.Diagnostics{errDiag("Cannot create the data directory", err.Error(), nil)}
	}
	stage, err := os.MkdirTemp(dataAbs, "modules-new-")
	if err != nil {
		return nil, hcl.Diagnostics{errDiag("Cannot create the modules directory", err.Error(), nil)}
	}
	defer os.RemoveAll(stage) // gone after the swap; removes it on failure
	in.stage = stage
	defer in.prog.finish()
	diags = append(diags, in.walk(ctx)...)
	if diags.HasErrors() {
		return nil, diags
	}
	if err := ctx.Err(); err != nil {
		return nil, append(diags, errDiag("Module installation interrupted", "The installation was cancelled; the modules installed before are unchanged.", nil))
	}
	os.RemoveAll(filepath.Join(stage, ".fetch"))
	if err := os.WriteFile(filepath.Join(stage, "modules.json"), in.records.Marshal(), 0o644); err != nil {
		return nil, append(diags, errDiag("Cannot write the module manifest", err.Error(), nil))
	}
	if err := swapDir(stage, filepath.Join(dataAbs, "modules")); err != nil {
		return nil, append(diags, errDiag("Cannot install modules", err.Error(), nil))
	}
	return in.records, diags
}

// ManifestMatches checks, without the network, that every module the
// configuration in rootDir calls is installed as the manifest records and
// still matches its source and version constraint. Plan and apply call
// it to tell the user to run init.
func ManifestMatches(rootDir string, opts Options) hcl.Diagnostics {
	in, diags := newInstaller(rootDir, opts)
	if diags.HasErrors() {
		return diags
	}
	in.check = true
	in.opts.Upgrade = false
	in.prog = newProgress(nil) // checking shows nothing
	return append(diags, in.walk(context.Background())...)
}

func newInstaller(rootDir string, opts Options) (*installer, hcl.Diagnostics) {
	in := &installer{
		opts: opts, root: rootDir, data: filepath.ToSlash(dataDir(&opts)),
		client: newClient(&opts), fetched: map[string]*fetchResult{}, records: config.ModuleManifest{},
		prog: newProgress(opts.Progress),
	}
	old := config.ModuleManifest{}
	b, err := os.ReadFile(in.onDisk(path.Join(in.data, "modules", "modules.json")))
	if err == nil {
		old, err = config.ParseModuleManifest(b)
	} else if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err != nil {
		if opts.Upgrade {
			old = config.ModuleManifest{}
		} else {
			return nil, hcl.Diagnostics{errDiag("Invalid module manifest", fmt.Sprintf("%s: %v. Run \"tenet init -upgrade\" to install the modules again.", ManifestPath(opts), err), nil)}
		}
	}
	in.old = old
	return in, nil
}

// walk visits the tree level by level; the remote packages of one level
// are fetched in parallel.
func (in *installer) walk(ctx context.Context) hcl.Diagnostics {
	in.records[""] = config.ModuleRecord{Key: "", Source: "", Dir: "."}
	return in.walkFrom(ctx, []node{{disk: in.root, dir: "."}})
}

// walkFrom walks the subtrees of the given modules, level by level.
func (in *installer) walkFrom(ctx context.Context, level []node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for depth := len(level[0].path); len(level) > 0; depth++ {
		if depth > 32 {
			return append(diags, errDiag("Module nesting too deep", "Modules are nested more than 32 levels deep; module sources probably call each other in a cycle.", nil))
		}
		type result struct {
			child *node
			diags hcl.Diagnostics
		}
		var jobs []func() result
		for _, n := range level {
			mod, calls, d := moduleCalls(n, in.opts.Static)
			diags = append(diags, d...)
			if in.check && mod != nil && (len(n.path) > 0 || in.opts.RootCallsInstalled) {
				diags = append(diags, in.uncomputed(n, mod)...)
			}
			keys := make([]string, len(calls))
			for i, c := range calls {
				key := config.ModuleKey(append(append([]string{}, n.path...), c.name))
				keys[i] = key
				jobs = append(jobs, func() result {
					child, d := in.installCall(ctx, n, c)
					if child != nil {
						child.parentMod, child.call = mod, c.mc
					}
					in.prog.callDone(key)
					return result{child, d}
				})
			}
			in.prog.callsRead(config.ModuleKey(n.path), keys)
		}
		results := make([]result, len(jobs))
		var wg sync.WaitGroup
		sem := make(chan struct{}, 4)
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				results[i] = j()
			}()
		}
		wg.Wait()
		level = nil
		for _, r := range results {
			diags = append(diags, r.diags...)
			if r.child != nil {
				level = append(level, *r.child)
			}
		}
		if diags.HasErrors() {
			return diags
		}
	}
	return diags
}

// onDisk turns a manifest Dir into a path: relative ones are relative to
// the root directory; an absolute TF_DATA_DIR gives absolute ones.
func (in *installer) onDisk(dir string) string {
	d := filepath.FromSlash(dir)
	if filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(in.root, d)
}

func (in *installer) dirExists(dir string) bool {
	fi, err := os.Stat(in.onDisk(dir))
	return err == nil && fi.IsDir()
}

func errDiag(summary, detail string, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject}
}

func (in *installer) record(r config.ModuleRecord) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.records[r.Key] = r
}

// installCall handles one module block of parent and returns the child
// to walk next.
func (in *installer) installCall(ctx context.Context, parent node, c call) (*node, hcl.Diagnostics) {
	p := append(append([]string{}, parent.path...), c.name)
	key := config.ModuleKey(p)
	src, err := ParseSource(c.source)
	if err != nil {
		summary := "Invalid module source"
		var unsup ErrUnsupported
		var relative ErrMaybeRelative
		switch {
		case errors.As(err, &unsup):
			summary = "Unsupported module source"
		case errors.As(err, &relative):
			summary = "Invalid module source address"
		}
		return nil, hcl.Diagnostics{errDiag(summary, err.Error(), c.sourceRange.Ptr())}
	}
	if c.versionRange != nil && src.Kind != SourceRegistry {
		return nil, hcl.Diagnostics{errDiag("Invalid argument \"version\"", "Only module registry sources accept a version constraint. Remove the version argument, or for git sources pin a tag with ?ref= in the source.", c.versionRange)}
	}
	if src.Kind == SourceLocal {
		return in.installLocal(parent, c, src, p, key)
	}
	var constraint constraints.IntersectionSpec
	if src.Kind == SourceRegistry && strings.TrimSpace(c.version) != "" {
		constraint, err = versionparse.Constraints(c.version)
		if err != nil {
			return nil, hcl.Diagnostics{errDiag("Invalid version constraint", fmt.Sprintf("%q is not a version constraint: %v. Write one such as \"~> 1.2\" or \">= 1.0, < 2.0\".", c.version, err), c.versionRange)}
		}
	}
	keyDir := path.Join(in.data, "modules", key)
	dir := keyDir
	if src.Subdir != "" {
		dir = path.Join(keyDir, src.Subdir)
	}
	child := &node{path: p, dir: dir, pkgDir: keyDir, pkgAddr: src.PackageAddr()}
	if old, ok := in.reusable(key, src, constraint); ok && !in.opts.Upgrade {
		// The recorded Dir may hold a subdirectory the registry chose.
		oldPkg := in.onDisk(keyDir)
		sub := filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(old.Dir, keyDir), "/"))
		child.dir = old.Dir
		if in.check {
			child.disk, child.pkgDisk = filepath.Join(oldPkg, sub), oldPkg
		} else {
			newPkg := filepath.Join(in.stage, key)
			if err := copyTree(oldPkg, newPkg, nil); err != nil {
				return nil, hcl.Diagnostics{errDiag("Cannot keep the installed module", err.Error(), c.sourceRange.Ptr())}
			}
			child.disk, child.pkgDisk = filepath.Join(newPkg, sub), newPkg
		}
		// Kept as installed: OpenTofu says nothing about it, and neither
		// do we.
		in.record(old)
		return child, nil
	}
	if in.check {
		return nil, in.notInstalled(key, src, c)
	}
	fetchSrc, version := src, ""
	if src.Kind == SourceRegistry {
		v, err := in.client.selectVersion(ctx, src, c.version)
		if err != nil {
			return nil, hcl.Diagnostics{errDiag(registrySummary(err), err.Error(), versionOrSource(c))}
		}
		version = v.String()
		loc, err := in.client.downloadLocation(ctx, src, v)
		if err != nil {
			return nil, hcl.Diagnostics{errDiag("Invalid response from remote module registry", err.Error(), c.sourceRange.Ptr())}
		}
		// The registry's location may itself name a subdirectory; the
		// call's subdirectory is inside that.
		fetchSrc = loc
		if src.Subdir != "" {
			fetchSrc.Subdir = path.Join(loc.Subdir, src.Subdir)
		}
		dir = keyDir
		if fetchSrc.Subdir != "" {
			dir = path.Join(keyDir, fetchSrc.Subdir)
		}
		child.dir = dir
	}
	in.prog.add(key, Event{Kind: EventDownloading, Key: key, Source: src.PackageAddr(), Version: version})
	pkgID := fetchSrc.PackageAddr()
	fetchedDir, err := in.fetchOnce(ctx, pkgID, fetchSrc)
	if err != nil {
		if ctx.Err() != nil {
			return nil, hcl.Diagnostics{errDiag("Module installation interrupted", "The installation was cancelled; the modules installed before are unchanged.", c.sourceRange.Ptr())}
		}
		return nil, hcl.Diagnostics{errDiag("Failed to download module", fmt.Sprintf("Could not download %s for module %q: %v", redactSSHKey(src.String()), key, err), c.sourceRange.Ptr())}
	}
	newPkg := filepath.Join(in.stage, key)
	if err := copyTree(fetchedDir, newPkg, nil); err != nil {
		return nil, hcl.Diagnostics{errDiag("Cannot install module", err.Error(), c.sourceRange.Ptr())}
	}
	child.disk, child.pkgDisk = filepath.Join(newPkg, filepath.FromSlash(fetchSrc.Subdir)), newPkg
	if fi, err := os.Stat(child.disk); err != nil || !fi.IsDir() {
		return nil, hcl.Diagnostics{errDiag("Module subdirectory not found", fmt.Sprintf("The package %s has no directory %q. Check the //subdirectory part of the source.", redactSSHKey(pkgID), fetchSrc.Subdir), c.sourceRange.Ptr())}
	}
	in.record(config.ModuleRecord{Key: key, Source: src.String(), Version: version, Dir: dir})
	in.prog.add(key, Event{Kind: EventInstalled, Key: key, Source: src.String(), Version: version, Dir: dir})
	return child, nil
}

func versionOrSource(c call) *hcl.Range {
	if c.versionRange != nil {
		return c.versionRange
	}
	return c.sourceRange.Ptr()
}

func registrySummary(err error) string {
	if strings.Contains(err.Error(), "no version of") {
		return "Unresolvable module version constraint"
	}
	if strings.Contains(err.Error(), "not valid") {
		return "Invalid response from remote module registry"
	}
	return "Error accessing remote module registry"
}

// fetchOnce fetches each distinct package once per installation, however
// many calls share it.
func (in *installer) fetchOnce(ctx context.Context, id string, s Source) (string, error) {
	in.mu.Lock()
	f := in.fetched[id]
	if f == nil {
		f = &fetchResult{dir: filepath.Join(in.stage, ".fetch", fmt.Sprint(len(in.fetched)))}
		in.fetched[id] = f
	}
	in.mu.Unlock()
	f.once.Do(func() {
		if err := os.MkdirAll(filepath.Dir(f.dir), 0o755); err != nil {
			f.err = err
			return
		}
		f.err = in.fetchPackage(ctx, s, f.dir)
	})
	return f.dir, f.err
}

// reusable reports whether the old manifest's record for key can stand:
// same source, a version the constraint still allows, files present.
func (in *installer) reusable(key string, src Source, c constraints.IntersectionSpec) (config.ModuleRecord, bool) {
	r, ok := in.old[key]
	if !ok || r.Source != src.String() {
		return r, false
	}
	if src.Kind == SourceRegistry {
		v, err := versionparse.Version(r.Version)
		if err != nil {
			return r, false
		}
		allowed := versions.Released
		if c != nil {
			allowed = versions.MeetingConstraints(c)
		}
		if !allowed.Has(v) {
			return r, false
		}
	}
	keyDir := path.Join(in.data, "modules", key)
	if r.Dir != keyDir && !strings.HasPrefix(r.Dir, keyDir+"/") {
		return r, false
	}
	if fi, err := os.Stat(in.onDisk(r.Dir)); err != nil || !fi.IsDir() {
		return r, false
	}
	return r, true
}

// uncomputed reports, as OpenTofu does when checking, the calls of mod
// whose source could not be computed and that init did not install.
func (in *installer) uncomputed(n node, mod *config.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(mod.ModuleCalls)) {
		mc := mod.ModuleCalls[name]
		if mc.SourceAddr != "" || mc.SourceExpr == nil {
			continue
		}
		if _, ok := in.old[config.ModuleKey(append(append([]string{}, n.path...), name))]; !ok {
			diags = append(diags, errDiag("Module not installed", "This module is not yet installed. Run \"tenet init\" to install all modules required by this configuration.", mc.DeclRange.Ptr()))
		}
	}
	return diags
}

// notInstalled says why a module needs init, in OpenTofu's words.
func (in *installer) notInstalled(key string, src Source, c call) hcl.Diagnostics {
	r, ok := in.old[key]
	switch {
	case !ok:
		return hcl.Diagnostics{errDiag("Module not installed", "This module is not yet installed. Run \"tenet init\" to install all modules required by this configuration.", c.sourceRange.Ptr())}
	case r.Source != src.String():
		return hcl.Diagnostics{config.SourceChanged(r.Source, src.String(), c.sourceRange)}
	case src.Kind == SourceRegistry && r.Version != "":
		return hcl.Diagnostics{errDiag("Module version requirements have changed", fmt.Sprintf("The version requirements have changed since this module was installed and the installed version (%s) is no longer acceptable. Run \"tenet init\" to install all modules required by this configuration.", r.Version), c.sourceRange.Ptr())}
	}
	return hcl.Diagnostics{errDiag("Module not installed", "This module's directory is missing. Run \"tenet init\" to install all modules required by this configuration.", c.sourceRange.Ptr())}
}

// installLocal records a local call. In the root tree it is a directory
// of the configuration; inside a remote package it must stay within that
// package, since that is all that was fetched.
func (in *installer) installLocal(parent node, c call, src Source, p []string, key string) (*node, hcl.Diagnostics) {
	dir := path.Join(parent.dir, src.Path)
	disk := filepath.Join(parent.disk, filepath.FromSlash(src.Path))
	if parent.pkgDisk != "" {
		rel, err := filepath.Rel(parent.pkgDisk, disk)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			addr := "module." + strings.Join(p, ".module.")
			return nil, hcl.Diagnostics{errDiag("Local module path escapes module package", fmt.Sprintf("The given source directory for %s would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.", addr, parent.pkgAddr), nil)}
		}
	}
	if fi, err := os.Stat(disk); err != nil || !fi.IsDir() {
		return nil, hcl.Diagnostics{errDiag("Unreadable module directory", fmt.Sprintf("The module directory %s does not exist or cannot be read. Check the module's source path.", dir), c.sourceRange.Ptr())}
	}
	rec := config.ModuleRecord{Key: key, Source: normalLocal(src.Path), Dir: dir}
	if in.check {
		// Local modules are recorded too, and must be where init saw them.
		switch old, ok := in.old[key]; {
		case !ok:
			return nil, hcl.Diagnostics{errDiag("Module not installed", "This module is not yet installed. Run \"tenet init\" to install all modules required by this configuration.", c.declRange.Ptr())}
		case old.Source != rec.Source:
			return nil, hcl.Diagnostics{config.SourceChanged(old.Source, rec.Source, c.sourceRange)}
		}
	}
	// A local module already recorded from the same source is kept as
	// recorded, without a line, while its recorded directory exists, as
	// OpenTofu keeps it (init -from-module records directories elsewhere),
	// unless everything is being installed again.
	if old, ok := in.old[key]; ok && !in.opts.Upgrade && old.Source == rec.Source && in.dirExists(old.Dir) {
		in.record(old)
	} else {
		in.record(rec)
		in.prog.add(key, Event{Kind: EventInstalled, Key: key, Source: src.Path, Dir: dir})
	}
	return &node{path: p, disk: disk, dir: dir, pkgDisk: parent.pkgDisk, pkgDir: parent.pkgDir, pkgAddr: parent.pkgAddr}, nil
}

// normalLocal is a local path as the manifest records it: cleaned,
// keeping its "./" or "../" start.
func normalLocal(p string) string {
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return c
	}
	if c == "." {
		return "./"
	}
	return "./" + c
}

// swapDir replaces dst by src with renames: the old directory is moved
// aside first, and put back when src cannot be moved in.
func swapDir(src, dst string) error {
	aside := ""
	if _, err := os.Lstat(dst); err == nil {
		aside = dst + ".old"
		os.RemoveAll(aside)
		if err := os.Rename(dst, aside); err != nil {
			return err
		}
	}
	if err := os.Rename(src, dst); err != nil {
		if aside != "" {
			os.Rename(aside, dst)
		}
		return err
	}
	if aside != "" {
		os.RemoveAll(aside)
	}
	return nil
}

// copyTree copies a directory, keeping symbolic links as links and
// leaving out the entries below src whose names skip (if not nil) takes.
func copyTree(src, dst string, skip func(name string) bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != src && skip != nil && skip(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
}
