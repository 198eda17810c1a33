package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backends"
)

// This file connects the configuration's backend block to the commands:
// it finds the block, remembers its settings at init time in
// .terraform/terraform.tfstate (the layout OpenTofu uses, so either tool
// can work in the directory), and tells every other command where the
// state of the selected workspace lives. A backend tenet cannot use is an
// error, never a quiet fall-back to a local file.

// backendDecl is the backend block of the root module.
type backendDecl struct {
	Type      string
	Body      hcl.Body
	DeclRange hcl.Range
}

// backendSchema finds backend and cloud blocks inside terraform blocks.
var (
	backendFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}}
	backendTFSchema   = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "backend", LabelNames: []string{"type"}}, {Type: "cloud"}}}
)

// findBackend reads the root module's files in the working directory and
// returns its backend block, nil when there is none. A block in an
// override file replaces the one of a primary file.
func findBackend(u *ui) (*backendDecl, hcl.Diagnostics) {
	entries, _ := os.ReadDir(".")
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	names = config.ConfigFiles(names)
	sort.SliceStable(names, func(i, j int) bool { return !config.IsOverrideFile(names[i]) && config.IsOverrideFile(names[j]) })
	p := hclparse.NewParser()
	var found *backendDecl
	var diags hcl.Diagnostics
	for _, name := range names {
		f, d := parseFile(p, name)
		if d.HasErrors() || f == nil {
			continue // the configuration loader reports syntax errors
		}
		if u != nil {
			if u.files == nil {
				u.files = map[string]*hcl.File{}
			}
			if _, ok := u.files[name]; !ok {
				u.files[name] = f
			}
		}
		content, _, _ := f.Body.PartialContent(backendFileSchema)
		for _, tb := range content.Blocks {
			inner, _, _ := tb.Body.PartialContent(backendTFSchema)
			for _, b := range inner.Blocks {
				decl := &backendDecl{Type: "cloud", Body: b.Body, DeclRange: b.DefRange}
				if b.Type == "backend" {
					decl.Type = b.Labels[0]
				}
				if found != nil && !config.IsOverrideFile(name) {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Duplicate backend configuration",
						Detail:   fmt.Sprintf("A module may have only one backend or cloud block; one was already declared at %s. Remove one of them.", found.DeclRange),
						Subject:  b.DefRange.Ptr(),
					})
					continue
				}
				found = decl
			}
		}
	}
	return found, diags
}

// supportedBackend reports whether tenet can keep state in the backend
// type, with an error diagnostic at the block when it cannot.
func supportedBackend(d *backendDecl) hcl.Diagnostics {
	if d.Type == "local" {
		return nil
	}
	for _, t := range backends.Types() {
		if t == d.Type {
			return nil
		}
	}
	if d.Type == "cloud" {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported cloud block", Detail: "tenet cannot keep state in a cloud (TACOS) service. Replace the cloud block with a backend block of a supported type: local, " + strings.Join(backends.Types(), ", ") + ".", Subject: d.DeclRange.Ptr()}}
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported backend type", Detail: fmt.Sprintf("tenet does not support the backend type %q, and will not fall back to a local state in its place. Use one of: local, %s; or run this configuration with OpenTofu.", d.Type, strings.Join(backends.Types(), ", ")), Subject: d.DeclRange.Ptr()}}
}

// localBackendSettings are the arguments the local backend accepts.
var localBackendSettings = map[string]bool{"path": true, "workspace_dir": true}

// backendConfigValues evaluates a backend block's arguments. They may use
// the root module's variables and locals, computed early (config's
// StaticBody).
func backendConfigValues(u *ui, d *backendDecl) (map[string]cty.Value, hcl.Diagnostics) {
	vals := map[string]cty.Value{}
	if d == nil {
		return vals, nil
	}
	attrs, diags := d.Body.JustAttributes()
	for name, a := range attrs {
		if d.Type == "local" && !localBackendSettings[name] {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: fmt.Sprintf("The local backend has no argument %q; it accepts path and workspace_dir.", name), Subject: a.NameRange.Ptr()})
		}
	}
	if diags.HasErrors() {
		return vals, diags
	}
	evaluated, d2 := u.earlyRoot().StaticBody(d.Body, "backend."+d.Type, d.DeclRange)
	diags = append(diags, d2...)
	for k, v := range evaluated {
		vals[k] = v
	}
	return vals, diags
}

// earlyRoot is the root module as early evaluation reads it, once per
// run.
func (u *ui) earlyRoot() *config.Module {
	if u.early.root == nil {
		u.early.root, _ = config.ReadModule(".", ".", addrs.RootModule, nil, nil, u.staticInputs())
	}
	return u.early.root
}

// backendState is .terraform/terraform.tfstate: what init recorded about
// the backend.
type backendState struct {
	Version int                `json:"version"`
	Serial  int64              `json:"serial"`
	Lineage string             `json:"lineage"`
	Backend *backendStateEntry `json:"backend,omitempty"`
}

type backendStateEntry struct {
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config"`
	Hash   uint64          `json:"hash"`
}

// dataDir is the working directory's data directory (TF_DATA_DIR).
func dataDir(env []string) string {
	if d := lookupEnv(env, "TF_DATA_DIR"); d != "" {
		return d
	}
	return ".terraform"
}

func lookupEnv(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			v = kv[len(name)+1:]
		}
	}
	return v
}

func backendStatePath(env []string) string { return filepath.Join(dataDir(env), "terraform.tfstate") }

func readBackendState(env []string) (*backendState, error) {
	b, err := os.ReadFile(backendStatePath(env))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s backendState
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON: %v", backendStatePath(env), err)
	}
	return &s, nil
}

// configHash identifies a backend block's own settings (without
// -backend-config), to notice that the block changed after init.
func configHash(typ string, vals map[string]cty.Value) (uint64, error) {
	raw, err := encodeSettings(vals)
	if err != nil {
		return 0, err
	}
	return uint64(crc32.ChecksumIEEE(append([]byte(typ+"\x00"), raw...))), nil
}

func encodeSettings(vals map[string]cty.Value) ([]byte, error) {
	if len(vals) == 0 {
		return []byte("{}"), nil
	}
	obj := cty.ObjectVal(vals)
	return ctyjson.Marshal(obj, obj.Type())
}

// sameJSON compares two JSON texts apart from their layout: the settings
// read back from .terraform/terraform.tfstate are indented, fresh ones not.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return string(a) == string(b)
	}
	return ca.String() == cb.String()
}

func decodeSettings(raw json.RawMessage) (map[string]cty.Value, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]cty.Value{}, nil
	}
	ty, err := ctyjson.ImpliedType(raw)
	if err != nil {
		return nil, err
	}
	v, err := ctyjson.Unmarshal(raw, ty)
	if err != nil {
		return nil, err
	}
	out := map[string]cty.Value{}
	if v.Type().IsObjectType() {
		for k, e := range v.AsValueMap() {
			out[k] = e
		}
	}
	return out, nil
}

// initBackend is init's backend step: it checks the backend block, merges
// -backend-config, and records the result in .terraform/terraform.tfstate.
func initBackend(ctx context.Context, u *ui, env []string, extra []string, reconfigure bool, mig migrationOptions) error {
	decl, diags := findBackend(u)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	if decl != nil {
		if d := supportedBackend(decl); d.HasErrors() {
			return u.fail(d)
		}
	}
	if decl == nil && len(extra) > 0 {
		return u.errorf("Invalid -backend-config", "-backend-config was given, but the configuration has no backend block to apply it to. Add a backend block to a terraform block, or drop -backend-config.")
	}
	vals, diags := backendConfigValues(u, decl)
	if diags.HasErrors() {
		return u.fail(diags)
	}
	var hash uint64
	if decl != nil {
		var err error
		if hash, err = configHash(decl.Type, vals); err != nil {
			return u.errorf("Invalid backend configuration", "%s", err)
		}
	}
	for _, e := range extra {
		more, d := parseBackendConfigArg(e)
		if d.HasErrors() {
			return u.fail(d)
		}
		for k, v := range more {
			if decl.Type == "local" && !localBackendSettings[k] {
				if strings.Contains(e, "=") {
					return u.errorf("Invalid backend configuration argument", "The backend configuration argument %q given on the command line is not expected for the selected backend type.", k)
				}
				return u.errorf("Invalid -backend-config", "The local backend has no argument %q; it accepts path and workspace_dir.", k)
			}
			vals[k] = v
		}
	}
	old, err := readBackendState(env)
	if err != nil {
		return u.errorf("Failed to read the backend settings", "%s\n\nDelete the file and run init again.", err)
	}
	oldType := ""
	if old != nil && old.Backend != nil {
		oldType = old.Backend.Type
	}
	newType := ""
	if decl != nil {
		newType = decl.Type
	}
	raw, err := encodeSettings(vals)
	if err != nil {
		return u.errorf("Invalid backend configuration", "%s", err)
	}
	var changed bool
	switch {
	case oldType != newType:
		changed = true
	case old == nil || old.Backend == nil:
	case old.Backend.Hash == hash && len(extra) == 0 && !reconfigure:
		// As OpenTofu: the block as recorded and no -backend-config
		// keep the recorded settings, those -backend-config gave
		// before included.
		var buf bytes.Buffer
		if json.Compact(&buf, old.Backend.Config) == nil {
			if saved, err := decodeSettings(old.Backend.Config); err == nil {
				raw, vals = buf.Bytes(), saved
			}
		}
	default:
		// The same settings reached another way (a value moved
		// between the block and -backend-config) are no change.
		changed = !sameJSON(old.Backend.Config, raw)
	}
	needMigrate := false
	if changed && oldType != "" && !reconfigure {
		if !mig.migrate {
			return u.errorf("Backend configuration changed", "A change in the backend configuration has been detected, which may require migrating existing state.\n\nIf you wish to attempt automatic migration of the state, use \"tenet init -migrate-state\".\nIf you wish to store the current configuration with no changes to the state, use \"tenet init -reconfigure\".")
		}
		needMigrate = true
	}
	// A state kept in the implied local backend moves into a newly
	// declared backend, after asking, as OpenTofu does.
	if oldType == "" && decl != nil && !reconfigure {
		needMigrate = true
	}
	var oldSettings map[string]cty.Value
	if needMigrate && old != nil && old.Backend != nil {
		if oldSettings, err = decodeSettings(old.Backend.Config); err != nil {
			return u.errorf("Failed to read the backend settings", "%s: %s\n\nRun init with -reconfigure to record the new settings without copying state.", backendStatePath(env), err)
		}
	}
	if decl == nil {
		if oldType != "" {
			if needMigrate {
				if _, err := migrateState(ctx, u, mig.answers, mig.lock, mig.lockTimeout, oldType, oldSettings, "local", vals); err != nil {
					return err
				}
			}
			if err := os.Remove(backendStatePath(env)); err != nil {
				return u.errorf("Failed to update the backend settings", "%s", err)
			}
		}
		return nil
	}
	if decl.Type != "local" {
		// Check the settings before recording them, so a mistake shows
		// here and the last good settings stay recorded.
		settings, d := backend.DecodeBody(decl.Body) // keeps the block's ranges for diagnostics
		if d.HasErrors() {
			return u.fail(d)
		}
		for k, v := range vals {
			settings.Set(k, v)
		}
		b, d := backends.Configure(ctx, decl.Type, settings)
		if d.HasErrors() {
			return u.fail(d)
		}
		u.diagnostics(d)
		b.Close()
	}
	emptySources := func() {}
	if needMigrate {
		if emptySources, err = migrateState(ctx, u, mig.answers, mig.lock, mig.lockTimeout, oldType, oldSettings, decl.Type, vals); err != nil {
			return err
		}
	}
	st := &backendState{Version: 3, Serial: 1, Lineage: uuid.NewString()}
	if old != nil {
		st.Lineage, st.Serial = old.Lineage, old.Serial
		if changed {
			st.Serial++
		}
	}
	st.Backend = &backendStateEntry{Type: decl.Type, Config: raw, Hash: hash}
	if err := os.MkdirAll(dataDir(env), 0o755); err != nil {
		return u.errorf("Failed to prepare the working directory", "%s", err)
	}
	b, _ := json.MarshalIndent(st, "", "  ")
	if err := os.WriteFile(backendStatePath(env), append(b, '\n'), 0o644); err != nil {
		return u.errorf("Failed to save the backend settings", "%s", err)
	}
	emptySources()
	if changed || old == nil || old.Backend == nil {
		u.output(fmt.Sprintf("[reset][green]\nSuccessfully configured the backend %q! tenet will automatically\nuse this backend unless the backend configuration changes.", decl.Type))
	}
	return nil
}

// parseBackendConfigArg reads one -backend-config value: KEY=VALUE or
// the name of a file of arguments.
func parseBackendConfigArg(arg string) (map[string]cty.Value, hcl.Diagnostics) {
	if k, v, ok := strings.Cut(arg, "="); ok {
		if k == "" {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid -backend-config", Detail: fmt.Sprintf("%q has no argument name before \"=\". Write -backend-config=NAME=VALUE or name a file.", arg)}}
		}
		return map[string]cty.Value{k: cty.StringVal(v)}, nil
	}
	src, err := os.ReadFile(arg)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read file", Detail: fmt.Sprintf("The file %q could not be read.", arg)}}
	}
	f, diags := config.ParseSource(hclparse.NewParser(), src, arg)
	if diags.HasErrors() {
		return nil, diags
	}
	attrs, diags := f.Body.JustAttributes()
	out := map[string]cty.Value{}
	for name, a := range attrs {
		v, d := a.Expr.Value(nil)
		diags = append(diags, d...)
		out[name] = v
	}
	return out, diags
}

// stateLocation is where the selected workspace's state lives.
type stateLocation struct {
	Type      string // "local" when there is no backend block
	Workspace string
	Path      string // the local state file
	Settings  map[string]cty.Value
	// WorkspaceDir holds the local backend's other workspaces.
	WorkspaceDir string
}

// resolveBackend finds where the state lives for the selected workspace,
// checking that init recorded the backend block as it is now.
func resolveBackend(u *ui, env []string) (*stateLocation, error) {
	decl, diags := findBackend(u)
	if diags.HasErrors() {
		return nil, u.fail(diags)
	}
	ws, err := currentWorkspace(env)
	if err != nil {
		return nil, u.errorf("Invalid workspace selection", "%s", err)
	}
	loc := &stateLocation{Type: "local", Workspace: ws, Settings: map[string]cty.Value{}}
	old, err := readBackendState(env)
	if err != nil {
		return nil, u.errorf("Failed to read the backend settings", "%s\n\nRun init again to record them.", err)
	}
	if decl == nil {
		if old != nil && old.Backend != nil && old.Backend.Type != "local" {
			return nil, u.fail(hcl.Diagnostics{backendInitRequired(", please", fmt.Sprintf("Unsetting the previously set backend %q", old.Backend.Type))})
		}
	} else {
		if d := supportedBackend(decl); d.HasErrors() {
			return nil, u.fail(d)
		}
		vals, diags := backendConfigValues(u, decl)
		if diags.HasErrors() {
			return nil, u.fail(diags)
		}
		hash, err := configHash(decl.Type, vals)
		if err != nil {
			return nil, u.errorf("Invalid backend configuration", "%s", err)
		}
		switch {
		case old == nil || old.Backend == nil:
			return nil, u.fail(hcl.Diagnostics{backendInitRequired(", please", fmt.Sprintf("Initial configuration of the requested backend %q", decl.Type))})
		case old.Backend.Type != decl.Type:
			return nil, u.fail(hcl.Diagnostics{backendInitRequired(": please", fmt.Sprintf("Backend type changed from %q to %q", old.Backend.Type, decl.Type))})
		case old.Backend.Hash != hash:
			return nil, u.fail(hcl.Diagnostics{backendInitRequired(": please", "Backend configuration block has changed")})
		}
		loc.Type = decl.Type
		if loc.Settings, err = decodeSettings(old.Backend.Config); err != nil {
			return nil, u.errorf("Failed to read the backend settings", "%s: %s\n\nRun \"tenet init -reconfigure\" to record them again.", backendStatePath(env), err)
		}
	}
	if loc.Type == "local" {
		path, dir := defaultStatePath, "terraform.tfstate.d"
		if v, ok := loc.Settings["path"]; ok && v.Type() == cty.String && !v.IsNull() && v.AsString() != "" {
			path = v.AsString()
		}
		if v, ok := loc.Settings["workspace_dir"]; ok && v.Type() == cty.String && !v.IsNull() && v.AsString() != "" {
			dir = v.AsString()
		}
		loc.WorkspaceDir = dir
		loc.Path = path
		if ws != "default" {
			loc.Path = filepath.Join(dir, ws, defaultStatePath)
		}
	}
	return loc, nil
}

// backendInitRequired is OpenTofu's error for a backend block that init
// has not recorded as it is now; OpenTofu words the summary with ", please"
// or ": please" depending on the case.
func backendInitRequired(sep, reason string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Backend initialization required" + sep + " run \"tenet init\"",
		Detail: "Reason: " + reason + `

The "backend" is the interface that tenet uses to store state,
perform operations, etc. If this message is showing up, it means that the
tenet configuration you're using is using a custom configuration for
the tenet backend.

Changes to backend configurations require reinitialization. This allows
tenet to set up the new configuration, copy existing state, etc. Please run
"tenet init" with either the "-reconfigure" or "-migrate-state" flags to
use the current configuration.

If the change reason above is incorrect, please verify your configuration
hasn't changed and try again. At this point, no changes to your existing
configuration or state have been made.`,
	}
}

// currentWorkspace is the selected workspace: TF_WORKSPACE, else the
// data directory's environment file, else "default".
func currentWorkspace(env []string) (string, error) {
	if ws := lookupEnv(env, "TF_WORKSPACE"); ws != "" {
		if !validWorkspaceName(ws) {
			return "", fmt.Errorf("TF_WORKSPACE is set to %q, which is not a valid workspace name (names are used in paths and URLs: no slashes, spaces or other characters that need escaping). Unset TF_WORKSPACE or fix it", ws)
		}
		return ws, nil
	}
	b, err := os.ReadFile(filepath.Join(dataDir(env), "environment"))
	if os.IsNotExist(err) {
		return "default", nil
	}
	if err != nil {
		return "", err
	}
	ws := strings.TrimSpace(string(b))
	if ws == "" {
		return "default", nil
	}
	return ws, nil
}

func validWorkspaceName(name string) bool {
	return name != "" && url.PathEscape(name) == name
}

// backendFlags are init's backend flags.
type backendFlags struct {
	configs              []string
	enabled              bool
	cloudEnabled         bool // -cloud, an alias of -backend
	reconfigure, migrate bool
	forceCopy            bool
	cmd                  *cobra.Command // for -input, -lock and -lock-timeout
	answers              *answers       // the replies to migration's questions
}

// migrationOptions are init's options for copying state to a changed
// backend.
type migrationOptions struct {
	migrate     bool // -migrate-state or -force-copy
	answers     migrationAnswers
	lock        bool
	lockTimeout time.Duration
}

func (f *backendFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.configs, "backend-config", nil, "a backend setting NAME=VALUE, or a file of settings (repeatable)")
	cmd.Flags().BoolVar(&f.enabled, "backend", true, "initialize the backend (-backend=false skips it)")
	cmd.Flags().BoolVar(&f.cloudEnabled, "cloud", true, "the same as -backend (OpenTofu's alias); give one of the two")
	cmd.Flags().BoolVar(&f.reconfigure, "reconfigure", false, "record the backend settings anew, ignoring the ones saved by the last init")
	f.cmd = cmd
	cmd.Flags().BoolVar(&f.migrate, "migrate-state", false, "copy every workspace's state to the changed backend, asking first")
	cmd.Flags().BoolVar(&f.forceCopy, "force-copy", false, "copy the state to the changed backend without asking (implies -migrate-state)")
}

// run checks the flags and initializes the backend. A backend error
// that comes after the flags were found fine is returned as deferred:
// its diagnostics are in held, not yet shown, since OpenTofu installs the
// modules before it shows them.
func (f *backendFlags) run(ctx context.Context, u *ui, env []string, held *bytes.Buffer) (deferred bool, err error) {
	if skip, err := f.check(u); err != nil || skip {
		return false, err
	}
	u.output("\n[reset][bold]Initializing the backend...")
	bu := *u
	bu.errw = held
	err = initBackend(ctx, &bu, env, f.configs, f.reconfigure, f.migrationOptions(u, env))
	u.files = bu.files
	return err != nil, err
}

// check reads the backend flags: an error for a combination that makes
// no sense, skip for -backend=false.
func (f *backendFlags) check(u *ui) (skip bool, _ error) {
	switch backendSet, cloudSet := f.cmd.Flags().Changed("backend"), f.cmd.Flags().Changed("cloud"); {
	case backendSet && cloudSet:
		return false, plainError(u, u.color, "The -backend and -cloud options are aliases of one another and mutually-exclusive in their use")
	case cloudSet:
		f.enabled = f.cloudEnabled
	}
	if !f.enabled {
		if len(f.configs) > 0 || f.reconfigure || f.migrate || f.forceCopy {
			return false, u.errorf("Invalid init options", "-backend=false skips the backend, so -backend-config, -reconfigure, -migrate-state and -force-copy would have no effect. Drop one or the other.")
		}
		return true, nil
	}
	if f.reconfigure && (f.migrate || f.forceCopy) {
		return false, u.errorf("Invalid init options", "-reconfigure drops the old backend settings without copying state, and -migrate-state/-force-copy copy it: choose one.")
	}
	return false, nil
}

// migrationOptions reads the init flags migration uses besides its own:
// -input (and TF_INPUT), -lock and -lock-timeout.
func (f *backendFlags) migrationOptions(u *ui, env []string) migrationOptions {
	o := migrationOptions{migrate: f.migrate || f.forceCopy, lock: true}
	o.answers.forceCopy = f.forceCopy
	input := true
	if f.cmd != nil {
		if fl := f.cmd.Flags().Lookup("input"); fl != nil {
			input = fl.Value.String() == "true"
		}
	}
	o.answers.input = inputEnabled(input, env)
	if f.cmd == nil {
		return o
	}
	if v, err := f.cmd.Flags().GetBool("lock"); err == nil {
		o.lock = v
	}
	if v, err := f.cmd.Flags().GetDuration("lock-timeout"); err == nil {
		o.lockTimeout = v
	}
	o.answers.ask = func(question, explanation string) (bool, error) {
		var prompt strings.Builder
		fmt.Fprintf(&prompt, "%s\n", question)
		for _, line := range strings.Split(explanation, "\n") {
			fmt.Fprintf(&prompt, "  %s\n", line)
		}
		prompt.WriteString("\n  Enter a value: ")
		return f.answers.askYesOrFail(f.cmd.Context(), u.out, prompt.String())
	}
	return o
}

// parseFile parses a configuration file in JSON syntax when its name ends
// in .json, and in native syntax otherwise.
func parseFile(p *hclparse.Parser, name string) (*hcl.File, hcl.Diagnostics) {
	if strings.HasSuffix(name, ".json") {
		return p.ParseJSONFile(name)
	}
	return p.ParseHCLFile(name)
}
