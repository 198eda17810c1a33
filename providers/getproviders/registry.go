package getproviders

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/tenetplan/tenet/addrs"
)

// RegistrySource speaks the provider registry protocol (providers.v1) to
// each provider's origin host.
type RegistrySource struct {
	c *client
}

// NewRegistrySource returns a source asking origin registries, with the
// HTTP client, tokens and host blocks of cfg.
func NewRegistrySource(cfg *Config) *RegistrySource { return &RegistrySource{c: newClient(cfg)} }

func (s *RegistrySource) String() string { return "the provider's origin registry" }

// versionsAnswer is GET :namespace/:type/versions.
type versionsAnswer struct {
	Versions []struct {
		Version   string   `json:"version"`
		Protocols []string `json:"protocols"`
		Platforms []struct {
			OS   string `json:"os"`
			Arch string `json:"arch"`
		} `json:"platforms"`
	} `json:"versions"`
	Warnings []string `json:"warnings"`
}

// downloadAnswer is GET :namespace/:type/:version/download/:os/:arch.
type downloadAnswer struct {
	Protocols           []string `json:"protocols"`
	OS                  string   `json:"os"`
	Arch                string   `json:"arch"`
	Filename            string   `json:"filename"`
	DownloadURL         string   `json:"download_url"`
	SHASumsURL          string   `json:"shasums_url"`
	SHASumsSignatureURL string   `json:"shasums_signature_url"`
	SHASum              string   `json:"shasum"`
	SigningKeys         struct {
		GPGPublicKeys []struct {
			KeyID      string `json:"key_id"`
			ASCIIArmor string `json:"ascii_armor"`
		} `json:"gpg_public_keys"`
	} `json:"signing_keys"`
}

func (s *RegistrySource) base(ctx context.Context, p addrs.Provider) (*url.URL, error) {
	if p.IsLegacy() {
		return nil, fmt.Errorf("%s uses the legacy \"-\" namespace, which no registry serves; replace it in the state with the provider's current address", p)
	}
	return s.c.serviceURL(ctx, p.Hostname, "providers.v1")
}

func (s *RegistrySource) sourceName(p addrs.Provider) string { return "the registry at " + p.Hostname }

// AvailableVersions lists the versions the registry offers. Versions that
// do not parse are skipped, as a registry may list some this tool does
// not understand.
func (s *RegistrySource) AvailableVersions(ctx context.Context, p addrs.Provider) (VersionList, error) {
	vl, _, err := s.versions(ctx, p)
	return vl, err
}

// AvailableVersionsWithWarnings is AvailableVersions plus the warnings a
// registry may attach to a provider (deprecation notices and the like),
// which init shows.
func (s *RegistrySource) AvailableVersionsWithWarnings(ctx context.Context, p addrs.Provider) (VersionList, []string, error) {
	return s.versions(ctx, p)
}

func (s *RegistrySource) versions(ctx context.Context, p addrs.Provider) (VersionList, []string, error) {
	base, err := s.base(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	u := base.JoinPath(p.Namespace, p.Type, "versions")
	var raw json.RawMessage
	found, err := s.c.getJSON(ctx, u, p.Hostname, s.sourceName(p), "versions list", &raw)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, ErrProviderNotFound{Provider: p, Source: s.sourceName(p)}
	}
	return decodeVersions(raw, s.sourceName(p))
}

// decodeVersions reads a versions list. Versions that do not parse are
// skipped, as a registry may list some this tool does not understand.
func decodeVersions(raw []byte, src string) (VersionList, []string, error) {
	var ans versionsAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, nil, ErrBadResponse{Source: src, What: "versions list (" + err.Error() + ")"}
	}
	var out VersionList
	for _, v := range ans.Versions {
		if pv, err := ParseVersion(v.Version); err == nil && !containsVersion(out, pv) {
			out = append(out, pv)
		}
	}
	out.Sort()
	return out, ans.Warnings, nil
}

// PackageMeta asks for the download answer and prepares the signature
// and checksum checks the package will go through once downloaded.
func (s *RegistrySource) PackageMeta(ctx context.Context, p addrs.Provider, v Version, platform Platform) (PackageMeta, error) {
	base, err := s.base(ctx, p)
	if err != nil {
		return PackageMeta{}, err
	}
	src := s.sourceName(p)
	u := base.JoinPath(p.Namespace, p.Type, v.String(), "download", platform.OS, platform.Arch)
	var raw json.RawMessage
	found, err := s.c.getJSON(ctx, u, p.Hostname, src, "package description", &raw)
	if err != nil {
		return PackageMeta{}, err
	}
	if !found {
		return PackageMeta{}, ErrPlatformNotSupported{Provider: p, Version: v, Platform: platform, Source: src}
	}
	meta, err := decodeDownload(raw, u, src, p, v, platform)
	if err != nil {
		return PackageMeta{}, err
	}
	if auth, ok := meta.Authentication.(*registryAuth); ok {
		auth.c = s.c
	}
	return meta, nil
}

// decodeDownload reads a download answer fetched from u, checking every
// field the installation relies on.
func decodeDownload(raw []byte, u *url.URL, src string, p addrs.Provider, v Version, platform Platform) (PackageMeta, error) {
	var ans downloadAnswer
	bad := func(what string) (PackageMeta, error) {
		return PackageMeta{}, ErrBadResponse{Source: src, What: "package description (" + what + ")"}
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return bad(err.Error())
	}
	if ans.Filename == "" || ans.Filename != path.Base(ans.Filename) || strings.ContainsAny(ans.Filename, `\/`) {
		return bad(fmt.Sprintf("filename %q", ans.Filename))
	}
	if ans.OS != "" && ans.OS != platform.OS || ans.Arch != "" && ans.Arch != platform.Arch {
		return bad(fmt.Sprintf("it is for %s_%s, not %s", ans.OS, ans.Arch, platform))
	}
	dl, err := resolveHTTP(u, ans.DownloadURL)
	if err != nil {
		return bad("download_url: " + err.Error())
	}
	sum, err := parseSHA256Hex(ans.SHASum)
	if err != nil {
		return bad("shasum: " + err.Error())
	}
	if !compatibleProtocols(ans.Protocols) {
		return PackageMeta{}, fmt.Errorf("%s v%s speaks plugin protocol %s, and tenet speaks 5 and 6: choose another version", p.ForDisplay(), v, strings.Join(ans.Protocols, ", "))
	}
	auth := &registryAuth{src: src, provider: p, version: v, filename: ans.Filename, sum: sum}
	if ans.SHASumsURL != "" {
		if auth.sumsURL, err = resolveHTTP(u, ans.SHASumsURL); err != nil {
			return bad("shasums_url: " + err.Error())
		}
	}
	if ans.SHASumsSignatureURL != "" {
		if auth.sigURL, err = resolveHTTP(u, ans.SHASumsSignatureURL); err != nil {
			return bad("shasums_signature_url: " + err.Error())
		}
	}
	for _, k := range ans.SigningKeys.GPGPublicKeys {
		auth.keys = append(auth.keys, k.ASCIIArmor)
	}
	return PackageMeta{
		Provider: p, Version: v, Platform: platform, Protocols: ans.Protocols,
		Filename: ans.Filename, Location: PackageHTTPURL(dl.String()), Authentication: auth,
	}, nil
}

// compatibleProtocols: an empty list means the registry did not say, which
// older registries do; otherwise major 5 or 6 must be among them.
func compatibleProtocols(ps []string) bool {
	if len(ps) == 0 {
		return true
	}
	for _, p := range ps {
		major, _, _ := strings.Cut(p, ".")
		if major == "5" || major == "6" {
			return true
		}
	}
	return false
}

func resolveHTTP(base *url.URL, ref string) (*url.URL, error) {
	if ref == "" {
		return nil, fmt.Errorf("missing")
	}
	u, err := base.Parse(ref)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return nil, fmt.Errorf("%q is not an http(s) URL", ref)
	}
	return u, nil
}
