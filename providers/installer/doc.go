// Package installer is what `init` and `providers lock` drive: given the
// providers a configuration requires and the dependency lock file, it
// selects a version of each (the locked one unless upgrading), installs
// the packages into the working directory's providers directory (through
// the plugin cache when there is one), and returns the selections and the
// new lock entries. [Installed] is the other half, for plan and apply: it
// finds the installed executables of the locked versions and checks their
// hashes.
//
// Sources, protocols, hashing and unpacking are providers/getproviders';
// the lock file format is providers/lockfile's; the CLI configuration is
// providers/cliconfig's.
package installer
