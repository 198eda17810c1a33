package getproviders

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
	"github.com/tenetplan/tenet/internal/versionparse"
)

// Platform is an operating system and architecture pair as provider
// packages name them: linux_amd64, darwin_arm64.
type Platform struct {
	OS, Arch string
}

// CurrentPlatform is the platform this binary runs on.
var CurrentPlatform = Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}

func (p Platform) String() string { return p.OS + "_" + p.Arch }

// ParsePlatform reads the OS_ARCH form.
func ParsePlatform(s string) (Platform, error) {
	os, arch, ok := strings.Cut(s, "_")
	if !ok || os == "" || arch == "" || strings.Contains(arch, "_") {
		return Platform{}, fmt.Errorf("invalid platform %q: want OS_ARCH, such as linux_amd64", s)
	}
	return Platform{OS: os, Arch: arch}, nil
}

// Version is a provider release version. go-versions is the library
// OpenTofu's own installer uses, so prerelease handling and "~>" match it
// exactly.
type Version = versions.Version

// ParseVersion reads a version such as 0.14.2 or 1.0.0-beta1.
func ParseVersion(s string) (Version, error) { return versionparse.Version(s) }

// Constraints is a parsed version constraint string such as
// ">= 1.0, < 2.0" or "~> 0.14". The zero value admits every released
// version.
type Constraints struct {
	spec constraints.IntersectionSpec
}

// ParseConstraints reads a comma-separated constraint string. The empty
// string admits every released version.
func ParseConstraints(s string) (Constraints, error) {
	if strings.TrimSpace(s) == "" {
		return Constraints{}, nil
	}
	spec, err := versionparse.Constraints(s)
	if err != nil {
		return Constraints{}, err
	}
	return MergeConstraints(Constraints{spec: spec}), nil
}

// MergeConstraints intersects several constraint lists, as when several
// modules require the same provider.
func MergeConstraints(cs ...Constraints) Constraints {
	var out Constraints
	seen := map[string]bool{}
	for _, c := range cs {
		for _, sel := range c.spec {
			// Compare by the written form: the parser keeps details
			// (spacing) that do not change the meaning.
			if s := selectionString(sel); !seen[s] {
				seen[s] = true
				out.spec = append(out.spec, sel)
			}
		}
	}
	return out
}

// Allows reports whether v meets the constraints. Prereleases are allowed
// only when a constraint names them exactly, as OpenTofu does.
func (c Constraints) Allows(v Version) bool {
	if len(c.spec) == 0 {
		return versions.Released.Has(v)
	}
	return versions.MeetingConstraints(c.spec).Has(v)
}

// IsEmpty reports whether there are no constraints at all.
func (c Constraints) IsEmpty() bool { return len(c.spec) == 0 }

// String is the canonical form written to lock files: each constraint
// once, in the order given, "=" left out, a space after each operator.
func (c Constraints) String() string {
	parts := make([]string, 0, len(c.spec))
	for _, sel := range c.spec {
		parts = append(parts, selectionString(sel))
	}
	return strings.Join(parts, ", ")
}

func selectionString(sel constraints.SelectionSpec) string {
	var op string
	switch sel.Operator {
	case constraints.OpEqual, constraints.OpUnconstrained:
	case constraints.OpNotEqual:
		op = "!= "
	case constraints.OpGreaterThan:
		op = "> "
	case constraints.OpGreaterThanOrEqual:
		op = ">= "
	case constraints.OpLessThan:
		op = "< "
	case constraints.OpLessThanOrEqual:
		op = "<= "
	case constraints.OpGreaterThanOrEqualPatchOnly, constraints.OpGreaterThanOrEqualMinorOnly:
		op = "~> "
	default:
		op = string(sel.Operator) + " "
	}
	b := sel.Boundary
	nums := []constraints.NumConstraint{b.Major, b.Minor, b.Patch}
	var v strings.Builder
	for i, n := range nums {
		if n.Unconstrained {
			if i == 0 {
				v.WriteString("0")
			}
			break
		}
		if i > 0 {
			v.WriteByte('.')
		}
		v.WriteString(n.String())
	}
	if b.Prerelease != "" {
		v.WriteString("-" + b.Prerelease)
	}
	if b.Metadata != "" {
		v.WriteString("+" + b.Metadata)
	}
	return op + v.String()
}

// VersionList is a list of versions, newest last once sorted.
type VersionList = versions.List

// NewestAllowed returns the newest version in vs that c allows.
func NewestAllowed(vs VersionList, c Constraints) (Version, bool) {
	var best Version
	found := false
	for _, v := range vs {
		if c.Allows(v) && (!found || v.GreaterThan(best)) {
			best, found = v, true
		}
	}
	return best, found
}
