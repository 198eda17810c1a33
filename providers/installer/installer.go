package installer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/lockfile"
)

// Requirements maps each provider a configuration needs to its merged
// version constraints.
type Requirements map[addrs.Provider]getproviders.Constraints

// Events lets the CLI print progress; every field may be nil.
type Events struct {
	// FindingVersions: "- Finding hashicorp/time versions matching "~> 0.14"..."
	FindingVersions func(p addrs.Provider, c getproviders.Constraints)
	// ReusingLocked: "- Reusing previous version of hashicorp/time from the dependency lock file"
	ReusingLocked func(p addrs.Provider, v getproviders.Version)
	// AlreadyInstalled: "- Using previously-installed hashicorp/time v0.14.2"
	AlreadyInstalled func(p addrs.Provider, v getproviders.Version)
	// LinkedFromCache: "- Using hashicorp/time v0.14.2 from the shared cache directory"
	LinkedFromCache func(p addrs.Provider, v getproviders.Version)
	// Installing: "- Installing hashicorp/time v0.14.2..."
	Installing func(p addrs.Provider, v getproviders.Version)
	// Installed: "- Installed hashicorp/time v0.14.2 (signed, key ID …)"
	Installed func(p addrs.Provider, v getproviders.Version, auth *getproviders.AuthResult)
}

// Options are the per-run choices.
type Options struct {
	// Upgrade ignores the locked versions (but not the constraints), as
	// init -upgrade does.
	Upgrade bool
	Events  Events
}

// Selection is one provider ready to launch.
type Selection struct {
	Provider   addrs.Provider
	Version    getproviders.Version // zero for a dev override
	Dir        string
	Executable string
	// DevOverride says the executable comes from dev_overrides: no
	// version, no lock check.
	DevOverride bool
}

// Installer installs packages for one working directory.
type Installer struct {
	cfg      getproviders.Config
	dataDir  string
	platform getproviders.Platform
	methods  []method
	// warnings collects registry warnings during EnsureProviders.
	warnings hcl.Diagnostics
}

type method struct {
	getproviders.Method
	source getproviders.Source
}

// New returns an installer for the working directory whose data directory
// (".terraform", or TF_DATA_DIR) is dataDir.
func New(cfg getproviders.Config, dataDir string) (*Installer, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	inst := &Installer{cfg: cfg, dataDir: dataDir, platform: cfg.Platform}
	if inst.platform == (getproviders.Platform{}) {
		inst.platform = getproviders.CurrentPlatform
	}
	var registry *getproviders.RegistrySource
	for _, m := range cfg.Methods {
		var src getproviders.Source
		switch m.Kind {
		case getproviders.MethodDirect:
			if registry == nil {
				registry = getproviders.NewRegistrySource(&inst.cfg)
			}
			src = registry
		case getproviders.MethodFilesystemMirror:
			src = getproviders.FilesystemMirror{Dir: m.Location}
		case getproviders.MethodNetworkMirror:
			nm, err := getproviders.NewNetworkMirror(m.Location, &inst.cfg)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid network mirror", Detail: err.Error() + ".", Subject: rangePtr(m.DeclRange)})
				continue
			}
			src = nm
		}
		inst.methods = append(inst.methods, method{Method: m, source: src})
	}
	return inst, diags
}

// ProvidersDir is where packages are installed: DATADIR/providers.
func ProvidersDir(dataDir string) string { return filepath.Join(dataDir, "providers") }

// PackageDir is a package's directory under a base in the unpacked layout.
func PackageDir(base string, p addrs.Provider, v getproviders.Version, platform getproviders.Platform) string {
	return filepath.Join(base, p.Hostname, p.Namespace, p.Type, v.String(), platform.String())
}

// EnsureProviders makes every required provider installed and returns the
// selections and the lock file's new content. Providers that are built
// in are skipped; providers under dev_overrides are selected from their
// directory and left out of the lock file, with a warning.
func (i *Installer) EnsureProviders(ctx context.Context, reqs Requirements, locks *lockfile.Locks, opts Options) (map[addrs.Provider]Selection, *lockfile.Locks, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	sel := map[addrs.Provider]Selection{}
	newLocks := lockfile.New()
	providers := make([]addrs.Provider, 0, len(reqs))
	for p := range reqs {
		providers = append(providers, p)
	}
	slices.SortFunc(providers, func(a, b addrs.Provider) int { return strings.Compare(a.String(), b.String()) })

	var overridden []string
	for _, p := range providers {
		if p.IsBuiltIn() {
			continue
		}
		if dir, ok := i.cfg.DevOverrides[p]; ok {
			s, d := devOverride(p, dir)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			sel[p] = s
			overridden = append(overridden, fmt.Sprintf("%s in %s", p.ForDisplay(), dir))
			// The lock entry is kept as it was: the override is for this
			// machine only and must not change the file others use.
			if old := locks.Provider(p); old != nil {
				newLocks.SetProvider(p, old.Version, old.Constraints, old.Hashes)
			}
			continue
		}
		i.warnings = nil
		s, entry, d := i.ensureOne(ctx, p, reqs[p], locks.Provider(p), opts)
		diags = append(diags, i.warnings...)
		diags = append(diags, d...)
		if d.HasErrors() {
			// Keep the old entry, so a failed init does not lose it.
			if old := locks.Provider(p); old != nil {
				newLocks.SetProvider(p, old.Version, old.Constraints, old.Hashes)
			}
			continue
		}
		sel[p] = s
		newLocks.SetProvider(p, entry.Version, entry.Constraints, entry.Hashes)
	}
	if len(overridden) > 0 {
		diags = append(diags, DevOverridesWarning(overridden))
	}
	return sel, newLocks, diags
}

// DevOverridesWarning is the warning printed at every run while
// dev_overrides are in effect; Installed returns it too.
func DevOverridesWarning(overridden []string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Provider development overrides are in effect",
		Detail: "The following providers come from the dev_overrides of the CLI configuration, with no version or lock file checks:\n  - " +
			strings.Join(overridden, "\n  - ") +
			"\nRemove the overrides once development is done, so that published releases are used.",
	}
}

func devOverride(p addrs.Provider, dir string) (Selection, hcl.Diagnostics) {
	exe, ok := getproviders.FindExecutable(dir, p.Type)
	if !ok {
		return Selection{}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Provider development override has no executable",
			Detail:   fmt.Sprintf("dev_overrides sends %s to %s, which has no file named terraform-provider-%s. Build the provider into that directory or fix the override.", p.ForDisplay(), dir, p.Type),
		}}
	}
	return Selection{Provider: p, Dir: dir, Executable: exe, DevOverride: true}, nil
}

func (i *Installer) ensureOne(ctx context.Context, p addrs.Provider, c getproviders.Constraints, locked *lockfile.ProviderLock, opts Options) (Selection, *lockfile.ProviderLock, hcl.Diagnostics) {
	if p.IsLegacy() {
		return Selection{}, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Legacy provider address",
			Detail:   fmt.Sprintf("%s uses the namespace \"-\" of Terraform 0.12 state, which no registry serves. Replace it in the state with the provider's real address (such as hashicorp/%s).", p, p.Type),
		}}
	}
	var version getproviders.Version
	var lockedHashes []getproviders.Hash
	var src getproviders.Source
	if locked != nil && !opts.Upgrade {
		if !c.Allows(locked.Version) {
			return Selection{}, nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Locked provider version does not match the constraints",
				Detail:   fmt.Sprintf("The dependency lock file selects %s v%s, which the configuration's constraints %q no longer allow. Run init with -upgrade to select a new version.", p.ForDisplay(), locked.Version, c.String()),
				Subject:  rangePtr(locked.DeclRange),
			}}
		}
		version = locked.Version
		lockedHashes = locked.Hashes
		call2(opts.Events.ReusingLocked, p, version)
	} else {
		if f := opts.Events.FindingVersions; f != nil {
			f(p, c)
		}
		v, s, d := i.selectVersion(ctx, p, c)
		if d.HasErrors() {
			return Selection{}, nil, d
		}
		version, src = v, s
		// Registry warnings are shown however the install then goes.
		i.warnings = append(i.warnings, d...)
		if locked != nil && locked.Version.Same(version) {
			lockedHashes = locked.Hashes
		}
	}
	target := PackageDir(ProvidersDir(i.dataDir), p, version, i.platform)
	lockRange := hcl.Range{}
	if locked != nil {
		lockRange = locked.DeclRange
	}

	entry := &lockfile.ProviderLock{Provider: p, Version: version, Constraints: c}
	finish := func(hashes []getproviders.Hash) (Selection, *lockfile.ProviderLock, hcl.Diagnostics) {
		exe, ok := getproviders.FindExecutable(target, p.Type)
		if !ok {
			return Selection{}, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Provider package has no executable",
				Detail: fmt.Sprintf("%s has no file named terraform-provider-%s.", target, p.Type)}}
		}
		entry.Hashes = hashes
		if locked != nil && locked.Version.Same(version) {
			entry.Hashes = append(slices.Clone(locked.Hashes), hashes...)
		}
		return Selection{Provider: p, Version: version, Dir: target, Executable: exe}, entry, nil
	}

	// Already installed and matching the lock: nothing to do.
	if h, err := getproviders.HashDir(target); err == nil && len(lockedHashes) > 0 && slices.Contains(lockedHashes, h) {
		if _, ok := getproviders.FindExecutable(target, p.Type); ok {
			call2(opts.Events.AlreadyInstalled, p, version)
			return finish([]getproviders.Hash{h})
		}
	}

	// The plugin cache: link to a cached package the lock vouches for.
	if cache := i.cfg.PluginCacheDir; cache != "" {
		cached := PackageDir(cache, p, version, i.platform)
		if h, err := getproviders.HashDir(cached); err == nil {
			ok := slices.Contains(lockedHashes, h) || (len(lockedHashes) == 0 && i.cfg.PluginCacheMayBreakLockFile)
			if ok {
				if err := linkDir(cached, target); err != nil {
					return Selection{}, nil, fsDiag(p, err)
				}
				call2(opts.Events.LinkedFromCache, p, version)
				return finish([]getproviders.Hash{h})
			}
		}
	}

	call2(opts.Events.Installing, p, version)
	meta, d := i.packageMeta(ctx, p, version, src)
	if d.HasErrors() {
		return Selection{}, nil, d
	}
	installTo := target
	if i.cfg.PluginCacheDir != "" {
		installTo = PackageDir(i.cfg.PluginCacheDir, p, version, i.platform)
	}
	res, err := getproviders.InstallPackage(ctx, &i.cfg, meta, installTo, filepath.Join(i.dataDir, "tmp"), lockedHashes)
	if err != nil {
		return Selection{}, nil, errorDiags(p, version, err, lockRange, i.triedMethods(p))
	}
	if installTo != target {
		if err := linkDir(installTo, target); err != nil {
			return Selection{}, nil, fsDiag(p, err)
		}
	}
	if f := opts.Events.Installed; f != nil {
		f(p, version, res.Auth)
	}
	var warn hcl.Diagnostics
	if res.Auth != nil && res.Auth.Warning != "" {
		warn = append(warn, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Provider installed without a signature check",
			Detail:   res.Auth.Warning,
		})
	}
	s, e, d := finish(res.Hashes)
	return s, e, append(warn, d...)
}

func call2(f func(addrs.Provider, getproviders.Version), p addrs.Provider, v getproviders.Version) {
	if f != nil {
		f(p, v)
	}
}

// applicable lists the methods whose include/exclude admit p, in order.
func (i *Installer) applicable(p addrs.Provider) []method {
	var out []method
	for _, m := range i.methods {
		if getproviders.MatchesPatterns(p, m.Include, m.Exclude) {
			out = append(out, m)
		}
	}
	return out
}

func (i *Installer) triedMethods(p addrs.Provider) []string {
	var out []string
	for _, m := range i.applicable(p) {
		out = append(out, m.source.String())
	}
	return out
}

// selectVersion asks every applicable method for the versions of p and
// picks the newest the constraints allow; each version comes from the
// first method that lists it, as OpenTofu's multi-source does.
func (i *Installer) selectVersion(ctx context.Context, p addrs.Provider, c getproviders.Constraints) (getproviders.Version, getproviders.Source, hcl.Diagnostics) {
	var all getproviders.VersionList
	from := map[string]getproviders.Source{}
	var notFound []string
	methods := i.applicable(p)
	var warnings hcl.Diagnostics
	for _, m := range methods {
		var vs getproviders.VersionList
		var err error
		if rs, ok := m.source.(*getproviders.RegistrySource); ok {
			var ws []string
			vs, ws, err = rs.AvailableVersionsWithWarnings(ctx, p)
			for _, w := range ws {
				warnings = append(warnings, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Warning from the provider registry",
					Detail:   fmt.Sprintf("The registry at %s says about %s: %s", p.Hostname, p.ForDisplay(), w),
				})
			}
		} else {
			vs, err = m.source.AvailableVersions(ctx, p)
		}
		var nf getproviders.ErrProviderNotFound
		if errors.As(err, &nf) {
			notFound = append(notFound, nf.Source)
			continue
		}
		if err != nil {
			return getproviders.Version{}, nil, errorDiags(p, getproviders.Version{}, err, hcl.Range{}, nil)
		}
		for _, v := range vs {
			if _, seen := from[v.String()]; !seen {
				from[v.String()] = m.source
				all = append(all, v)
			}
		}
	}
	if len(all) == 0 {
		tried := "no installation method applies to it (check the include and exclude lists of provider_installation)"
		if len(notFound) > 0 {
			tried = "tried " + strings.Join(notFound, "; ")
		}
		return getproviders.Version{}, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Provider not found",
			Detail: fmt.Sprintf("Could not find provider %s (source address %q): %s. Check the source in required_providers, or make the provider available to one of those installation methods.",
				p.ForDisplay(), p.String(), tried),
		}}
	}
	v, ok := getproviders.NewestAllowed(all, c)
	if !ok {
		all.Sort()
		list := make([]string, len(all))
		for k, v := range all {
			list[k] = v.String()
		}
		return getproviders.Version{}, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No provider version matches the constraints",
			Detail: fmt.Sprintf("No available version of %s matches the constraints %q. Available versions: %s. Change the version constraints in required_providers.",
				p.ForDisplay(), c.String(), strings.Join(list, ", ")),
		}}
	}
	return v, from[v.String()], warnings
}

// packageMeta asks src for the package, or, for a locked version, the
// first applicable method that has it.
func (i *Installer) packageMeta(ctx context.Context, p addrs.Provider, v getproviders.Version, src getproviders.Source) (getproviders.PackageMeta, hcl.Diagnostics) {
	if src != nil {
		meta, err := src.PackageMeta(ctx, p, v, i.platform)
		if err != nil {
			return meta, errorDiags(p, v, err, hcl.Range{}, nil)
		}
		return meta, nil
	}
	var firstErr error
	for _, m := range i.applicable(p) {
		meta, err := m.source.PackageMeta(ctx, p, v, i.platform)
		if err == nil {
			return meta, nil
		}
		var nf getproviders.ErrProviderNotFound
		var np getproviders.ErrPlatformNotSupported
		if errors.As(err, &nf) || errors.As(err, &np) {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		return meta, errorDiags(p, v, err, hcl.Range{}, nil)
	}
	if firstErr == nil {
		firstErr = getproviders.ErrProviderNotFound{Provider: p, Source: "any installation method"}
	}
	return getproviders.PackageMeta{}, errorDiags(p, v, firstErr, hcl.Range{}, i.triedMethods(p))
}

// linkDir makes target a symlink to the cached package, as OpenTofu does,
// so the cache is shared; where symlinks fail, the package is copied.
func linkDir(cached, target string) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(target); err != nil {
		return err
	}
	abs, err := filepath.Abs(cached)
	if err != nil {
		return err
	}
	if err := os.Symlink(abs, target); err == nil {
		return nil
	}
	return getproviders.PlacePackage(getproviders.PackageLocalDir(abs), target)
}

func rangePtr(r hcl.Range) *hcl.Range {
	if r.Filename == "" {
		return nil
	}
	return r.Ptr()
}

func fsDiag(p addrs.Provider, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Cannot install provider",
		Detail:   fmt.Sprintf("Installing %s failed: %s.", p.ForDisplay(), err),
	}}
}
