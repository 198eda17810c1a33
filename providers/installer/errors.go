package installer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
)

// errorDiags turns a source's error into the diagnostic the user sees.
// lockRange points at the lock entry when the lock file was involved;
// tried lists the installation methods asked, for "not found".
func errorDiags(p addrs.Provider, v getproviders.Version, err error, lockRange hcl.Range, tried []string) hcl.Diagnostics {
	name := p.ForDisplay()
	if v != (getproviders.Version{}) {
		name += " v" + v.String()
	}
	d := &hcl.Diagnostic{Severity: hcl.DiagError}
	var (
		nf  getproviders.ErrProviderNotFound
		un  getproviders.ErrUnreachable
		np  getproviders.ErrPlatformNotSupported
		bad getproviders.ErrBadResponse
		sig getproviders.ErrSignature
		cs  getproviders.ErrChecksumMismatch
	)
	switch {
	case errors.As(err, &cs):
		d.Summary = "Provider checksum mismatch"
		d.Detail = fmt.Sprintf("The package of %s does not match %s: it has %s, and only %s are accepted. The package may have been tampered with, or the lock file may be for another package; if the change is expected, delete the provider's entry from the lock file and run init again.",
			name, cs.What, strings.Join(hashStrings(cs.Got), ", "), strings.Join(hashStrings(cs.Want), ", "))
		if strings.Contains(cs.What, "lock file") {
			d.Subject = rangePtr(lockRange)
		}
	case errors.As(err, &sig):
		d.Summary = "Provider signature does not verify"
		d.Detail = fmt.Sprintf("The checksums of %s are not signed by any key the registry at %s publishes for it (%s). The package was not installed. Ask the provider's publisher, or the registry's operator, about the key.", name, p.Hostname, sig.Err)
	case errors.As(err, &np):
		d.Summary = "Provider not available for this platform"
		d.Detail = fmt.Sprintf("%s has no package of %s for %s. Select a version published for this platform with version constraints, or ask the publisher for a build.", np.Source, name, np.Platform)
	case errors.As(err, &nf):
		d.Summary = "Provider not found"
		where := nf.Source
		if len(tried) > 0 {
			where = strings.Join(tried, "; ")
		}
		d.Detail = fmt.Sprintf("Could not find %s (source address %q); tried %s. Check the source in required_providers, or make the provider available to one of those installation methods.", name, p.String(), where)
	case errors.As(err, &un):
		d.Summary = "Provider registry unreachable"
		d.Detail = fmt.Sprintf("Could not ask %s about %s: %s. Check the network and the hostname, or install from a mirror (provider_installation in the CLI configuration).", un.Source, name, un.Err)
	case errors.As(err, &bad):
		d.Summary = "Invalid answer from provider registry"
		d.Detail = fmt.Sprintf("%s answered with an invalid %s while installing %s. The server does not speak the provider registry protocol correctly; report it to its operator.", bad.Source, bad.What, name)
	default:
		d.Summary = "Cannot install provider"
		d.Detail = fmt.Sprintf("Installing %s failed: %s.", name, err)
	}
	return hcl.Diagnostics{d}
}

func hashStrings(hs []getproviders.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = string(h)
	}
	return out
}
