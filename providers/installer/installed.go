package installer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/lockfile"
)

// Installed finds, for plan and apply, the executable of each required
// provider: the dev override when there is one, else the locked version's
// package under DATADIR/providers, whose h1 hash must be among the locked
// hashes. Anything missing or changed is an error telling the user to run
// init.
func Installed(dataDir string, reqs Requirements, locks *lockfile.Locks, cfg getproviders.Config) (map[addrs.Provider]Selection, hcl.Diagnostics) {
	platform := cfg.Platform
	if platform == (getproviders.Platform{}) {
		platform = getproviders.CurrentPlatform
	}
	var diags hcl.Diagnostics
	out := map[addrs.Provider]Selection{}
	var overridden []string
	providers := make([]addrs.Provider, 0, len(reqs))
	for p := range reqs {
		providers = append(providers, p)
	}
	slices.SortFunc(providers, func(a, b addrs.Provider) int { return strings.Compare(a.String(), b.String()) })
	for _, p := range providers {
		if p.IsBuiltIn() {
			continue
		}
		if dir, ok := cfg.DevOverrides[p]; ok {
			s, d := devOverride(p, dir)
			diags = append(diags, d...)
			if !d.HasErrors() {
				out[p] = s
				overridden = append(overridden, fmt.Sprintf("%s in %s", p.ForDisplay(), dir))
			}
			continue
		}
		lock := locks.Provider(p)
		if lock == nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider not in the dependency lock file",
				Detail:   fmt.Sprintf("The configuration requires %s, which the dependency lock file does not list. Run init to install it and record its version.", p.ForDisplay()),
			})
			continue
		}
		if !reqs[p].Allows(lock.Version) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Locked provider version does not match the constraints",
				Detail:   fmt.Sprintf("The dependency lock file selects %s v%s, which the constraints %q do not allow. Run init with -upgrade.", p.ForDisplay(), lock.Version, reqs[p].String()),
				Subject:  rangePtr(lock.DeclRange),
			})
			continue
		}
		dir := PackageDir(ProvidersDir(dataDir), p, lock.Version, platform)
		exe, ok := getproviders.FindExecutable(dir, p.Type)
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Required provider not installed",
				Detail:   fmt.Sprintf("%s v%s (selected by the dependency lock file) is not installed in %s. Run init to install it.", p.ForDisplay(), lock.Version, dir),
			})
			continue
		}
		h, err := getproviders.HashDir(dir)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot check installed provider",
				Detail:   fmt.Sprintf("Hashing the installed package of %s v%s in %s failed: %s. Run init to reinstall it.", p.ForDisplay(), lock.Version, dir, err),
			})
			continue
		}
		if !slices.Contains(lock.Hashes, h) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider checksum mismatch",
				Detail:   fmt.Sprintf("The installed package of %s v%s in %s has the hash %s, which the dependency lock file does not list (%s). Run init to reinstall it.", p.ForDisplay(), lock.Version, dir, h, strings.Join(hashStrings(lock.Hashes), ", ")),
				Subject:  rangePtr(lock.DeclRange),
			})
			continue
		}
		out[p] = Selection{Provider: p, Version: lock.Version, Dir: dir, Executable: exe}
	}
	if len(overridden) > 0 {
		diags = append(diags, DevOverridesWarning(overridden))
	}
	return out, diags
}
