package getproviders

import (
	"fmt"
	"strings"

	"github.com/tenetplan/tenet/addrs"
)

// ProviderPattern is one include or exclude entry of an installation
// method: a provider address whose parts may each be "*".
type ProviderPattern struct {
	Hostname, Namespace, Type string
}

// ParseProviderPattern reads "HOST/NS/TYPE", "NS/TYPE" or "TYPE" where any
// part may be "*"; omitted parts take the registry defaults, as in a source
// address.
func ParseProviderPattern(s string) (ProviderPattern, error) {
	parts := strings.Split(s, "/")
	if len(parts) > 3 {
		return ProviderPattern{}, fmt.Errorf("invalid provider pattern %q: want [HOSTNAME/]NAMESPACE/TYPE, where each part may be \"*\"", s)
	}
	// Parse a stand-in address with the wildcards replaced by valid
	// parts, so the other parts are normalised exactly like sources.
	stand := make([]string, len(parts))
	stars := make([]bool, len(parts))
	for i, p := range parts {
		stand[i] = p
		if p == "*" {
			stars[i] = true
			stand[i] = "x"
			if i == 0 && len(parts) == 3 {
				stand[i] = "example.com"
			}
		}
	}
	p, err := addrs.ParseProviderSource(strings.Join(stand, "/"))
	if err != nil {
		return ProviderPattern{}, fmt.Errorf("invalid provider pattern %q: %s", s, err)
	}
	out := ProviderPattern{Hostname: p.Hostname, Namespace: p.Namespace, Type: p.Type}
	fields := []*string{&out.Type, &out.Namespace, &out.Hostname}
	for i := range parts {
		if stars[len(parts)-1-i] {
			*fields[i] = "*"
		}
	}
	return out, nil
}

// Matches reports whether p falls under the pattern.
func (pat ProviderPattern) Matches(p addrs.Provider) bool {
	m := func(want, got string) bool { return want == "*" || want == got }
	return m(pat.Hostname, p.Hostname) && m(pat.Namespace, p.Namespace) && m(pat.Type, p.Type)
}

func (pat ProviderPattern) String() string {
	return pat.Hostname + "/" + pat.Namespace + "/" + pat.Type
}

// PatternFor is the pattern matching exactly p.
func PatternFor(p addrs.Provider) ProviderPattern {
	return ProviderPattern{Hostname: p.Hostname, Namespace: p.Namespace, Type: p.Type}
}

// MatchesPatterns applies an include/exclude pair: p must match some
// include (when there are any) and no exclude.
func MatchesPatterns(p addrs.Provider, include, exclude []ProviderPattern) bool {
	for _, x := range exclude {
		if x.Matches(p) {
			return false
		}
	}
	if len(include) == 0 {
		return true
	}
	for _, in := range include {
		if in.Matches(p) {
			return true
		}
	}
	return false
}
