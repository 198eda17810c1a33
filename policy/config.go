package policy

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/tenetplan/tenet/internal/regokit"
)

// Level is how a failing policy affects the run.
type Level string

const (
	// Advisory failures are reported and never block.
	Advisory Level = "advisory"
	// SoftMandatory failures block unless overridden with a reason.
	SoftMandatory Level = "soft-mandatory"
	// HardMandatory failures always block.
	HardMandatory Level = "hard-mandatory"
)

// ParseLevel accepts a level name (case-insensitive; "_" and " " may stand
// for "-").
func ParseLevel(s string) (Level, bool) {
	norm := strings.NewReplacer("_", "-", " ", "-").Replace(strings.ToLower(strings.TrimSpace(s)))
	switch Level(norm) {
	case Advisory, SoftMandatory, HardMandatory:
		return Level(norm), true
	}
	return "", false
}

// Mandatory reports whether a failure at this level blocks.
func (l Level) Mandatory() bool { return l == SoftMandatory || l == HardMandatory }

// ConfigFileName is the policy-set config file looked for at the root of a
// policy directory or bundle. It is never loaded as data.
const ConfigFileName = "policy-set.yaml"

// Capability names a sandboxed group of built-ins a policy set may allow.
type Capability string

const (
	// AllowNetwork allows http.send and net.*.
	AllowNetwork = Capability(regokit.Network)
	// AllowEnvironment allows opa.runtime (environment variables).
	AllowEnvironment = Capability(regokit.Environment)
	// AllowTime allows time.now_ns (the wall clock).
	AllowTime = Capability(regokit.Clock)
)

// sandboxFor is the sandbox of a policy set that allows allow: policies
// are refused the network, the environment and the clock unless allowed;
// what planning rules also refuse (regokit.Unrepeatable: chance, the
// trace, checks against the clock) stays allowed.
func sandboxFor(allow map[Capability]bool) regokit.Sandbox {
	refuse := map[regokit.Kind]bool{}
	for _, c := range []Capability{AllowNetwork, AllowEnvironment, AllowTime} {
		refuse[regokit.Kind(c)] = !allow[c]
	}
	return regokit.Sandbox{Refuse: refuse, Summary: "Sandboxed built-in function in policy", Detail: sandboxDetail}
}

// sandboxDetail explains a refused call by its kind.
func sandboxDetail(name string, r regokit.Refusal) string {
	what := map[regokit.Kind]string{
		regokit.Network:     "reaches the network",
		regokit.Environment: "reads the environment",
		regokit.Clock:       "reads the wall clock",
	}[r.Kind]
	return fmt.Sprintf("%s %s. Policies are sandboxed: remove the call, or allow it in the policy set's %s with \"allow: [%s]\".", name, what, ConfigFileName, r.Kind)
}

// SetConfig is a policy-set config file:
//
//	default_enforcement: soft-mandatory   # deny/violation rules without a level
//	enforcement:                          # by package, package.rule or file
//	  main: soft-mandatory
//	  main.deny_public_bucket: hard-mandatory
//	  tags.rego: advisory
//	allow: [network, environment, time]   # sandbox exceptions
//	timeout: 10s                          # evaluation limit for the whole check
type SetConfig struct {
	DefaultEnforcement Level
	Enforcement        map[string]Level
	Allow              map[Capability]bool
	Timeout            time.Duration
}

type rawSetConfig struct {
	DefaultEnforcement string            `yaml:"default_enforcement"`
	Enforcement        map[string]string `yaml:"enforcement"`
	Allow              []string          `yaml:"allow"`
	Timeout            string            `yaml:"timeout"`
}

// ParseSetConfig decodes a policy-set config file. Unknown keys, levels
// and capabilities are errors, so a typo never silently weakens a gate.
func ParseSetConfig(src []byte) (*SetConfig, error) {
	var raw rawSetConfig
	dec := yaml.NewDecoder(strings.NewReader(string(src)))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil && err.Error() != "EOF" {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	cfg := &SetConfig{Enforcement: map[string]Level{}, Allow: map[Capability]bool{}}
	if raw.DefaultEnforcement != "" {
		l, ok := ParseLevel(raw.DefaultEnforcement)
		if !ok {
			return nil, fmt.Errorf("default_enforcement: %q is not a level (advisory, soft-mandatory or hard-mandatory)", raw.DefaultEnforcement)
		}
		cfg.DefaultEnforcement = l
	}
	keys := make([]string, 0, len(raw.Enforcement))
	for k := range raw.Enforcement {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		l, ok := ParseLevel(raw.Enforcement[k])
		if !ok {
			return nil, fmt.Errorf("enforcement.%s: %q is not a level (advisory, soft-mandatory or hard-mandatory)", k, raw.Enforcement[k])
		}
		cfg.Enforcement[strings.TrimPrefix(k, "data.")] = l
	}
	for _, a := range raw.Allow {
		switch c := Capability(strings.ToLower(strings.TrimSpace(a))); c {
		case AllowNetwork, AllowEnvironment, AllowTime:
			cfg.Allow[c] = true
		default:
			return nil, fmt.Errorf("allow: %q is not a capability (network, environment or time)", a)
		}
	}
	if raw.Timeout != "" {
		d, err := time.ParseDuration(raw.Timeout)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("timeout: %q is not a positive duration such as 10s", raw.Timeout)
		}
		cfg.Timeout = d
	}
	return cfg, nil
}
