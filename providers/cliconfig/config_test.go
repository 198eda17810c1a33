package cliconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
)

func testEnv(t *testing.T, vars map[string]string) Env {
	t.Helper()
	home := t.TempDir()
	return Env{
		Home:   home,
		Getenv: func(k string) string { return vars[k] },
		Environ: func() []string {
			var out []string
			for k, v := range vars {
				out = append(out, k+"="+v)
			}
			return out
		},
	}
}

func write(t *testing.T, path, src string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseFull(t *testing.T) {
	src := `
plugin_cache_dir = "/cache"
plugin_cache_may_break_dependency_lock_file = true
disable_checkpoint = true

provider_installation {
  dev_overrides {
    "hashicorp/time" = "/home/dev/go/bin"
  }
  filesystem_mirror {
    path    = "/mirror"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url     = "https://mirror.example.com/providers"
    exclude = ["hashicorp/aws"]
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}

host "Example.com" {
  services = {
    "providers.v1" = "https://example.com/p/"
    "login.v1"     = { client = "x" }
  }
}

credentials "app.example.com" {
  token = "secret"
}
`
	cfg, diags := Parse("test.tfrc", []byte(src))
	if diags.HasErrors() || len(diags) != 0 {
		t.Fatal(diags)
	}
	want := &Config{
		ProviderInstallation: &ProviderInstallation{
			DevOverrides: map[addrs.Provider]string{addrs.NewDefaultProvider("time"): "/home/dev/go/bin"},
			Methods: []getproviders.Method{
				{Kind: getproviders.MethodFilesystemMirror, Location: "/mirror", Include: []getproviders.ProviderPattern{pat("example.com", "*", "*")}},
				{Kind: getproviders.MethodNetworkMirror, Location: "https://mirror.example.com/providers/", Exclude: []getproviders.ProviderPattern{pat("registry.opentofu.org", "hashicorp", "aws")}},
				{Kind: getproviders.MethodDirect, Exclude: []getproviders.ProviderPattern{pat("example.com", "*", "*")}},
			},
		},
		PluginCacheDir:                        "/cache",
		PluginCacheMayBreakDependencyLockFile: true,
		DisableCheckpoint:                     true,
		Hosts:                                 map[string]map[string]string{"example.com": {"providers.v1": "https://example.com/p/"}},
		Credentials:                           map[string]string{"app.example.com": "secret"},
		Files:                                 []string{"test.tfrc"},
	}
	opts := cmp.Options{cmpopts.IgnoreUnexported(Config{}), cmpopts.IgnoreTypes(hcl.Range{})}
	if diff := cmp.Diff(want, cfg, opts); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestParseJSON(t *testing.T) {
	src := `{
  "plugin_cache_dir": "/cache",
  "provider_installation": {
    "dev_overrides": {"hashicorp/null": "/dev/null-provider"},
    "direct": {}
  },
  "credentials": {"app.example.com": {"token": "t"}}
}`
	cfg, diags := Parse("credentials.tfrc.json", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if cfg.PluginCacheDir != "/cache" || cfg.Credentials["app.example.com"] != "t" ||
		cfg.ProviderInstallation.DevOverrides[addrs.NewDefaultProvider("null")] != "/dev/null-provider" ||
		len(cfg.ProviderInstallation.Methods) != 1 {
		t.Fatalf("unexpected %+v %+v", cfg, cfg.ProviderInstallation)
	}
}

// OpenTofu's logout leaves {"credentials": {}} when it removes the last
// token: no credentials, not an error.
func TestParseJSONEmptyCredentials(t *testing.T) {
	cfg, diags := Parse("credentials.tfrc.json", []byte(`{"credentials": {}, "plugin_cache_dir": "/c"}`))
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if len(cfg.Credentials) != 0 || cfg.PluginCacheDir != "/c" {
		t.Fatalf("unexpected %+v", cfg)
	}
}

func TestParseDiagnostics(t *testing.T) {
	tests := map[string]struct {
		src      string
		severity hcl.DiagnosticSeverity
		summary  string
		detail   string
		line     int
	}{
		"unknown attribute": {
			src: "plugin_cache_dri = \"/x\"\n", severity: hcl.DiagWarning,
			summary: "Unknown CLI configuration setting", detail: "plugin_cache_dri", line: 1,
		},
		"unknown block": {
			src: "\nfrobnicate {\n}\n", severity: hcl.DiagWarning,
			summary: "Unknown CLI configuration setting", detail: "frobnicate", line: 2,
		},
		"unknown method": {
			src: "provider_installation {\n  teleport {}\n}\n", severity: hcl.DiagWarning,
			summary: "Unknown CLI configuration setting", detail: "teleport", line: 2,
		},
		"oci mirror": {
			src: "provider_installation {\n  oci_mirror {\n    repository_template = \"x\"\n  }\n}\n", severity: hcl.DiagError,
			summary: "oci_mirror is not supported", detail: "OCI", line: 2,
		},
		"credentials helper": {
			src: "credentials_helper \"x\" {}\n", severity: hcl.DiagWarning,
			summary: "CLI configuration setting not supported", detail: "credentials_helper", line: 1,
		},
		"http mirror": {
			src: "provider_installation {\n  network_mirror {\n    url = \"http://x/\"\n  }\n}\n", severity: hcl.DiagError,
			summary: "Invalid network mirror URL", detail: "https://", line: 3,
		},
		"bad pattern": {
			src: "provider_installation {\n  direct {\n    exclude = [\"a/b/c/d\"]\n  }\n}\n", severity: hcl.DiagError,
			summary: "Invalid provider pattern", detail: "a/b/c/d", line: 3,
		},
		"missing path": {
			src: "provider_installation {\n  filesystem_mirror {\n  }\n}\n", severity: hcl.DiagError,
			summary: "Missing required argument", detail: "path", line: 2,
		},
		"bad bool": {
			src: "disable_checkpoint = \"yes\"\n", severity: hcl.DiagError,
			summary: "Invalid disable_checkpoint", detail: "true or false", line: 1,
		},
		"bad dev override": {
			src: "provider_installation {\n  dev_overrides {\n    \"a/b/c/d\" = \"/x\"\n  }\n}\n", severity: hcl.DiagError,
			summary: "Invalid provider source address in dev_overrides", detail: "a/b/c/d", line: 2,
		},
		"duplicate installation": {
			src: "provider_installation {\n}\nprovider_installation {\n}\n", severity: hcl.DiagError,
			summary: "Duplicate provider_installation block", detail: "only one", line: 3,
		},
		"bad host": {
			src: "host \"not a host\" {\n  services = {}\n}\n", severity: hcl.DiagError,
			summary: "Invalid hostname", detail: "not a host", line: 1,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, diags := Parse("cli.tfrc", []byte(tc.src))
			if len(diags) == 0 {
				t.Fatal("no diagnostics")
			}
			d := diags[0]
			if d.Severity != tc.severity || d.Summary != tc.summary || !strings.Contains(d.Detail, tc.detail) || d.Subject == nil || d.Subject.Start.Line != tc.line || d.Subject.Filename != "cli.tfrc" {
				t.Fatalf("got %v %q (%q) at %v; want %v %q mentioning %q on line %d", d.Severity, d.Summary, d.Detail, d.Subject, tc.severity, tc.summary, tc.detail, tc.line)
			}
		})
	}
}

func TestLoadLocations(t *testing.T) {
	// Which file's plugin_cache_dir wins.
	cacheDirs := []struct {
		name  string
		files map[string]string // contents by name under the home directory
		env   map[string]string // file names under the home directory
		want  string
	}{
		{"TF_CLI_CONFIG_FILE wins",
			map[string]string{"custom.tfrc": `plugin_cache_dir = "/from-env"`, ".tofurc": `plugin_cache_dir = "/from-tofurc"`},
			map[string]string{"TF_CLI_CONFIG_FILE": "custom.tfrc"}, "/from-env"},
		{"legacy TERRAFORM_CONFIG",
			map[string]string{"legacy.rc": `plugin_cache_dir = "/legacy"`},
			map[string]string{"TERRAFORM_CONFIG": "legacy.rc"}, "/legacy"},
		{"tofurc before terraformrc",
			map[string]string{".terraformrc": `plugin_cache_dir = "/terraformrc"`, ".tofurc": `plugin_cache_dir = "/tofurc"`},
			nil, "/tofurc"},
		{"terraformrc alone",
			map[string]string{".terraformrc": `plugin_cache_dir = "/terraformrc"`},
			nil, "/terraformrc"},
	}
	for _, tc := range cacheDirs {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t, nil)
			for name, src := range tc.files {
				write(t, filepath.Join(env.Home, name), src)
			}
			vars := map[string]string{}
			for k, name := range tc.env {
				vars[k] = filepath.Join(env.Home, name)
			}
			env.Getenv = func(k string) string { return vars[k] }
			cfg, diags := Load(env)
			if diags.HasErrors() || cfg.PluginCacheDir != tc.want {
				t.Fatalf("plugin_cache_dir %q (%v), want %q", cfg.PluginCacheDir, diags, tc.want)
			}
		})
	}
	t.Run("xdg tofurc and tfrc files", func(t *testing.T) {
		env := testEnv(t, nil)
		xdg := filepath.Join(env.Home, "xdg")
		env.Getenv = func(k string) string { return map[string]string{"XDG_CONFIG_HOME": xdg}[k] }
		write(t, filepath.Join(xdg, "opentofu", "tofurc"), `plugin_cache_dir = "/xdg"`)
		write(t, filepath.Join(xdg, "opentofu", "b.tfrc"), `credentials "b.example.com" { token = "b" }`)
		write(t, filepath.Join(xdg, "opentofu", "a.tfrc.json"), `{"credentials": {"a.example.com": {"token": "a"}}}`)
		write(t, filepath.Join(xdg, "opentofu", "ignored.txt"), `nonsense`)
		cfg, diags := Load(env)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		want := []string{filepath.Join(xdg, "opentofu", "tofurc"), filepath.Join(xdg, "opentofu", "a.tfrc.json"), filepath.Join(xdg, "opentofu", "b.tfrc")}
		if diff := cmp.Diff(want, cfg.Files); diff != "" {
			t.Fatalf("files (-want +got):\n%s", diff)
		}
		if cfg.PluginCacheDir != "/xdg" || cfg.Token("a.example.com") != "a" || cfg.Token("B.Example.com") != "b" {
			t.Fatalf("unexpected %+v", cfg)
		}
	})
	t.Run("missing explicit file warns", func(t *testing.T) {
		env := testEnv(t, map[string]string{"TF_CLI_CONFIG_FILE": "/nonexistent/cli.tfrc"})
		_, diags := Load(env)
		if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Detail, "/nonexistent/cli.tfrc") {
			t.Fatalf("got %v", diags)
		}
	})
	t.Run("environment overrides", func(t *testing.T) {
		env := testEnv(t, map[string]string{"TF_PLUGIN_CACHE_DIR": "/env-cache", "TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE": "1"})
		write(t, filepath.Join(env.Home, ".tofurc"), `plugin_cache_dir = "/file-cache"`)
		cfg, _ := Load(env)
		if cfg.PluginCacheDir != "/env-cache" || !cfg.PluginCacheMayBreakDependencyLockFile {
			t.Fatalf("got %+v", cfg)
		}
	})
	t.Run("variables expand in paths", func(t *testing.T) {
		env := testEnv(t, map[string]string{"HOME": "/home/me"})
		write(t, filepath.Join(env.Home, ".tofurc"), `plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"`)
		cfg, _ := Load(env)
		if cfg.PluginCacheDir != "/home/me/.terraform.d/plugin-cache" {
			t.Fatalf("got %q", cfg.PluginCacheDir)
		}
	})
}

func TestTokens(t *testing.T) {
	tests := map[string]struct {
		vars map[string]string
		file string
		host string
		want string
	}{
		"dots":                     {vars: map[string]string{"TF_TOKEN_app_example_com": "t1"}, host: "app.example.com", want: "t1"},
		"hyphens are doubled":      {vars: map[string]string{"TF_TOKEN_my__registry_example_com": "t2"}, host: "my-registry.example.com", want: "t2"},
		"case does not matter":     {vars: map[string]string{"TF_TOKEN_APP_EXAMPLE_COM": "t3"}, host: "app.example.com", want: "t3"},
		"punycode":                 {vars: map[string]string{"TF_TOKEN_xn____caf__dma_example": "t4"}, host: "café.example", want: "t4"},
		"env before file":          {vars: map[string]string{"TF_TOKEN_app_example_com": "env"}, file: `credentials "app.example.com" { token = "file" }`, host: "app.example.com", want: "env"},
		"file when no env":         {file: `credentials "app.example.com" { token = "file" }`, host: "app.example.com", want: "file"},
		"other host gets nothing":  {vars: map[string]string{"TF_TOKEN_app_example_com": "t"}, host: "example.com", want: ""},
		"prefix alone is no token": {vars: map[string]string{"TF_TOKEN_": "t"}, host: "example.com", want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			env := testEnv(t, tc.vars)
			if tc.file != "" {
				write(t, filepath.Join(env.Home, ".tofurc"), tc.file)
			}
			cfg, diags := Load(env)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := cfg.Token(tc.host); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
	if got := EncodeTokenHost("my-registry.example.com"); got != "my__registry_example_com" {
		t.Fatalf("EncodeTokenHost = %q", got)
	}
}

func TestInstallerConfigImplied(t *testing.T) {
	env := testEnv(t, nil)
	work := t.TempDir()
	// An unpacked package in ./terraform.d/plugins and a packed one in
	// ~/.terraform.d/plugins: both are implied mirrors, and direct then
	// excludes the providers they hold.
	write(t, filepath.Join(work, "terraform.d", "plugins", "example.com", "acme", "widget", "1.0.0", "linux_amd64", "terraform-provider-widget"), "#!/bin/sh\n")
	write(t, filepath.Join(env.Home, ".terraform.d", "plugins", "registry.opentofu.org", "hashicorp", "time", "terraform-provider-time_0.14.2_linux_amd64.zip"), "zip")
	cfg, diags := Load(env)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := cfg.InstallerConfig(work)
	want := []getproviders.Method{
		{Kind: getproviders.MethodFilesystemMirror, Location: filepath.Join(work, "terraform.d", "plugins")},
		{Kind: getproviders.MethodFilesystemMirror, Location: filepath.Join(env.Home, ".terraform.d", "plugins")},
		{Kind: getproviders.MethodDirect, Exclude: []getproviders.ProviderPattern{
			pat("example.com", "acme", "widget"), pat("registry.opentofu.org", "hashicorp", "time"),
		}},
	}
	if diff := cmp.Diff(want, got.Methods); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// FuzzParse checks the CLI configuration parser never panics on HCL or
// JSON input, and that a parse without errors yields usable patterns.
func FuzzParse(f *testing.F) {
	f.Add("plugin_cache_dir = \"/x\"\nprovider_installation {\n  dev_overrides {\n    \"hashicorp/time\" = \"/d\"\n  }\n  direct { exclude = [\"a/*\"] }\n}\n", false)
	f.Add(`{"provider_installation": {"network_mirror": {"url": "https://m/"}}}`, true)
	f.Add("host \"x\" { services = { \"providers.v1\" = \"/v1/\" } }\ncredentials \"x\" { token = \"t\" }", false)
	f.Fuzz(func(t *testing.T, src string, json bool) {
		name := "fuzz.tfrc"
		if json {
			name += ".json"
		}
		cfg, diags := Parse(name, []byte(src))
		if diags.HasErrors() || cfg.ProviderInstallation == nil {
			return
		}
		for _, m := range cfg.ProviderInstallation.Methods {
			for _, p := range append(m.Include, m.Exclude...) {
				if _, err := getproviders.ParseProviderPattern(p.String()); err != nil {
					t.Fatalf("pattern %q does not parse back: %v", p, err)
				}
			}
		}
	})
}

func pat(host, ns, typ string) getproviders.ProviderPattern {
	return getproviders.ProviderPattern{Hostname: host, Namespace: ns, Type: typ}
}
