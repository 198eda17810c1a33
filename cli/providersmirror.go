package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/installer"
	"github.com/tenetplan/tenet/providers/lockfile"
)

// newProvidersMirrorCommand is "providers mirror DIR". As OpenTofu's, it
// always asks each provider's origin registry, whatever installation
// methods the CLI configuration sets (the directory it fills is usually
// one of them), and downloads every package again; tenet's built-in
// providers are mirrored like any other, only terraform.io/builtin ones
// are skipped. The JSON indexes are then rewritten from every archive the
// directory holds.
func newProvidersMirrorCommand(g *globals) *cobra.Command {
	var platforms []string
	var useLock bool
	cmd := &cobra.Command{
		Use:   "mirror [options] DIR",
		Short: "Copy the required providers' packages from their origin registries into DIR, usable as a filesystem or network mirror",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			if len(args) != 1 {
				return u.errorf("No output directory specified", "The providers mirror command requires an output directory as a command-line argument.")
			}
			return mirrorProviders(cmdContext(cmd), g, u, args[0], platforms, useLock)
		},
	}
	cmd.Flags().StringArrayVar(&platforms, "platform", nil, "platform to mirror, as OS_ARCH (repeatable; default this machine's)")
	cmd.Flags().BoolVar(&useLock, "lock-file", true, "mirror the versions the dependency lock file selects")
	return cmd
}

func mirrorProviders(ctx context.Context, g *globals, u *ui, outDir string, platformArgs []string, useLock bool) error {
	var diags hcl.Diagnostics
	var platforms []getproviders.Platform
	for _, s := range platformArgs {
		p, err := parseMirrorPlatform(s)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid target platform", Detail: fmt.Sprintf("The string %q given in the -platform option is not a valid target platform: %s.", s, err)})
			continue
		}
		platforms = append(platforms, p)
	}
	if len(platformArgs) == 0 {
		platforms = []getproviders.Platform{getproviders.CurrentPlatform}
	}
	cfg, d := u.loadConfig()
	diags = append(diags, d...)
	var reqs installer.Requirements
	if cfg != nil && !d.HasErrors() {
		reqs, _, d = requirementsOf(cfg)
		diags = append(diags, d...)
	}
	pe, d := g.loadProviderEnv()
	diags = append(diags, d...)
	locks := lockfile.New()
	if useLock && !diags.HasErrors() {
		locks, d = lockfile.Load(pe.lockPath)
		diags = append(diags, d...)
	}
	if diags.HasErrors() {
		return u.fail(diags)
	}
	locked := len(locks.AllProviders()) > 0
	if locked {
		if errs := lockMismatches(reqs, locks); len(errs) > 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Inconsistent dependency lock file", Detail: fmt.Sprintf("To update the locked dependency selections to match a changed configuration, run:\n  tenet init -upgrade\n got:%v", errs)})
		}
	}

	// The origin registries only: host blocks and credentials apply, the
	// installation methods do not.
	scfg := getproviders.Config{HostServices: pe.icfg.HostServices, Token: pe.icfg.Token, HTTPClient: pe.icfg.HTTPClient}
	source := getproviders.NewRegistrySource(&scfg)
	say := func(format string, args ...any) { fmt.Fprintf(u.out, format+"\n", args...) }
	for _, p := range sortedProviders(reqs) {
		if p.IsBuiltIn() {
			say("- Skipping %s because it is built in to tenet CLI", p.ForDisplay())
			continue
		}
		c := reqs[p]
		say("- Mirroring %s...", p.ForDisplay())
		avail, err := source.AvailableVersions(ctx, p)
		var candidates getproviders.VersionList
		for _, v := range avail {
			if c.Allows(v) {
				candidates = append(candidates, v)
			}
		}
		if err == nil && len(candidates) == 0 {
			err = fmt.Errorf("no releases match the given constraints %s", c)
		}
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provider not available", Detail: fmt.Sprintf("Failed to download %s from its origin registry: %s.", p, discoveryError(p.Hostname, err))})
			continue
		}
		selected := candidates.Newest()
		switch {
		case locked:
			l := locks.Provider(p)
			if l == nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provider not found in lockfile", Detail: fmt.Sprintf("Failed to find %s in the lock file", p)})
				continue
			}
			selected = l.Version
			say("  - Selected v%s to match dependency lock file", selected)
		case !c.IsEmpty():
			say("  - Selected v%s to meet constraints %s", selected, c)
		default:
			say("  - Selected v%s with no constraints", selected)
		}
		for _, platform := range platforms {
			say("  - Downloading package for %s...", platform)
			if d := mirrorPackage(ctx, u.out, &scfg, source, p, selected, platform, outDir); d != nil {
				diags = append(diags, d)
			}
		}
	}
	diags = append(diags, writeMirrorIndexes(outDir)...)
	if u.diagnostics(diags) {
		return &exitError{1}
	}
	return nil
}

// mirrorPackage downloads and authenticates one package and puts it in
// its place in the packed layout.
func mirrorPackage(ctx context.Context, out io.Writer, scfg *getproviders.Config, source *getproviders.RegistrySource, p addrs.Provider, v getproviders.Version, platform getproviders.Platform, outDir string) *hcl.Diagnostic {
	fail := func(summary, format string, args ...any) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)}
	}
	meta, err := source.PackageMeta(ctx, p, v, platform)
	if err != nil {
		if errors.As(err, new(getproviders.ErrPlatformNotSupported)) {
			err = fmt.Errorf("provider %s %s is not available for %s", p, v, platform)
		}
		return fail("Provider release not available", "Failed to download %s v%s for %s: %s.", p, v, platform, err)
	}
	tmp, err := os.MkdirTemp("", "tenet-mirror-")
	if err != nil {
		return fail("Cannot download provider release", "Failed to download %s v%s for %s: %s.", p, v, platform, err)
	}
	defer os.RemoveAll(tmp)
	loc, res, cleanup, err := getproviders.FetchPackage(ctx, scfg, meta, tmp, nil)
	if err != nil {
		var mismatch getproviders.ErrChecksumMismatch
		var sig getproviders.ErrSignature
		if errors.As(err, &mismatch) || errors.As(err, &sig) {
			return fail("Invalid provider package", "Failed to authenticate %s v%s for %s: %s.", p, v, platform, err)
		}
		return fail("Cannot download provider release", "Failed to download %s v%s for %s: %s.", p, v, platform, err)
	}
	defer cleanup()
	if meta.Authentication != nil {
		fmt.Fprintf(out, "  - Package authenticated: %s\n", mirrorAuthString(res.Auth))
	}
	archive, ok := loc.(getproviders.PackageLocalArchive)
	if !ok {
		return fail("Cannot download provider release", "Failed to place %s package into mirror directory: the registry gave no archive.", p)
	}
	dir := filepath.Join(outDir, p.Hostname, p.Namespace, p.Type)
	name := fmt.Sprintf("terraform-provider-%s_%s_%s.zip", p.Type, v, platform)
	// Copied beside its final name first, so that a mirror being served
	// never shows a half-written archive.
	staging := filepath.Join(dir, "."+name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail("Cannot download provider release", "Failed to place %s package into mirror directory: %s.", p, err)
	}
	if err := copyArchive(string(archive), staging); err != nil {
		os.Remove(staging)
		return fail("Cannot download provider release", "Failed to place %s package into mirror directory: %s.", p, err)
	}
	os.Remove(filepath.Join(dir, name))
	if err := os.Rename(staging, filepath.Join(dir, name)); err != nil {
		return fail("Cannot download provider release", "Failed to place %s package into mirror directory: %s.", p, err)
	}
	return nil
}

// mirrorAuthString is how OpenTofu's mirror names an authentication:
// only whether the checksums were signed, no key ID.
func mirrorAuthString(a *getproviders.AuthResult) string {
	switch {
	case a == nil:
		return "unauthenticated"
	case a.Signed != "":
		return "signed"
	case a.Warning != "":
		return "signing skipped"
	}
	return "verified checksum"
}

func copyArchive(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// lockMismatches lists, as OpenTofu words them, the required providers
// the lock file selects no version of, or a version the constraints no
// longer allow.
func lockMismatches(reqs installer.Requirements, locks *lockfile.Locks) []error {
	var errs []error
	for _, p := range sortedProviders(reqs) {
		if p.IsBuiltIn() {
			continue
		}
		c, l := reqs[p], locks.Provider(p)
		switch {
		case l == nil:
			errs = append(errs, fmt.Errorf("provider %s: required by this configuration but no version is selected", p))
		case !c.Allows(l.Version) && c.String() != l.Constraints.String():
			errs = append(errs, fmt.Errorf("provider %s: locked version selection %s doesn't match the updated version constraints %q", p, l.Version, c))
		case !c.Allows(l.Version):
			errs = append(errs, fmt.Errorf("provider %s: version constraints %q don't match the locked version selection %s", p, c, l.Version))
		}
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

// packedArchive matches the name of an archive in the packed layout.
var packedArchive = regexp.MustCompile(`^terraform-provider-([^_]+)_([^_]+)_([^_]+_[^_.]+)\.zip$`)

// writeMirrorIndexes writes, for every provider the directory holds
// archives of (HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip),
// the network mirror protocol's index.json and VERSION.json, listing each
// archive with its h1 hash, as OpenTofu writes them.
func writeMirrorIndexes(outDir string) hcl.Diagnostics {
	fail := func(format string, args ...any) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to update indexes", Detail: fmt.Sprintf(format, args...)}
	}
	if _, err := os.Lstat(outDir); err != nil {
		return hcl.Diagnostics{fail("Could not scan the output directory to get package metadata for the JSON indexes: cannot search %s: %s.", outDir, err)}
	}
	typeDirs, _ := filepath.Glob(filepath.Join(outDir, "*", "*", "*"))
	var diags hcl.Diagnostics
	for _, dir := range typeDirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		typ := filepath.Base(dir)
		provider := filepath.ToSlash(dir[len(filepath.Clean(outDir))+1:])
		versions := map[string]any{}
		archives := map[string]map[string]any{}
		for _, e := range entries {
			m := packedArchive.FindStringSubmatch(e.Name())
			if m == nil || m[1] != typ || e.IsDir() {
				continue
			}
			v, err := getproviders.ParseVersion(m[2])
			if err != nil {
				continue
			}
			platform, err := getproviders.ParsePlatform(m[3])
			if err != nil {
				continue
			}
			h, err := getproviders.HashZipH1(filepath.Join(dir, e.Name()))
			if err != nil {
				diags = append(diags, fail("Failed to determine a hash value for %s v%s on %s: %s.", provider, v, platform, err))
				continue
			}
			versions[v.String()] = map[string]any{}
			if archives[v.String()] == nil {
				archives[v.String()] = map[string]any{}
			}
			archives[v.String()][platform.String()] = map[string]any{"url": e.Name(), "hashes": []string{string(h)}}
		}
		if len(versions) == 0 {
			continue
		}
		b, _ := json.MarshalIndent(map[string]any{"versions": versions}, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, "index.json"), b, 0o644); err != nil {
			diags = append(diags, fail("Failed to write an updated JSON index for %s: %s.", provider, err))
		}
		for v, a := range archives {
			b, _ := json.MarshalIndent(map[string]any{"archives": a}, "", "  ")
			if err := os.WriteFile(filepath.Join(dir, v+".json"), b, 0o644); err != nil {
				diags = append(diags, fail("Failed to write an updated JSON index for %s v%s: %s.", provider, v, err))
			}
		}
	}
	return diags
}

// parseMirrorPlatform reads a -platform value with OpenTofu's rules and
// words: two words joined by an underscore, without blanks.
func parseMirrorPlatform(s string) (getproviders.Platform, error) {
	parts := strings.Split(s, "_")
	switch {
	case len(parts) != 2:
		return getproviders.Platform{}, errors.New("must be two words separated by an underscore")
	case strings.ContainsAny(parts[0], " \t\n\r"):
		return getproviders.Platform{}, errors.New("OS portion must not contain whitespace")
	case strings.ContainsAny(parts[1], " \t\n\r"):
		return getproviders.Platform{}, errors.New("architecture portion must not contain whitespace")
	}
	return getproviders.Platform{OS: parts[0], Arch: parts[1]}, nil
}

// discoveryError words a failed service discovery request as OpenTofu
// does; other errors are returned as they are.
func discoveryError(host string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && strings.HasSuffix(ue.URL, "/.well-known/terraform.json") {
		return fmt.Errorf("could not connect to %s: failed to request discovery document: %w", host, ue)
	}
	return err
}
