package config

import (
	"slices"
	"strings"
)

// The files of a module directory. OpenTofu reads *.tf and *.tf.json, and
// since 1.8 also *.tofu and *.tofu.json: a .tofu file stands in for the .tf
// file of the same name (main.tofu hides main.tf, x.tofu.json hides
// x.tf.json), so a module can carry OpenTofu-only versions of its files.

// configExtensions are the configuration files' suffixes, longest first so
// ".tofu.json" is not taken for ".json".
var configExtensions = []string{".tofu.json", ".tf.json", ".tofu", ".tf"}

// ConfigFileExt is the configuration extension name ends with, or "" when
// name is no configuration file.
func ConfigFileExt(name string) string {
	for _, ext := range configExtensions {
		if strings.HasSuffix(name, ext) {
			return ext
		}
	}
	return ""
}

// IsOverrideFile reports an override file: override.tf, x_override.tf and
// their .tf.json, .tofu and .tofu.json forms.
func IsOverrideFile(name string) bool {
	base := strings.TrimSuffix(name, ConfigFileExt(name))
	return base == "override" || strings.HasSuffix(base, "_override")
}

// ConfigFiles picks the configuration files among the file names of one
// directory, keeping their order: hidden files and editor backups are left
// out, and so is each .tf or .tf.json file whose .tofu alternative is there.
func ConfigFiles(names []string) []string {
	var out []string
	for _, n := range names {
		ext := ConfigFileExt(n)
		if ext == "" || IsIgnoredFile(n) {
			continue
		}
		if ext == ".tf" || ext == ".tf.json" {
			tofu := strings.TrimSuffix(n, ext) + strings.Replace(ext, ".tf", ".tofu", 1)
			if slices.Contains(names, tofu) {
				continue
			}
		}
		out = append(out, n)
	}
	return out
}

// IsIgnoredFile reports the hidden files and editor backups OpenTofu
// leaves out of a configuration directory (and fmt out of its work).
func IsIgnoredFile(name string) bool {
	return strings.HasPrefix(name, ".") ||
		strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}
