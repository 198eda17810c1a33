package versionparse

import (
	"fmt"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
)

// Version reads a version such as 0.14.2 or 1.0.0-beta1.
func Version(s string) (v versions.Version, err error) {
	defer recoverTooLarge(s, &err)
	return versions.ParseVersion(s)
}

// Constraints reads a comma-separated constraint list in the Ruby-style
// syntax the Terraform language uses.
func Constraints(s string) (spec constraints.IntersectionSpec, err error) {
	defer recoverTooLarge(s, &err)
	return constraints.ParseRubyStyleMulti(s)
}

// recoverTooLarge turns the library's panic on an out-of-range number
// into an error for the caller.
func recoverTooLarge(s string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%q holds a version number too large to compare (%v)", s, r)
	}
}
