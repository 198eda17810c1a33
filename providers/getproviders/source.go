package getproviders

import (
	"context"
	"fmt"

	"github.com/tenetplan/tenet/addrs"
)

// Source is somewhere provider packages come from: a registry, a mirror.
type Source interface {
	// AvailableVersions lists the versions the source has for p.
	AvailableVersions(ctx context.Context, p addrs.Provider) (VersionList, error)
	// PackageMeta describes the package of p at v for platform.
	PackageMeta(ctx context.Context, p addrs.Provider, v Version, platform Platform) (PackageMeta, error)
	// String names the source in messages.
	String() string
}

// ErrProviderNotFound means the source does not have the provider at all.
type ErrProviderNotFound struct {
	Provider addrs.Provider
	Source   string
}

func (e ErrProviderNotFound) Error() string {
	return fmt.Sprintf("%s has no provider %s", e.Source, e.Provider)
}

// ErrUnreachable means the source could not be asked at all.
type ErrUnreachable struct {
	Source string
	Err    error
}

func (e ErrUnreachable) Error() string {
	return fmt.Sprintf("could not reach %s: %s", e.Source, e.Err)
}

func (e ErrUnreachable) Unwrap() error { return e.Err }

// ErrPlatformNotSupported means the version exists but has no package for
// the platform.
type ErrPlatformNotSupported struct {
	Provider addrs.Provider
	Version  Version
	Platform Platform
	Source   string
}

func (e ErrPlatformNotSupported) Error() string {
	return fmt.Sprintf("%s has no package of %s v%s for %s", e.Source, e.Provider, e.Version, e.Platform)
}

// ErrBadResponse means the source answered something that is not a valid
// answer of its protocol.
type ErrBadResponse struct {
	Source string
	What   string
}

func (e ErrBadResponse) Error() string {
	return fmt.Sprintf("%s answered with an invalid %s", e.Source, e.What)
}
