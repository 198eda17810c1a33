package cliconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	svchost "github.com/hashicorp/terraform-svchost"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/net/idna"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
)

// Config is the merged CLI configuration.
type Config struct {
	// ProviderInstallation is the provider_installation block, or nil.
	ProviderInstallation *ProviderInstallation

	PluginCacheDir                        string
	PluginCacheMayBreakDependencyLockFile bool
	DisableCheckpoint                     bool
	DisableCheckpointSignature            bool

	// Hosts maps a hostname, in the form provider addresses hold it, to
	// its forced service discovery answer (service ID to URL).
	Hosts map[string]map[string]string
	// Credentials maps a normalised hostname to its token from a
	// credentials block; TF_TOKEN_* variables are consulted by Token.
	Credentials map[string]string

	// Files lists the files that were read, in order.
	Files []string

	env Env
}

// ProviderInstallation is the provider_installation block.
type ProviderInstallation struct {
	DevOverrides map[addrs.Provider]string
	Methods      []getproviders.Method
	DeclRange    hcl.Range
}

var topSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "plugin_cache_dir"},
		{Name: "plugin_cache_may_break_dependency_lock_file"},
		{Name: "disable_checkpoint"},
		{Name: "disable_checkpoint_signature"},
		// Known to OpenTofu but not used by tenet: warned about below.
		{Name: "provider_installation_oci"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "provider_installation"},
		{Type: "host", LabelNames: []string{"hostname"}},
		{Type: "credentials", LabelNames: []string{"hostname"}},
		{Type: "credentials_helper", LabelNames: []string{"type"}},
		{Type: "oci_default_credentials"},
		{Type: "oci_credentials", LabelNames: []string{"registry"}},
	},
}

// Load reads the CLI configuration as OpenTofu does: the main file, then
// every *.tfrc and *.tfrc.json in the configuration directory in name
// order, then the environment variables that override file settings.
// Unknown settings are warned about, never silently ignored.
func Load(env Env) (*Config, hcl.Diagnostics) {
	cfg := &Config{env: env, Hosts: map[string]map[string]string{}, Credentials: map[string]string{}}
	var diags hcl.Diagnostics
	main, explicit := env.MainFile()
	if src, err := os.ReadFile(main); err == nil {
		diags = append(diags, cfg.loadFile(main, src)...)
	} else if errors.Is(err, fs.ErrNotExist) && explicit {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Unable to open CLI configuration file",
			Detail:   fmt.Sprintf("The CLI configuration file at %q does not exist.", main),
		})
	} else if !errors.Is(err, fs.ErrNotExist) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Cannot read the CLI configuration file",
			Detail:   fmt.Sprintf("Reading %s failed: %s. Its settings are not used; fix the file or the TF_CLI_CONFIG_FILE variable.", main, err),
		})
	}
	dir := env.ConfigDir()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".tfrc") || strings.HasSuffix(name, ".tfrc.json")) {
			continue
		}
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Cannot read a CLI configuration file",
				Detail:   fmt.Sprintf("Reading %s failed: %s. Its settings are not used.", path, err),
			})
			continue
		}
		diags = append(diags, cfg.loadFile(path, src)...)
	}
	cfg.applyEnv()
	return cfg, diags
}

// Parse reads one CLI configuration file's source (HCL, or JSON when the
// name ends in .json) into a configuration of its own, for tests and
// tools; Load is what the CLI uses.
func Parse(filename string, src []byte) (*Config, hcl.Diagnostics) {
	cfg := &Config{Hosts: map[string]map[string]string{}, Credentials: map[string]string{}}
	return cfg, cfg.loadFile(filename, src)
}

func (c *Config) applyEnv() {
	if d := c.env.getenv("TF_PLUGIN_CACHE_DIR"); d != "" {
		c.PluginCacheDir = d
	}
	if c.env.getenv("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE") != "" {
		c.PluginCacheMayBreakDependencyLockFile = true
	}
	if c.env.getenv("CHECKPOINT_DISABLE") != "" {
		c.DisableCheckpoint = true
	}
}

func (c *Config) loadFile(filename string, src []byte) hcl.Diagnostics {
	c.Files = append(c.Files, filename)
	p := hclparse.NewParser()
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(filename, ".json") {
		f, diags = p.ParseJSON(src, filename)
	} else {
		f, diags = p.ParseHCL(quotedBodyKeys(src, filename), filename)
	}
	if diags.HasErrors() {
		return diags
	}
	content, more := f.Body.Content(topSchema)
	diags = append(diags, unknownAsWarnings(withoutEmptyJSONBlocks(more, filename), "the CLI configuration")...)

	for _, name := range slices.Sorted(maps.Keys(content.Attributes)) {
		a := content.Attributes[name]
		switch name {
		case "plugin_cache_dir":
			if s, ok := stringValue(a, &diags); ok {
				c.PluginCacheDir = os.Expand(s, c.env.getenv)
			}
		case "plugin_cache_may_break_dependency_lock_file":
			if b, ok := boolValue(a, &diags); ok {
				c.PluginCacheMayBreakDependencyLockFile = b
			}
		case "disable_checkpoint":
			if b, ok := boolValue(a, &diags); ok {
				c.DisableCheckpoint = b
			}
		case "disable_checkpoint_signature":
			if b, ok := boolValue(a, &diags); ok {
				c.DisableCheckpointSignature = b
			}
		default:
			diags = append(diags, notSupported(name, a.NameRange))
		}
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "provider_installation":
			if c.ProviderInstallation != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate provider_installation block",
					Detail:   fmt.Sprintf("The CLI configuration already has a provider_installation block at %s; there may be only one across all CLI configuration files. Merge the two.", c.ProviderInstallation.DeclRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			pi, more := decodeProviderInstallation(b, c.env)
			diags = append(diags, more...)
			c.ProviderInstallation = pi
		case "host":
			host, ok := hostLabel(b, &diags)
			if !ok {
				continue
			}
			services, more := decodeHost(b)
			diags = append(diags, more...)
			if services != nil {
				// Keyed like addrs.Provider.Hostname (the display form),
				// which is what the installer looks up.
				c.Hosts[svchost.Hostname(host).ForDisplay()] = services
			}
		case "credentials":
			host, ok := hostLabel(b, &diags)
			if !ok {
				continue
			}
			token, more := decodeCredentials(b)
			diags = append(diags, more...)
			if token != "" {
				c.Credentials[host] = token
			}
		default:
			diags = append(diags, notSupported(b.Type, b.TypeRange))
		}
	}
	return diags
}

// withoutEmptyJSONBlocks drops the error HCL's JSON syntax gives an
// empty object where labelled blocks go: {"credentials": {}} is what
// OpenTofu's logout leaves in credentials.tfrc.json when it removes the
// last token, and means no blocks, as it does to OpenTofu.
func withoutEmptyJSONBlocks(diags hcl.Diagnostics, filename string) hcl.Diagnostics {
	if !strings.HasSuffix(filename, ".json") {
		return diags
	}
	out := diags[:0:0]
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary == "Missing block label" {
			continue
		}
		out = append(out, d)
	}
	return out
}

func notSupported(name string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "CLI configuration setting not supported",
		Detail:   fmt.Sprintf("tenet does not support %s and ignores it. Remove it from the CLI configuration to silence this warning.", name),
		Subject:  rng.Ptr(),
	}
}

// unknownAsWarnings turns HCL's errors about arguments and blocks missing
// from a schema into warnings that name them: an unknown setting is
// reported, but does not stop the command.
func unknownAsWarnings(diags hcl.Diagnostics, where string) hcl.Diagnostics {
	out := make(hcl.Diagnostics, 0, len(diags))
	for _, d := range diags {
		if d.Severity == hcl.DiagError && (d.Summary == "Unsupported argument" || d.Summary == "Unsupported block type" || d.Summary == "Extraneous JSON object property") {
			w := *d
			w.Severity = hcl.DiagWarning
			w.Summary = "Unknown CLI configuration setting"
			w.Detail = fmt.Sprintf("%s It is ignored in %s; check its spelling or remove it.", strings.TrimSpace(d.Detail), where)
			out = append(out, &w)
			continue
		}
		out = append(out, d)
	}
	return out
}

func hostLabel(b *hcl.Block, diags *hcl.Diagnostics) (string, bool) {
	h, err := svchost.ForComparison(b.Labels[0])
	if err != nil {
		*diags = append(*diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid hostname",
			Detail:   fmt.Sprintf("%q is not a valid hostname: %s.", b.Labels[0], err),
			Subject:  b.LabelRanges[0].Ptr(),
		})
		return "", false
	}
	return string(h), true
}

func decodeHost(b *hcl.Block) (map[string]string, hcl.Diagnostics) {
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "services", Required: true}}})
	diags = unknownAsWarnings(diags, "a host block")
	a := content.Attributes["services"]
	if a == nil {
		return nil, diags
	}
	v, ok := evalAttr(a, &diags)
	if !ok {
		return nil, diags
	}
	if v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid host services",
			Detail:   "services must be an object mapping service IDs such as \"providers.v1\" to URLs.",
			Subject:  a.Expr.Range().Ptr(),
		})
	}
	out := map[string]string{}
	for k, sv := range v.AsValueMap() {
		if sv.IsNull() || !sv.Type().Equals(cty.String) {
			// Services whose value is not a URL (such as login.v1's
			// object) are valid discovery answers but unused here.
			continue
		}
		out[k] = sv.AsString()
	}
	return out, diags
}

func decodeCredentials(b *hcl.Block) (string, hcl.Diagnostics) {
	attrs, diags := b.Body.JustAttributes()
	token := ""
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		a := attrs[name]
		if name != "token" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Unknown CLI configuration setting",
				Detail:   fmt.Sprintf("credentials blocks support only token; %s is ignored.", name),
				Subject:  a.NameRange.Ptr(),
			})
			continue
		}
		if s, ok := stringValue(a, &diags); ok {
			token = s
		}
	}
	return token, diags
}

func stringValue(a *hcl.Attribute, diags *hcl.Diagnostics) (string, bool) {
	v, ok := evalAttr(a, diags)
	if !ok {
		return "", false
	}
	if v.IsNull() || !v.Type().Equals(cty.String) {
		invalidAttr(a, diags, "a string")
		return "", false
	}
	return v.AsString(), true
}

func boolValue(a *hcl.Attribute, diags *hcl.Diagnostics) (bool, bool) {
	v, ok := evalAttr(a, diags)
	if !ok {
		return false, false
	}
	if v.IsNull() || !v.Type().Equals(cty.Bool) {
		invalidAttr(a, diags, "true or false")
		return false, false
	}
	return v.True(), true
}

func stringListValue(a *hcl.Attribute, diags *hcl.Diagnostics) ([]string, bool) {
	v, ok := evalAttr(a, diags)
	if !ok {
		return nil, false
	}
	ty := v.Type()
	if v.IsNull() || !(ty.IsListType() || ty.IsTupleType() || ty.IsSetType()) {
		invalidAttr(a, diags, "a list of strings")
		return nil, false
	}
	var out []string
	for _, ev := range v.AsValueSlice() {
		if ev.IsNull() || !ev.Type().Equals(cty.String) {
			invalidAttr(a, diags, "a list of strings")
			return nil, false
		}
		out = append(out, ev.AsString())
	}
	return out, true
}

// evalAttr evaluates a setting, which can refer to nothing (no variables
// or functions in CLI configuration); false when that failed.
func evalAttr(a *hcl.Attribute, diags *hcl.Diagnostics) (cty.Value, bool) {
	v, more := a.Expr.Value(nil)
	*diags = append(*diags, more...)
	return v, !more.HasErrors()
}

// invalidAttr reports a setting whose value is of the wrong kind; mustBe
// says what it should be ("a string").
func invalidAttr(a *hcl.Attribute, diags *hcl.Diagnostics, mustBe string) {
	*diags = append(*diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + a.Name,
		Detail:   fmt.Sprintf("%s must be %s.", a.Name, mustBe),
		Subject:  a.Expr.Range().Ptr(),
	})
}

// Token returns the bearer token for host: a TF_TOKEN_<host> variable
// first, then a credentials block, as OpenTofu does.
func (c *Config) Token(host string) string {
	h, err := svchost.ForComparison(host)
	if err != nil {
		return ""
	}
	if t, ok := tokenFromEnv(c.env.environ(), string(h)); ok {
		return t
	}
	return c.Credentials[string(h)]
}

// tokenFromEnv finds TF_TOKEN_<encoded host>. In the name, a "." of the
// hostname is written "_" and a "-" is written "__" (environment variable
// names cannot hold either); non-ASCII hostnames use their punycode form.
// The last matching variable wins.
func tokenFromEnv(environ []string, host string) (string, bool) {
	var tok string
	found := false
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		enc, ok := strings.CutPrefix(name, "TF_TOKEN_")
		if !ok || enc == "" {
			continue
		}
		if h, ok := DecodeTokenHost(enc); ok && h == host {
			tok, found = val, true
		}
	}
	return tok, found
}

// DecodeTokenHost turns the part of a TF_TOKEN_ variable's name after the
// prefix into a normalised hostname.
func DecodeTokenHost(enc string) (string, bool) {
	s := strings.ReplaceAll(enc, "__", "\x00")
	s = strings.ReplaceAll(s, "_", ".")
	s = strings.ReplaceAll(s, "\x00", "-")
	// Non-ASCII hostnames can only be written in punycode here, which
	// svchost does not accept: turn them back into unicode first.
	if u, err := idna.ToUnicode(s); err == nil {
		s = u
	}
	h, err := svchost.ForComparison(s)
	if err != nil {
		return "", false
	}
	return string(h), true
}

// EncodeTokenHost is the inverse: the variable name suffix for a host.
func EncodeTokenHost(host string) string {
	s := strings.ReplaceAll(host, "-", "__")
	return strings.ReplaceAll(s, ".", "_")
}
