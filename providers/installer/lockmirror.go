package installer

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/lockfile"
)

// PlatformEvents report `providers lock` and `providers mirror` progress.
type PlatformEvents struct {
	// Fetching: "- Fetching hashicorp/time 0.14.2 for linux_amd64..."
	Fetching func(p addrs.Provider, v getproviders.Version, platform getproviders.Platform)
	// Retrieved: "- Retrieved hashicorp/time 0.14.2 for linux_amd64 (signed, key ID …)"
	Retrieved func(p addrs.Provider, v getproviders.Version, platform getproviders.Platform, auth *getproviders.AuthResult)
	// Obtained (providers lock only) gives the checksums of one platform's
	// package, so the caller can say whether the lock file had them.
	Obtained func(p addrs.Provider, v getproviders.Version, platform getproviders.Platform, hashes []getproviders.Hash)
}

// chooseVersion is the version `providers lock` and `providers mirror`
// work on: the locked one while the constraints allow it, else the newest
// allowed.
func (i *Installer) chooseVersion(ctx context.Context, p addrs.Provider, c getproviders.Constraints, locked *lockfile.ProviderLock, ev Events) (getproviders.Version, getproviders.Source, hcl.Diagnostics) {
	if locked != nil && c.Allows(locked.Version) {
		call2(ev.ReusingLocked, p, locked.Version)
		return locked.Version, nil, nil
	}
	if ev.FindingVersions != nil {
		ev.FindingVersions(p, c)
	}
	return i.selectVersion(ctx, p, c)
}

// eachPackage fetches and verifies the package of every required provider
// for every platform, calling use with each verified package (LockProviders).
func (i *Installer) eachPackage(ctx context.Context, reqs Requirements, locks *lockfile.Locks, platforms []getproviders.Platform, ev Events, pev PlatformEvents,
	use func(p addrs.Provider, v getproviders.Version, platform getproviders.Platform, loc getproviders.PackageLocation, res *getproviders.InstallResult) error,
) hcl.Diagnostics {
	var diags hcl.Diagnostics
	providers := make([]addrs.Provider, 0, len(reqs))
	for p := range reqs {
		if !p.IsBuiltIn() {
			providers = append(providers, p)
		}
	}
	slices.SortFunc(providers, func(a, b addrs.Provider) int { return strings.Compare(a.String(), b.String()) })
	for _, p := range providers {
		if _, ok := i.cfg.DevOverrides[p]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Provider under development override skipped",
				Detail:   fmt.Sprintf("%s comes from dev_overrides, which have no packages to lock or mirror; it is left as it was.", p.ForDisplay()),
			})
			continue
		}
		locked := locks.Provider(p)
		v, src, d := i.chooseVersion(ctx, p, reqs[p], locked, ev)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		var lockedHashes []getproviders.Hash
		lockRange := hcl.Range{}
		if locked != nil && locked.Version.Same(v) {
			lockedHashes, lockRange = locked.Hashes, locked.DeclRange
		}
		// An unreachable registry fails every platform alike: say it once.
		said := map[string]bool{}
		for _, platform := range platforms {
			if pev.Fetching != nil {
				pev.Fetching(p, v, platform)
			}
			meta, d := i.forPlatform(platform).packageMeta(ctx, p, v, src)
			for _, x := range d {
				if key := x.Summary + "\x00" + x.Detail; !said[key] {
					said[key] = true
					diags = append(diags, x)
				}
			}
			if d.HasErrors() {
				continue
			}
			loc, res, cleanup, err := getproviders.FetchPackage(ctx, &i.cfg, meta, filepath.Join(i.dataDir, "tmp"), lockedHashes)
			if err != nil {
				diags = append(diags, errorDiags(p, v, err, lockRange, i.triedMethods(p))...)
				continue
			}
			err = use(p, v, platform, loc, res)
			cleanup()
			if err != nil {
				diags = append(diags, fsDiag(p, err)...)
				continue
			}
			if pev.Retrieved != nil {
				pev.Retrieved(p, v, platform, res.Auth)
			}
			if pev.Obtained != nil {
				pev.Obtained(p, v, platform, res.Hashes)
			}
			if res.Auth != nil && res.Auth.Warning != "" {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Provider fetched without a signature check", Detail: res.Auth.Warning})
			}
		}
	}
	return diags
}

// forPlatform is a copy of the installer asking sources for another
// platform's packages.
func (i *Installer) forPlatform(platform getproviders.Platform) *Installer {
	c := *i
	c.platform = platform
	return &c
}

// LockProviders is `providers lock`: it records in the lock file the
// hashes of every required provider's package for each of platforms,
// without installing anything, so that the file verifies on all of them.
// The locked version is kept while the constraints allow it.
func (i *Installer) LockProviders(ctx context.Context, reqs Requirements, locks *lockfile.Locks, platforms []getproviders.Platform, ev Events, pev PlatformEvents) (*lockfile.Locks, hcl.Diagnostics) {
	type acc struct {
		v      getproviders.Version
		hashes []getproviders.Hash
	}
	got := map[addrs.Provider]*acc{}
	diags := i.eachPackage(ctx, reqs, locks, platforms, ev, pev, func(p addrs.Provider, v getproviders.Version, _ getproviders.Platform, _ getproviders.PackageLocation, res *getproviders.InstallResult) error {
		a := got[p]
		if a == nil {
			a = &acc{v: v}
			got[p] = a
		}
		a.hashes = append(a.hashes, res.Hashes...)
		return nil
	})
	out := lockfile.New()
	for _, e := range locks.AllProviders() {
		if _, required := reqs[e.Provider]; required {
			out.SetProvider(e.Provider, e.Version, e.Constraints, e.Hashes)
		}
	}
	if diags.HasErrors() {
		// Nothing changes unless everything could be locked.
		return out, diags
	}
	for p, a := range got {
		hashes := a.hashes
		if old := locks.Provider(p); old != nil && old.Version.Same(a.v) {
			hashes = append(hashes, old.Hashes...)
		}
		out.SetProvider(p, a.v, reqs[p], hashes)
	}
	return out, diags
}
