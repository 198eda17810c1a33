package cliconfig

import (
	"os"
	"path/filepath"
)

// Env is the part of the process environment the CLI configuration
// depends on, so tests can give their own.
type Env struct {
	// Getenv reads an environment variable; nil means os.Getenv.
	Getenv func(string) string
	// Environ lists NAME=VALUE pairs (for TF_TOKEN_*); nil means os.Environ.
	Environ func() []string
	// Home is the user's home directory; "" means os.UserHomeDir.
	Home string
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return os.Getenv(k)
	}
	return e.Getenv(k)
}

func (e Env) environ() []string {
	if e.Environ == nil {
		return os.Environ()
	}
	return e.Environ()
}

func (e Env) home() string {
	if e.Home != "" {
		return e.Home
	}
	h, _ := os.UserHomeDir()
	return h
}

// xdgConfigHome and xdgDataHome follow the XDG base directory defaults.
func (e Env) xdgConfigHome() string {
	if d := e.getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.home(), ".config")
}

func (e Env) xdgDataHome() string {
	if d := e.getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.home(), ".local", "share")
}

func (e Env) xdgDataDirs() []string {
	if d := e.getenv("XDG_DATA_DIRS"); d != "" {
		var out []string
		for _, p := range filepath.SplitList(d) {
			if filepath.IsAbs(p) {
				out = append(out, p)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return []string{"/usr/local/share", "/usr/share"}
}

// MainFile is the single CLI configuration file: TF_CLI_CONFIG_FILE, the
// legacy TERRAFORM_CONFIG, else ~/.tofurc, else ~/.terraformrc, else the
// XDG tofurc. explicit says it was named by the environment, so that a
// missing file is worth a warning.
func (e Env) MainFile() (path string, explicit bool) {
	if p := e.getenv("TF_CLI_CONFIG_FILE"); p != "" {
		return p, true
	}
	if p := e.getenv("TERRAFORM_CONFIG"); p != "" {
		return p, true
	}
	for _, name := range []string{".tofurc", ".terraformrc"} {
		p := filepath.Join(e.home(), name)
		if _, err := os.Stat(p); err == nil {
			return p, false
		}
	}
	return filepath.Join(e.xdgConfigHome(), "opentofu", "tofurc"), false
}

// ConfigDir holds the *.tfrc files and the implied plugins mirror:
// ~/.terraform.d when it exists, else $XDG_CONFIG_HOME/opentofu.
func (e Env) ConfigDir() string {
	legacy := filepath.Join(e.home(), ".terraform.d")
	if fi, err := os.Stat(legacy); err == nil && fi.IsDir() {
		return legacy
	}
	return filepath.Join(e.xdgConfigHome(), "opentofu")
}

// ImpliedMirrorDirs lists the local directories searched for providers
// when there is no provider_installation block, in order. workDir is the
// configuration's directory.
func (e Env) ImpliedMirrorDirs(workDir string) []string {
	dirs := []string{
		filepath.Join(workDir, "terraform.d", "plugins"),
		filepath.Join(e.home(), ".terraform.d", "plugins"),
		filepath.Join(e.xdgDataHome(), "opentofu", "plugins"),
		filepath.Join(e.xdgDataHome(), "terraform", "plugins"),
	}
	for _, d := range e.xdgDataDirs() {
		dirs = append(dirs, filepath.Join(d, "terraform", "plugins"))
	}
	return dirs
}
