// Package getproviders finds, fetches and verifies provider plugin
// packages: the executables that the plugin client launches.
//
// It owns the vocabulary of installation (platforms, versions and
// constraints, package hashes, include/exclude patterns), the [Config]
// that the CLI configuration turns into, and the sources packages come
// from: the provider registry protocol with its service discovery and
// OpenPGP-signed checksums ([RegistrySource]), the network mirror protocol
// ([NetworkMirror]), and local directories in the unpacked and packed
// layouts ([FilesystemMirror]). [FetchPackage] and [InstallPackage] bring a
// package to disk, authenticate it, check it against locked hashes and
// unpack it safely.
//
// Its HTTP requests go through internal/registryhttp, shared with module
// installation: service discovery, host blocks, tokens (only ever over
// https) and bounded JSON answers live there; this package gives their
// failures its own error types.
//
// Choosing versions, the plugin cache and the working directory's
// providers directory are providers/installer's; the lock file format is
// providers/lockfile's; the CLI configuration file is providers/cliconfig's.
// Nothing here launches a provider.
package getproviders
