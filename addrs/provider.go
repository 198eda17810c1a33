package addrs

import (
	"fmt"
	"strings"
)

// Provider is a provider's source address: hostname/namespace/type.
type Provider struct {
	Hostname  string
	Namespace string
	Type      string
}

const (
	// DefaultProviderRegistryHost is where unqualified provider sources resolve.
	DefaultProviderRegistryHost = "registry.opentofu.org"
	// BuiltInProviderHost is the pseudo-host of providers compiled into the binary.
	BuiltInProviderHost = "terraform.io"
)

// NewDefaultProvider returns registry.opentofu.org/hashicorp/TYPE.
func NewDefaultProvider(typ string) Provider {
	return Provider{Hostname: DefaultProviderRegistryHost, Namespace: "hashicorp", Type: typ}
}

// NewBuiltInProvider returns terraform.io/builtin/TYPE.
func NewBuiltInProvider(typ string) Provider {
	return Provider{Hostname: BuiltInProviderHost, Namespace: "builtin", Type: typ}
}

func (p Provider) IsZero() bool { return p == Provider{} }

func (p Provider) String() string {
	return p.Hostname + "/" + p.Namespace + "/" + p.Type
}

// AbsProviderConfig names one provider configuration: the provider, the
// module that declares it, and its alias.
type AbsProviderConfig struct {
	Module   Module
	Provider Provider
	Alias    string
}

// String renders the state-file form:
// module.a.provider["registry.opentofu.org/hashicorp/aws"].west
func (p AbsProviderConfig) String() string {
	var b strings.Builder
	if len(p.Module) > 0 {
		b.WriteString(p.Module.String())
		b.WriteByte('.')
	}
	b.WriteString(`provider["`)
	b.WriteString(p.Provider.String())
	b.WriteString(`"]`)
	if p.Alias != "" {
		b.WriteByte('.')
		b.WriteString(p.Alias)
	}
	return b.String()
}

// ParseAbsProviderConfigStr reads the form String writes.
func ParseAbsProviderConfigStr(s string) (AbsProviderConfig, error) {
	var out AbsProviderConfig
	rest := s
	for strings.HasPrefix(rest, "module.") {
		rest = rest[len("module."):]
		i := strings.IndexByte(rest, '.')
		if i <= 0 {
			return out, fmt.Errorf("invalid provider configuration address %q", s)
		}
		out.Module = append(out.Module, rest[:i])
		rest = rest[i+1:]
	}
	if !strings.HasPrefix(rest, `provider["`) {
		return out, fmt.Errorf("invalid provider configuration address %q: want provider[\"SOURCE\"]", s)
	}
	rest = rest[len(`provider["`):]
	end := strings.Index(rest, `"]`)
	if end < 0 {
		return out, fmt.Errorf("invalid provider configuration address %q: unterminated source", s)
	}
	p, err := ParseProviderSource(rest[:end])
	if err != nil {
		return out, err
	}
	out.Provider = p
	rest = rest[end+2:]
	if rest != "" {
		if rest[0] != '.' || len(rest) == 1 {
			return out, fmt.Errorf("invalid provider configuration address %q: unexpected %q", s, rest)
		}
		out.Alias = rest[1:]
	}
	return out, nil
}
