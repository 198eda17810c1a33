package cliconfig

import (
	"os"

	"github.com/tenetplan/tenet/providers/getproviders"
)

// InstallerConfig is what getproviders.NewInstaller needs from this
// configuration for a configuration directory workDir. Without a
// provider_installation block the methods are OpenTofu's implied ones:
// each local mirror directory that exists, then each provider's origin
// registry for the providers none of those directories has.
func (c *Config) InstallerConfig(workDir string) getproviders.Config {
	out := getproviders.Config{
		PluginCacheDir:              c.PluginCacheDir,
		PluginCacheMayBreakLockFile: c.PluginCacheMayBreakDependencyLockFile,
		HostServices:                c.Hosts,
		Token:                       c.Token,
	}
	if pi := c.ProviderInstallation; pi != nil {
		out.Methods = pi.Methods
		out.DevOverrides = pi.DevOverrides
		return out
	}
	direct := getproviders.Method{Kind: getproviders.MethodDirect}
	for _, dir := range c.env.ImpliedMirrorDirs(workDir) {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		out.Methods = append(out.Methods, getproviders.Method{Kind: getproviders.MethodFilesystemMirror, Location: dir})
		for _, p := range getproviders.MirrorProviders(dir) {
			direct.Exclude = append(direct.Exclude, getproviders.PatternFor(p))
		}
	}
	out.Methods = append(out.Methods, direct)
	return out
}
