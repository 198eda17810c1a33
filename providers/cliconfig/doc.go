// Package cliconfig reads the per-user CLI configuration: the file named by
// TF_CLI_CONFIG_FILE (or ~/.tofurc, ~/.terraformrc, the XDG tofurc) plus
// every *.tfrc and *.tfrc.json in the configuration directory, and the
// environment variables that stand in for its settings (TF_PLUGIN_CACHE_DIR,
// TF_TOKEN_<host>…).
//
// It owns the file's locations, syntax and merge rules, and turns
// provider_installation, plugin_cache_dir, host and credentials into a
// getproviders.Config (including the implied local mirrors used when there
// is no provider_installation block). It installs nothing itself. It lives
// under providers because provider installation is its only consumer
// today; host and credentials are kept general so module installation can
// use them later.
package cliconfig
