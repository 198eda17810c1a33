// Package versionparse reads release versions and version constraints
// ("~> 1.2", ">= 1.0, < 2.0") with github.com/apparentlymart/go-versions,
// the library OpenTofu's installers use, so prerelease handling and "~>"
// match OpenTofu exactly.
//
// It owns one thing the library leaves out: go-versions panics on a
// number too large for 64 bits, and versions arrive from places users do
// not control (registry answers, lock files, configuration). Here such
// input is an ordinary error. Matching versions against constraints is
// left to the library; what a version means to providers or modules is
// left to their installers (providers/getproviders, config/modinstall).
package versionparse
