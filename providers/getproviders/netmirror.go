package getproviders

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/tenetplan/tenet/addrs"
)

// NetworkMirror speaks the provider network mirror protocol: static JSON
// documents under a base URL listing versions (index.json) and, per
// version, each platform's archive with its hashes (VERSION.json).
type NetworkMirror struct {
	base *url.URL
	c    *client
}

// NewNetworkMirror returns a source for the mirror at baseURL (https, with
// a trailing slash).
func NewNetworkMirror(baseURL string, cfg *Config) (*NetworkMirror, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("invalid network mirror URL %q: want an https:// URL", baseURL)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return &NetworkMirror{base: u, c: newClient(cfg)}, nil
}

func (m *NetworkMirror) String() string { return "network mirror at " + m.base.String() }

type mirrorIndex struct {
	Versions map[string]struct{} `json:"versions"`
}

type mirrorVersion struct {
	Archives map[string]struct {
		URL    string   `json:"url"`
		Hashes []string `json:"hashes"`
	} `json:"archives"`
}

func (m *NetworkMirror) providerURL(p addrs.Provider) *url.URL {
	return m.base.JoinPath(p.Hostname, p.Namespace, p.Type) // JoinPath escapes each part
}

// AvailableVersions reads HOST/NS/TYPE/index.json.
func (m *NetworkMirror) AvailableVersions(ctx context.Context, p addrs.Provider) (VersionList, error) {
	var raw json.RawMessage
	found, err := m.c.getJSON(ctx, m.providerURL(p).JoinPath("index.json"), "", m.String(), "version index", &raw)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, ErrProviderNotFound{Provider: p, Source: m.String()}
	}
	return decodeMirrorIndex(raw, m.String())
}

func decodeMirrorIndex(raw []byte, src string) (VersionList, error) {
	var idx mirrorIndex
	if err := json.Unmarshal(raw, &idx); err != nil {
		return nil, ErrBadResponse{Source: src, What: "version index (" + err.Error() + ")"}
	}
	var out VersionList
	for s := range idx.Versions {
		if v, err := ParseVersion(s); err == nil && !containsVersion(out, v) {
			out = append(out, v)
		}
	}
	out.Sort()
	return out, nil
}

// PackageMeta reads HOST/NS/TYPE/VERSION.json; the archive URL is relative
// to that document, and the listed hashes are what the package must match.
func (m *NetworkMirror) PackageMeta(ctx context.Context, p addrs.Provider, v Version, platform Platform) (PackageMeta, error) {
	u := m.providerURL(p).JoinPath(v.String() + ".json")
	var raw json.RawMessage
	found, err := m.c.getJSON(ctx, u, "", m.String(), "version document", &raw)
	if err != nil {
		return PackageMeta{}, err
	}
	if !found {
		return PackageMeta{}, ErrPlatformNotSupported{Provider: p, Version: v, Platform: platform, Source: m.String()}
	}
	return decodeMirrorVersion(raw, u, m.String(), p, v, platform)
}

func decodeMirrorVersion(raw []byte, u *url.URL, src string, p addrs.Provider, v Version, platform Platform) (PackageMeta, error) {
	var doc mirrorVersion
	if err := json.Unmarshal(raw, &doc); err != nil {
		return PackageMeta{}, ErrBadResponse{Source: src, What: "version document (" + err.Error() + ")"}
	}
	arch, ok := doc.Archives[platform.String()]
	if !ok {
		return PackageMeta{}, ErrPlatformNotSupported{Provider: p, Version: v, Platform: platform, Source: src}
	}
	dl, err := resolveHTTP(u, arch.URL)
	if err != nil {
		return PackageMeta{}, ErrBadResponse{Source: src, What: "version document (url: " + err.Error() + ")"}
	}
	var hashes []Hash
	for _, s := range arch.Hashes {
		h, err := ParseHash(s)
		if err != nil {
			return PackageMeta{}, ErrBadResponse{Source: src, What: "version document (" + err.Error() + ")"}
		}
		hashes = append(hashes, h)
	}
	return PackageMeta{
		Provider: p, Version: v, Platform: platform,
		Filename:       fmt.Sprintf("terraform-provider-%s_%s_%s.zip", p.Type, v, platform),
		Location:       PackageHTTPURL(dl.String()),
		Authentication: &hashesAuth{provider: p, version: v, src: src, hashes: hashes},
	}, nil
}
