package addrs

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"
)

// LegacyRegistryHost is Terraform's default registry. Configurations and
// state written by Terraform name providers on this host; OpenTofu reads
// those addresses as the same providers on DefaultProviderRegistryHost
// unless the configuration spells the host out (see
// [MigrateLegacyRegistryHost]).
const LegacyRegistryHost = "registry.terraform.io"

// LegacyProviderNamespace is the "-" namespace of provider addresses
// written before sources had namespaces (Terraform 0.12 state). It is valid
// only on a default registry host and can never be installed.
const LegacyProviderNamespace = "-"

// ParseProviderSource reads a required_providers source: TYPE,
// NAMESPACE/TYPE or HOST/NAMESPACE/TYPE. Omitted parts take OpenTofu's
// defaults (registry.opentofu.org, namespace hashicorp); the parts are
// normalised (lower case, hostnames in their punycode form, default ports
// dropped) so that equal providers compare equal.
func ParseProviderSource(s string) (Provider, error) {
	if !utf8.ValidString(s) {
		return Provider{}, fmt.Errorf("invalid provider source %q: not valid UTF-8", s)
	}
	parts := strings.Split(s, "/")
	if len(parts) > 3 {
		return Provider{}, fmt.Errorf("invalid provider source %q: want [HOSTNAME/]NAMESPACE/TYPE", s)
	}
	for _, p := range parts {
		if p == "" {
			return Provider{}, fmt.Errorf("invalid provider source %q: empty segment", s)
		}
	}
	typ, err := tfaddr.ParseProviderPart(parts[len(parts)-1])
	if err != nil {
		return Provider{}, fmt.Errorf("invalid provider type in source %q: %s", s, err)
	}
	// Types such as "terraform-provider-aws" are the name of a repository
	// or an executable, never a source: say which source was meant.
	if rest, ok := strings.CutPrefix(typ, "terraform-provider-"); ok && rest != "" {
		return Provider{}, fmt.Errorf("invalid provider type in source %q: the type must not start with \"terraform-provider-\" (did you mean %q?)", s, strings.Join(append(parts[:len(parts)-1:len(parts)-1], rest), "/"))
	}
	if strings.HasPrefix(typ, "terraform-") {
		return Provider{}, fmt.Errorf("invalid provider type in source %q: the type must not start with \"terraform-\"", s)
	}
	out := Provider{Hostname: DefaultProviderRegistryHost, Namespace: "hashicorp", Type: typ}
	if len(parts) >= 2 {
		ns := parts[len(parts)-2]
		if ns != LegacyProviderNamespace {
			ns, err = tfaddr.ParseProviderNamespace(ns)
			if err != nil {
				return Provider{}, fmt.Errorf("invalid provider namespace in source %q: %s", s, err)
			}
		}
		out.Namespace = ns
	}
	if len(parts) == 3 {
		host, err := svchost.ForComparison(parts[0])
		if err != nil {
			return Provider{}, fmt.Errorf("invalid provider hostname in source %q: %s", s, err)
		}
		// The unicode form, which is what state and lock files hold and
		// what this function accepts back.
		out.Hostname = host.ForDisplay()
	}
	// Normalising can map a part to nothing or to a form that normalises
	// differently again (unicode oddities); such sources cannot round-trip.
	if t2, err := tfaddr.ParseProviderPart(out.Type); err != nil || t2 != out.Type || out.Type == "" {
		return Provider{}, fmt.Errorf("invalid provider type in source %q", s)
	}
	if out.Namespace != LegacyProviderNamespace {
		if n2, err := tfaddr.ParseProviderNamespace(out.Namespace); err != nil || n2 != out.Namespace || out.Namespace == "" {
			return Provider{}, fmt.Errorf("invalid provider namespace in source %q", s)
		}
	}
	if h2, err := svchost.ForComparison(out.Hostname); err != nil || h2.ForDisplay() != out.Hostname {
		return Provider{}, fmt.Errorf("invalid provider hostname in source %q", s)
	}
	if out.Namespace == LegacyProviderNamespace && out.Hostname != DefaultProviderRegistryHost && out.Hostname != LegacyRegistryHost {
		return Provider{}, fmt.Errorf("invalid provider source %q: the legacy namespace \"-\" exists only on %s", s, DefaultProviderRegistryHost)
	}
	return out, nil
}

// MustParseProviderSource is ParseProviderSource for addresses written in
// code and tests; it panics on an invalid one.
func MustParseProviderSource(s string) Provider {
	p, err := ParseProviderSource(s)
	if err != nil {
		panic(err)
	}
	return p
}

// ForDisplay is the short form people write: the hostname is left out when
// it is the default registry.
func (p Provider) ForDisplay() string {
	if p.Hostname == DefaultProviderRegistryHost {
		return p.Namespace + "/" + p.Type
	}
	return p.String()
}

// IsLegacy reports whether p uses the pre-0.13 "-" namespace.
func (p Provider) IsLegacy() bool { return p.Namespace == LegacyProviderNamespace }

// IsBuiltIn reports whether p is compiled into the binary
// (terraform.io/builtin/TYPE) and so is never installed.
func (p Provider) IsBuiltIn() bool {
	return p.Hostname == BuiltInProviderHost && p.Namespace == "builtin"
}

// Less orders providers by their string form, the order lock files and
// user-facing lists use.
func (p Provider) Less(o Provider) bool { return p.String() < o.String() }

// MigrateLegacyRegistryHost is how OpenTofu reads a provider address found
// in existing state: registry.terraform.io/NS/TYPE means
// registry.opentofu.org/NS/TYPE (the same provider, mirrored by OpenTofu's
// registry), unless explicit reports that the configuration names the
// registry.terraform.io address in full, in which case it is kept.
// explicit may be nil when no configuration is at hand.
func MigrateLegacyRegistryHost(p Provider, explicit func(Provider) bool) Provider {
	if p.Hostname != LegacyRegistryHost || p.IsLegacy() {
		return p
	}
	if explicit != nil && explicit(p) {
		return p
	}
	p.Hostname = DefaultProviderRegistryHost
	return p
}
