package jsonui

import (
	"strconv"
	"strings"
)

// ResourceAddr is a resource instance address as the JSON UI describes it.
type ResourceAddr struct {
	Addr            string `json:"addr"`
	Module          string `json:"module"`
	Resource        string `json:"resource"`
	ImpliedProvider string `json:"implied_provider"`
	ResourceType    string `json:"resource_type"`
	ResourceName    string `json:"resource_name"`
	// ResourceKey is nil, an int or a string.
	ResourceKey any `json:"resource_key"`
}

// NewResourceAddr splits an absolute resource instance address such as
// `module.m[0].data.x.y["k"]`. A string that is not an address keeps only
// Addr set.
func NewResourceAddr(addr string) ResourceAddr {
	ra := ResourceAddr{Addr: addr}
	parts := splitAddress(addr)
	i := 0
	for i+1 < len(parts) && parts[i] == "module" {
		i += 2
	}
	modEnd := 0
	if i > 0 {
		modEnd = len(strings.Join(parts[:i], "."))
	}
	rest := parts[i:]

	if len(rest) == 3 && rest[0] == "data" {
		rest = rest[1:]
	}
	if len(rest) != 2 {
		return ra
	}
	name, key, ok := splitKey(rest[1])
	if !ok {
		return ra
	}
	ra.Module = addr[:modEnd]
	ra.Resource = strings.TrimPrefix(addr[modEnd:], ".")
	ra.ResourceType = rest[0]
	ra.ResourceName = name
	ra.ResourceKey = key
	ra.ImpliedProvider = rest[0]
	if u := strings.IndexByte(rest[0], '_'); u > 0 {
		ra.ImpliedProvider = rest[0][:u]
	}

	return ra
}

// splitAddress splits at dots outside brackets and quoted strings.
func splitAddress(s string) []string {
	var parts []string
	depth, inQuote, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inQuote:
			if c == '\\' {
				i++
			} else if c == '"' {
				inQuote = false
			}
		case c == '"':
			inQuote = true
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '.' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// splitKey splits `name[key]` into the name and the key (nil, int or
// string).
func splitKey(s string) (string, any, bool) {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		return s, nil, s != ""
	}
	if !strings.HasSuffix(s, "]") || open == 0 {
		return "", nil, false
	}
	inner := s[open+1 : len(s)-1]
	if strings.HasPrefix(inner, `"`) {
		k, err := strconv.Unquote(inner)
		if err != nil {
			return "", nil, false
		}
		return s[:open], k, true
	}
	n, err := strconv.Atoi(inner)
	if err != nil {
		return "", nil, false
	}
	return s[:open], n, true
}
