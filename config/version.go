package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// LanguageVersion is the OpenTofu release whose language tenet implements;
// terraform { required_version = "..." } constraints are checked against it.
const LanguageVersion = "1.10.6"

// CheckRequiredVersions checks every module's required_version
// constraints against LanguageVersion.
func (c *Config) CheckRequiredVersions() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range c.Modules() {
		for _, vc := range m.RequiredVersion {
			ok, err := versionSatisfies(LanguageVersion, vc.Required)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid required_version constraint",
					Detail:   fmt.Sprintf("The constraint %q cannot be read: %s.", vc.Required, err),
					Subject:  vc.DeclRange.Ptr(),
				})
				continue
			}
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unsupported Terraform language version",
					Detail: fmt.Sprintf("This configuration requires %q, but tenet implements the language of OpenTofu %s. "+
						"Change the constraint if the configuration really works with this version.", vc.Required, LanguageVersion),
					Subject: vc.DeclRange.Ptr(),
				})
			}
		}
	}
	return diags
}

// versionSatisfies reports whether version meets every comma-separated
// constraint (=, !=, >, >=, <, <=, ~>; a bare version means =).
func versionSatisfies(version, constraints string) (bool, error) {
	v, err := parseVersion(version)
	if err != nil {
		return false, err
	}
	parts := strings.Split(constraints, ",")
	for _, part := range parts {
		if strings.TrimSpace(part) == "" {
			return false, fmt.Errorf("empty constraint")
		}
	}
	satisfied := true
	for _, part := range parts {
		part = strings.TrimSpace(part)
		op := ""
		for _, candidate := range []string{"~>", ">=", "<=", "!=", "=", ">", "<"} {
			if strings.HasPrefix(part, candidate) {
				op = candidate
				break
			}
		}
		want, err := parseVersion(strings.TrimSpace(part[len(op):]))
		if err != nil {
			return false, err
		}
		cmp := compareVersions(v.parts, want.parts)
		var ok bool
		switch op {
		case "", "=":
			ok = cmp == 0
		case "!=":
			ok = cmp != 0
		case ">":
			ok = cmp > 0
		case ">=":
			ok = cmp >= 0
		case "<":
			ok = cmp < 0
		case "<=":
			ok = cmp <= 0
		case "~>":
			// ~> 1.2.3 allows >= 1.2.3 and < 1.3; ~> 1.2 allows >= 1.2 and < 2.
			upper := append([]int(nil), want.parts[:max(want.given-1, 1)]...)
			upper[len(upper)-1]++
			ok = cmp >= 0 && compareVersions(v.parts[:len(upper)], upper) < 0
		}
		satisfied = satisfied && ok
	}
	return satisfied, nil
}

func parseVersion(s string) (struct {
	parts []int
	given int
}, error) {
	out := struct {
		parts []int
		given int
	}{parts: make([]int, 3)}
	s = strings.TrimPrefix(s, "v")
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i] // pre-release and build metadata do not take part here
	}
	fields := strings.Split(s, ".")
	if len(fields) == 0 || len(fields) > 3 || fields[0] == "" {
		return out, fmt.Errorf("%q is not a version number", s)
	}
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return out, fmt.Errorf("%q is not a version number", s)
		}
		out.parts[i] = n
	}
	out.given = len(fields)
	return out, nil
}

func compareVersions(a, b []int) int {
	for i := range a {
		if i >= len(b) {
			return 0
		}
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
