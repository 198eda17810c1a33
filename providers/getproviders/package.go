package getproviders

import (
	"github.com/tenetplan/tenet/addrs"
)

// PackageLocation says where a package is: an unpacked directory, a local
// zip archive, or a URL to download a zip archive from.
type PackageLocation interface {
	String() string
	packageLocationSigil()
}

// PackageLocalDir is an unpacked package directory on disk.
type PackageLocalDir string

// PackageLocalArchive is a zip archive on disk.
type PackageLocalArchive string

// PackageHTTPURL is a zip archive to download.
type PackageHTTPURL string

func (p PackageLocalDir) String() string          { return string(p) }
func (p PackageLocalArchive) String() string      { return string(p) }
func (p PackageHTTPURL) String() string           { return string(p) }
func (PackageLocalDir) packageLocationSigil()     {}
func (PackageLocalArchive) packageLocationSigil() {}
func (PackageHTTPURL) packageLocationSigil()      {}

// PackageMeta describes one package of one provider version for one
// platform, as a source found it.
type PackageMeta struct {
	Provider addrs.Provider
	Version  Version
	Platform Platform
	// Protocols lists the plugin protocol versions the package speaks
	// ("5.0", "6.0"), when the source says.
	Protocols []string
	Filename  string
	Location  PackageLocation
	// Authentication checks the package once it is on disk; nil means the
	// source vouches for nothing (a local mirror).
	Authentication PackageAuthentication
}

// PackageAuthentication checks a fetched package and says how it was
// authenticated, for init's "(signed, key ID …)" line. Hashes returns the
// hashes it vouched for, which go into the lock file beside the package's
// own (a registry's SHA256SUMS vouches for every platform's zip).
type PackageAuthentication interface {
	Authenticate(loc PackageLocation) (*AuthResult, error)
	AcceptableHashes() []Hash
}

// AuthResult is what authentication found.
type AuthResult struct {
	// Signed is "signed" (by a partner or community key), "self-signed"…;
	// empty when nothing was signed.
	Signed string
	KeyID  string
	// Warning is set when the source could not authenticate as fully as
	// its protocol allows, for the CLI to show.
	Warning string
}

// String renders the parenthesised note init prints after "Installed".
func (r *AuthResult) String() string {
	if r == nil || r.Signed == "" {
		return "unauthenticated"
	}
	if r.KeyID == "" {
		return r.Signed
	}
	return r.Signed + ", key ID " + r.KeyID
}
