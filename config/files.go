package config

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
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
func ConfigFileExt(name string) string { return extensionOf(name, configExtensions) }

// IsOverrideFile reports an override file: override.tf, x_override.tf and
// their .tf.json, .tofu and .tofu.json forms.
func IsOverrideFile(name string) bool {
	base := strings.TrimSuffix(name, ConfigFileExt(name))
	return base == "override" || strings.HasSuffix(base, "_override")
}

// testExtensions are the test files' suffixes; a .tofutest file stands in
// for the .tftest file of the same name, as a .tofu file does for a .tf.
var testExtensions = []string{".tofutest.json", ".tftest.json", ".tofutest.hcl", ".tftest.hcl"}

// TestFiles picks the test files among the file names of one directory,
// keeping their order, as ConfigFiles picks configuration files.
func TestFiles(names []string) []string {
	return pick(names, testExtensions, ".tftest", ".tofutest")
}

// ConfigFiles picks the configuration files among the file names of one
// directory, keeping their order: hidden files and editor backups are left
// out, and so is each .tf or .tf.json file whose .tofu alternative is there.
func ConfigFiles(names []string) []string {
	return pick(names, configExtensions, ".tf", ".tofu")
}

// pick keeps the names with one of exts, leaving out hidden files, editor
// backups and each name whose alternative (tfPart replaced by tofuPart in
// its extension) is among names.
func pick(names, exts []string, tfPart, tofuPart string) []string {
	var out []string
	for _, n := range names {
		ext := extensionOf(n, exts)
		if ext == "" || IsIgnoredFile(n) {
			continue
		}
		if strings.HasPrefix(ext, tfPart) {
			tofu := strings.TrimSuffix(n, ext) + tofuPart + strings.TrimPrefix(ext, tfPart)
			if slices.Contains(names, tofu) {
				continue
			}
		}
		out = append(out, n)
	}
	return out
}

func extensionOf(name string, exts []string) string {
	for _, ext := range exts {
		if strings.HasSuffix(name, ext) {
			return ext
		}
	}
	return ""
}

// IsIgnoredFile reports the hidden files and editor backups OpenTofu
// leaves out of a configuration directory (and fmt out of its work).
func IsIgnoredFile(name string) bool {
	return strings.HasPrefix(name, ".") ||
		strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

// ParseSource parses a file's source as JSON when its name ends in
// ".json" and as native syntax otherwise, as every configuration,
// variables and settings file is read.
func ParseSource(p *hclparse.Parser, src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if strings.HasSuffix(filename, ".json") {
		return p.ParseJSON(src, filename)
	}
	return p.ParseHCL(src, filename)
}
