package getproviders

import (
	"net/http"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
)

// MethodKind is one kind of provider_installation method.
type MethodKind int

const (
	// MethodDirect asks each provider's origin registry.
	MethodDirect MethodKind = iota
	// MethodFilesystemMirror reads a local directory in either layout.
	MethodFilesystemMirror
	// MethodNetworkMirror speaks the provider network mirror protocol.
	MethodNetworkMirror
)

// Method is one installation method, in the order the CLI configuration
// lists them: the first whose include/exclude admits a provider and that
// has the provider is used.
type Method struct {
	Kind MethodKind
	// Location is the mirror's directory or base URL; empty for direct.
	Location         string
	Include, Exclude []ProviderPattern
	// DeclRange is the block in the CLI configuration, when there is one
	// (implied methods have none).
	DeclRange hcl.Range
}

func (m Method) String() string {
	switch m.Kind {
	case MethodFilesystemMirror:
		return "filesystem mirror at " + m.Location
	case MethodNetworkMirror:
		return "network mirror at " + m.Location
	}
	return "the provider's origin registry"
}

// Config is everything the installer needs from the CLI configuration and
// the environment; providers/cliconfig builds it.
type Config struct {
	// Methods lists the installation methods in order.
	Methods []Method
	// DevOverrides maps providers to a directory holding their executable,
	// used as is: no version, no lock check.
	DevOverrides map[addrs.Provider]string
	// PluginCacheDir, when set, is read before any method and filled after.
	PluginCacheDir string
	// PluginCacheMayBreakLockFile allows a cached package to be used when
	// the lock file has no hash to check it against.
	PluginCacheMayBreakLockFile bool
	// HostServices are service discovery answers given in the CLI
	// configuration (host blocks), used instead of asking the host.
	HostServices map[string]map[string]string
	// Token returns the bearer token for a host, or "".
	Token func(host string) string
	// HTTPClient is used for every request; nil means a default client.
	// Tests pass the client of an httptest TLS server here.
	HTTPClient *http.Client
	// Platform is the platform to install for; zero means this one.
	Platform Platform
}

func (c *Config) platform() Platform {
	if c.Platform == (Platform{}) {
		return CurrentPlatform
	}
	return c.Platform
}
