// Package getproviders finds, fetches, verifies and installs provider
// plugin packages: the executables that providers/plugin launches.
//
// It owns the vocabulary of installation (platforms, versions and
// constraints, package hashes), the sources packages come from (the
// provider registry protocol with its service discovery and OpenPGP-signed
// checksums, the network mirror protocol, filesystem mirrors in the
// unpacked and packed layouts, dev_overrides), and the [Installer] that
// `init` drives: it selects versions, consults and fills the plugin cache,
// unpacks into the working directory's providers directory and returns the
// new lock entries.
//
// It does not read the CLI configuration file (providers/cliconfig turns
// that into a [Config] for [NewInstaller]) nor the lock file format
// (providers/lockfile); it never launches a provider.
package getproviders
