package getproviders

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/tenetplan/tenet/addrs"
)

// FilesystemMirror is a local directory of provider packages in either
// layout, both shared with the plugin cache and .terraform/providers:
//
//	unpacked: DIR/HOST/NS/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE…
//	packed:   DIR/HOST/NS/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip
type FilesystemMirror struct {
	Dir string
}

func (m FilesystemMirror) String() string { return "filesystem mirror at " + m.Dir }

// AvailableVersions lists the versions with a package for any platform.
func (m FilesystemMirror) AvailableVersions(_ context.Context, p addrs.Provider) (VersionList, error) {
	pkgs := m.packages(p)
	if len(pkgs) == 0 {
		return nil, ErrProviderNotFound{Provider: p, Source: m.String()}
	}
	var out VersionList
	for _, pkg := range pkgs {
		if !containsVersion(out, pkg.Version) {
			out = append(out, pkg.Version)
		}
	}
	out.Sort()
	return out, nil
}

// PackageMeta finds the package of p at v for platform; an unpacked
// directory is preferred over a zip.
func (m FilesystemMirror) PackageMeta(_ context.Context, p addrs.Provider, v Version, platform Platform) (PackageMeta, error) {
	var found *PackageMeta
	for _, pkg := range m.packages(p) {
		if !pkg.Version.Same(v) || pkg.Platform != platform {
			continue
		}
		if found == nil || isDir(pkg.Location) {
			pkg := pkg
			found = &pkg
		}
	}
	if found == nil {
		return PackageMeta{}, ErrPlatformNotSupported{Provider: p, Version: v, Platform: platform, Source: m.String()}
	}
	return *found, nil
}

func isDir(loc PackageLocation) bool {
	_, ok := loc.(PackageLocalDir)
	return ok
}

func containsVersion(vs VersionList, v Version) bool {
	for _, x := range vs {
		if x.Same(v) {
			return true
		}
	}
	return false
}

// packages lists every package of p in the mirror, in either layout.
// Entries that do not follow the layout are skipped: mirrors often hold
// other files.
func (m FilesystemMirror) packages(p addrs.Provider) []PackageMeta {
	base := filepath.Join(m.Dir, p.Hostname, p.Namespace, p.Type)
	entries, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var out []PackageMeta
	for _, e := range entries {
		name := e.Name()
		full := filepath.Join(base, name)
		if strings.HasSuffix(name, ".zip") {
			v, plat, ok := parsePackedName(p.Type, name)
			if ok && isRegular(full) {
				out = append(out, PackageMeta{Provider: p, Version: v, Platform: plat, Filename: name, Location: PackageLocalArchive(full)})
			}
			continue
		}
		v, err := ParseVersion(name)
		if err != nil || !isDirPath(full) {
			continue
		}
		plats, _ := os.ReadDir(full)
		for _, pe := range plats {
			plat, err := ParsePlatform(pe.Name())
			dir := filepath.Join(full, pe.Name())
			if err != nil || !isDirPath(dir) {
				continue
			}
			out = append(out, PackageMeta{Provider: p, Version: v, Platform: plat, Location: PackageLocalDir(dir)})
		}
	}
	return out
}

// parsePackedName reads terraform-provider-TYPE_VERSION_OS_ARCH.zip.
func parsePackedName(typ, name string) (Version, Platform, bool) {
	rest, ok := strings.CutPrefix(name, "terraform-provider-"+typ+"_")
	if !ok {
		return Version{}, Platform{}, false
	}
	rest = strings.TrimSuffix(rest, ".zip")
	parts := strings.Split(rest, "_")
	if len(parts) != 3 {
		return Version{}, Platform{}, false
	}
	v, err := ParseVersion(parts[0])
	if err != nil {
		return Version{}, Platform{}, false
	}
	return v, Platform{OS: parts[1], Arch: parts[2]}, parts[1] != "" && parts[2] != ""
}

func isDirPath(p string) bool {
	fi, err := os.Stat(p) // follows symlinks, as caches often use them
	return err == nil && fi.IsDir()
}

func isRegular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// MirrorProviders lists the providers a mirror directory has packages of,
// in either layout.
func MirrorProviders(dir string) []addrs.Provider {
	var out []addrs.Provider
	hosts, _ := os.ReadDir(dir)
	for _, h := range hosts {
		nss, _ := os.ReadDir(filepath.Join(dir, h.Name()))
		for _, ns := range nss {
			types, _ := os.ReadDir(filepath.Join(dir, h.Name(), ns.Name()))
			for _, t := range types {
				p, err := addrs.ParseProviderSource(h.Name() + "/" + ns.Name() + "/" + t.Name())
				if err != nil || p.String() != h.Name()+"/"+ns.Name()+"/"+t.Name() {
					continue
				}
				if len(FilesystemMirror{Dir: dir}.packages(p)) > 0 {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// FindExecutable returns the provider's executable in an unpacked package
// directory: the first regular file named terraform-provider-TYPE followed
// by the end of the name, "_" or ".", as in terraform-provider-time_v0.14.2
// or terraform-provider-time.exe.
func FindExecutable(dir, typ string) (string, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	prefix := "terraform-provider-" + typ
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || (rest != "" && rest[0] != '_' && rest[0] != '.') {
			continue
		}
		full := filepath.Join(dir, e.Name())
		if isRegular(full) {
			return full, true
		}
	}
	return "", false
}
