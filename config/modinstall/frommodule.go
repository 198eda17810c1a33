package modinstall

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/config"
)

// FromModuleDir is where FromModule installs the requested module and its
// descendants before copying them into place, relative to the root
// directory. OpenTofu uses this path whatever the data directory, and the
// manifest it leaves can name directories inside it (see FromModule).
const FromModuleDir = ".terraform/init-from-module"

// fromModuleCall is the name of the module call FromModule installs the
// requested module as; its descendants' keys start with it and a dot.
const fromModuleCall = "root"

// fromModuleRange stands for the source of the requested module, which
// comes from the command line rather than a file.
var fromModuleRange = hcl.Range{Filename: "<main configuration>", Start: hcl.InitialPos, End: hcl.InitialPos}

// FromModule is init -from-module: it copies the module at source into
// rootDir, which must hold nothing but a .terraform directory, and
// installs the remote modules that module calls into the data directory,
// writing the manifest. Progress gets a Downloading event per remote
// package the module's descendants need and then an Installed event
// (with no Dir) per descendant, in key order, as OpenTofu reports them.
//
// A local source (".", "./x", "../x" or an absolute path) is a package
// like a remote one: the modules it calls must stay inside its
// directory. The manifest records what OpenTofu records, so a later
// init behaves as it would after OpenTofu's: a local descendant of a
// local source is recorded in the source directory (and kept there), one
// of a remote source in the installation directory, which is removed (so
// init records it again where it now is).
func FromModule(ctx context.Context, rootDir, source string, opts Options) hcl.Diagnostics {
	if d := checkEmptyTarget(rootDir); d != nil {
		return hcl.Diagnostics{d}
	}
	instDir := filepath.Join(rootDir, filepath.FromSlash(FromModuleDir))
	os.RemoveAll(instDir)
	stage := filepath.Join(instDir, ".terraform", "modules")
	if err := os.MkdirAll(stage, 0o755); err != nil {
		return hcl.Diagnostics{errDiag("Failed to create temporary directory", fmt.Sprintf("Failed to create temporary directory %s: %s.", instDir, err), nil)}
	}
	localDir := ""
	if isLocalPath(source) {
		abs, err := filepath.Abs(source)
		if err != nil {
			return hcl.Diagnostics{errDiag("Invalid module source address", fmt.Sprintf("Failed to parse module source address: %s", err), nil)}
		}
		localDir = abs
	}

	inner := opts
	inner.DataDir = "" // the installation's own .terraform, under instDir
	inner.Upgrade = true
	emit := opts.Progress
	inner.Progress = func(e Event) {
		key, ok := strings.CutPrefix(e.Key, fromModuleCall+".")
		if !ok || emit == nil {
			return // the requested module itself is announced by the caller
		}
		if e.Kind == EventDownloading {
			e.Key = key
			emit(e)
		}
	}
	in, diags := newInstaller(instDir, inner)
	if diags.HasErrors() {
		return diags
	}
	in.stage = stage
	in.prog.callsRead("", []string{fromModuleCall})
	rootNode, d := in.fetchRequested(ctx, source, localDir)
	in.prog.callDone(fromModuleCall)
	diags = append(diags, d...)
	if rootNode != nil && !diags.HasErrors() {
		diags = append(diags, in.walkFrom(ctx, []node{*rootNode})...)
	}
	in.prog.finish()
	if diags.HasErrors() {
		return diags
	}
	if err := ctx.Err(); err != nil {
		return append(diags, errDiag("Module installation interrupted", "The installation was cancelled before the module was copied into the working directory.", nil))
	}

	data := filepath.ToSlash(dataDir(&opts))
	modulesDir := filepath.Join(rootDir, filepath.FromSlash(path.Join(data, "modules")))
	if filepath.IsAbs(filepath.FromSlash(data)) {
		modulesDir = filepath.Join(filepath.FromSlash(data), "modules")
	}
	if err := os.MkdirAll(modulesDir, 0o755); err != nil {
		return append(diags, errDiag("Failed to create local modules directory", fmt.Sprintf("Failed to create modules directory %s: %s.", modulesDir, err), nil))
	}
	// Where the requested package's files are recorded: in the source
	// directory for a local one, else where OpenTofu installs it.
	rootPkg := FromModuleDir + "/" + fromModuleCall
	if localDir != "" {
		absRoot, err := filepath.Abs(rootDir)
		if err == nil {
			if rel, err := filepath.Rel(absRoot, localDir); err == nil {
				rootPkg = filepath.ToSlash(rel)
			}
		}
	}
	keys := make([]string, 0, len(in.records))
	for k := range in.records {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := config.ModuleManifest{"": {Key: "", Source: "", Dir: "."}}
	pkgPrefix := ".terraform/modules/"
	for _, key := range keys {
		rec := in.records[key]
		if key == fromModuleCall {
			if err := copyVisible(in.onDisk(rec.Dir), rootDir); err != nil {
				diags = append(diags, errDiag("Failed to copy root module", fmt.Sprintf("Error copying root module %q from %s to %s: %s.", source, in.onDisk(rec.Dir), rootDir, err), nil))
				continue
			}
			diags = append(diags, parentReferences(rootDir, source, localDir != "")...)
			continue
		}
		newKey, ok := strings.CutPrefix(key, fromModuleCall+".")
		if !ok {
			continue
		}
		// The package holding the module: its own when it was fetched,
		// else the nearest ancestor's.
		owner := key
		for {
			if rec.Dir == pkgPrefix+owner || strings.HasPrefix(rec.Dir, pkgPrefix+owner+"/") {
				break
			}
			i := strings.LastIndexByte(owner, '.')
			if i < 0 {
				owner = ""
				break
			}
			owner = owner[:i]
		}
		rest := ""
		if owner != "" {
			rest = strings.TrimPrefix(rec.Dir, pkgPrefix+owner)
		}
		switch {
		case owner == key:
			dst := filepath.Join(modulesDir, newKey)
			os.RemoveAll(dst)
			if err := copyVisible(in.onDisk(pkgPrefix+key), dst); err != nil {
				diags = append(diags, errDiag("Failed to copy descendent module", fmt.Sprintf("Error copying module %q from %s to %s: %s.", newKey, in.onDisk(pkgPrefix+key), rootDir, err), nil))
				continue
			}
			rec.Dir = path.Join(data, "modules", newKey) + rest
		case owner == fromModuleCall:
			rec.Dir = path.Clean(rootPkg + rest)
		case owner != "":
			rec.Dir = path.Join(data, "modules", strings.TrimPrefix(owner, fromModuleCall+".")) + rest
		}
		rec.Key = newKey
		out[newKey] = rec
		if emit != nil {
			emit(Event{Kind: EventInstalled, Key: newKey, Source: rec.Source, Version: rec.Version})
		}
	}
	if err := os.WriteFile(filepath.Join(modulesDir, "modules.json"), out.Marshal(), 0o644); err != nil {
		diags = append(diags, errDiag("Failed to write module manifest", fmt.Sprintf("Error writing module manifest: %s.", err), nil))
	}
	if !diags.HasErrors() {
		os.RemoveAll(instDir)
	}
	return diags
}

// checkEmptyTarget refuses a directory holding anything but .terraform.
func checkEmptyTarget(dir string) *hcl.Diagnostic {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return errDiag("Target directory does not exist", fmt.Sprintf("Cannot initialize non-existent directory %s.", dir), nil)
		}
		return errDiag("Failed to read target directory", fmt.Sprintf("Error reading %s to ensure it is empty: %s.", dir, err), nil)
	}
	for _, e := range entries {
		if e.Name() != ".terraform" {
			return errDiag("Can't populate non-empty directory", fmt.Sprintf("The target directory %s is not empty, so it cannot be initialized with the -from-module=... option.", dir), nil)
		}
	}
	return nil
}

// isLocalPath says a -from-module source names a directory on this
// machine: relative ones are relative to the working directory.
func isLocalPath(s string) bool {
	s = filepath.ToSlash(s)
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || filepath.IsAbs(s)
}

// fetchRequested installs the requested module as the call "root" of the
// installation and returns it to walk.
func (in *installer) fetchRequested(ctx context.Context, source, localDir string) (*node, hcl.Diagnostics) {
	if localDir == "" {
		if _, err := ParseSource(source); err != nil {
			return nil, hcl.Diagnostics{errDiag("Invalid module source address", fmt.Sprintf("Failed to parse module source address: %s", err), nil)}
		}
		return in.installCall(ctx, node{disk: in.root, dir: "."}, call{name: fromModuleCall, source: source, sourceRange: fromModuleRange, declRange: fromModuleRange})
	}
	dir := ".terraform/modules/" + fromModuleCall
	pkg := filepath.Join(in.stage, fromModuleCall)
	url := "file://" + filepath.ToSlash(localDir)
	fail := func(err error) (*node, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{errDiag("Failed to download module", fmt.Sprintf("Could not download module %q (%s:1) source code from %q: error downloading '%s': source path error: %s", fromModuleCall, fromModuleRange.Filename, url, url, err), fromModuleRange.Ptr())}
	}
	fi, err := os.Stat(localDir)
	if err != nil {
		return fail(err)
	}
	if !fi.IsDir() {
		return fail(fmt.Errorf("%s is not a directory", localDir))
	}
	// Without its dot entries: they are not copied into place anyway, and
	// "." holds the installation directory itself.
	if err := copyVisible(localDir, pkg); err != nil {
		return fail(err)
	}
	in.record(config.ModuleRecord{Key: fromModuleCall, Source: url, Dir: dir})
	return &node{path: []string{fromModuleCall}, disk: pkg, dir: dir, pkgDisk: pkg, pkgDir: dir, pkgAddr: url}, nil
}

// parentReferences reports the module calls of the copied root module that
// leave it through "../": in its new place they lead nowhere. For a
// remote package whose call stays inside it, the error names the address
// to write instead.
func parentReferences(rootDir, source string, local bool) hcl.Diagnostics {
	_, calls, _ := moduleCalls(node{disk: rootDir, dir: "."}, config.StaticInputs{})
	var diags hcl.Diagnostics
	for _, c := range calls {
		if !strings.HasPrefix(c.source, "../") {
			continue
		}
		pkg, sub := source, ""
		if !local {
			if p, s, err := splitSubdir(source); err == nil {
				pkg, sub = p, s
			}
		}
		newSub := path.Join(sub, c.source)
		if newSub == ".." || strings.HasPrefix(newSub, "../") {
			continue // leaves the package: loading it reports that
		}
		addr := pkg
		if newSub != "." {
			addr += "//" + newSub
		}
		diags = append(diags, errDiag("Root module references parent directory", fmt.Sprintf("The requested module %q refers to a module via its parent directory. To use this as a new root module this source string must be rewritten as a remote source address, such as %q.", source, addr), nil))
	}
	return diags
}

// copyVisible copies the module directory src into dst without the
// entries whose names start with a dot (.git, .terraform and the like),
// as OpenTofu copies a module into the working directory.
func copyVisible(src, dst string) error {
	src, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return copyTree(src, dst, func(name string) bool { return strings.HasPrefix(name, ".") })
}
