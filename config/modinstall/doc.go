// Package modinstall installs the remote modules a configuration calls:
// it parses module source addresses ([ParseSource]), asks module
// registries which versions exist and where to download them, fetches
// packages with the git CLI or over HTTPS as archives, and places them
// under the data directory's modules/ (".terraform/modules" unless
// TF_DATA_DIR says otherwise) together with the modules.json manifest
// that OpenTofu writes, so either tool can read the other's installation.
//
// Each module's calls are read through [config.ReadModule], so sources and
// versions computed from variables ([Options.Static]) are installed as the
// values select them.
//
// It owns the source address grammar, the module registry protocol, the
// safe unpacking of module archives, and the manifest's writing. Reading
// installed modules while loading a configuration is config's job
// ([config.LoadWithModules] with the manifest read by
// [config.ReadModuleManifest]). HTTP requests, service discovery and
// tokens go through internal/registryhttp, the client provider
// installation uses too; where host credentials and service discovery
// answers come from (the CLI configuration) is the caller's: [Options]
// takes them as plain values, so this package does not depend on
// providers.
package modinstall
