package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/rules"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"

	"github.com/tenetplan/tenet/cli/views/jsonui"
)

const defaultStatePath = "terraform.tfstate"

// ui is how one command run talks to the person or program running it.
type ui struct {
	out, errw io.Writer
	// planWarnings are a plan's warnings held back by apply, which shows
	// them with the apply's own diagnostics (as OpenTofu).
	planWarnings hcl.Diagnostics
	color        bool
	json         *jsonui.JSONView // non-nil with -json
	files        map[string]*hcl.File
	env          []string // the process environment (Deps.Env)
	// compactWarnings (-compact-warnings) shows warnings that come
	// without errors as a list of summaries (compactwarnings.go).
	compactWarnings bool
	deprecation     deprecationLevel
	// showSensitive (-show-sensitive) draws sensitive values in human
	// output instead of hiding them; -json output always has them.
	showSensitive bool
	log           *coreLog // TF_LOG; nil when off
	// lateFailure marks the run failed after its result (globals.lateFailure).
	lateFailure *bool
	configDir   string // the configuration's directory when not the working directory (import -config)
	// legacyDiags marks the commands whose diagnostics OpenTofu prints
	// through its older message interface: each one is followed by an
	// empty line (with colour, wrapped in its severity's colour and the
	// line is of resets) (init, import, taint, state, graph, fmt, get,
	// providers, console).
	legacyDiags bool
	// consolidateWarnings and consolidateErrors fold diagnostics that
	// share a summary (consolidate.go).
	consolidateWarnings, consolidateErrors bool
	// early gives the loader the variables module sources and the
	// backend block use (earlyvars.go).
	early *earlyVars
}

// newUI sets up a command's output. Human output is coloured unless
// -no-color is given, whether or not it goes to a terminal, as OpenTofu
// does; a non-empty NO_COLOR also turns colour off, a tenet extension
// (OpenTofu ignores NO_COLOR).
func newUI(cmd *cobra.Command, g *globals, noColor, jsonMode bool) *ui {
	u := &ui{out: cmd.OutOrStdout(), errw: cmd.ErrOrStderr(), color: !noColor && !envSet(g.deps.Env, "NO_COLOR"), env: g.deps.Env, log: g.log, lateFailure: &g.lateFailure}
	u.consolidateWarnings, u.consolidateErrors = consolidationFlags(cmd)
	u.early = newEarlyVars(cmd, g, u, jsonMode)
	var jsonLog func(string)
	if jsonMode {
		u.json = jsonui.NewJSONView(u.out)
		u.json.Version(Version)
		jsonLog = u.json.Log
	}
	if g.intr != nil {
		g.intr.useView(func(d hcl.Diagnostics) { u.diagnostics(d) }, jsonLog)
	}
	return u
}

// colorize expands a message template's colour tags, or removes them
// with -no-color (views.Colorize).
func (u *ui) colorize(template string) string { return views.Colorize(template, u.color) }

// noColorFlag reads -no-color for commands that take it only as the root
// command's persistent flag.
func noColorFlag(cmd *cobra.Command) bool {
	v, _ := cmd.Flags().GetBool("no-color")
	return v
}

// ansi is the concatenation of escape sequences with colour, "" without.
func (u *ui) ansi(codes ...string) string {
	if !u.color {
		return ""
	}
	return strings.Join(codes, "")
}

func envSet(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") && len(kv) > len(name)+1 {
			return true
		}
	}
	return false
}

// addVarFileSources reads the variable definitions files the diagnostics
// point into, which the configuration's files do not include, so their
// source lines are shown as OpenTofu shows them. A file that cannot be
// read or parsed is left out: the diagnostic then says its source is not
// available.
func (u *ui) addVarFileSources(diags hcl.Diagnostics) {
	u.addDiagSources(diags, func(name string) bool {
		return strings.HasSuffix(name, ".tfvars") || strings.HasSuffix(name, ".tfvars.json")
	})
}

// addDiagSources reads the files accept takes that diagnostics point
// into and that u.files does not hold yet, so they show source lines.
func (u *ui) addDiagSources(diags hcl.Diagnostics, accept func(name string) bool) {
	for _, d := range diags {
		if d.Subject == nil {
			continue
		}
		name := d.Subject.Filename
		if _, ok := u.files[name]; ok || !accept(name) {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var f *hcl.File
		if strings.HasSuffix(name, ".json") {
			f, _ = hcljson.Parse(src, name)
		} else {
			f, _ = hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		}
		if f == nil {
			continue
		}
		// A copy: u.files may be the configuration's own map.
		files := maps.Clone(u.files)
		if files == nil {
			files = map[string]*hcl.File{}
		}
		files[name] = f
		u.files = files
	}
}

// diagnostics prints diagnostics and reports whether any is an error.
func (u *ui) diagnostics(diags hcl.Diagnostics) bool {
	if len(diags) == 0 {
		return false
	}
	u.addVarFileSources(diags)
	if u.json == nil {
		diags = sortedForPeople(u.deprecation.filter(diags))
		if len(diags) == 0 {
			return false
		}
		if u.consolidateWarnings {
			diags = consolidate(diags, hcl.DiagWarning)
		}
		if u.consolidateErrors {
			diags = consolidate(diags, hcl.DiagError)
		}
	}
	switch {
	case u.json != nil:
		if u.legacyDiags {
			// OpenTofu's init and get start each batch of diagnostics
			// with another version message.
			u.json.Version(Version)
		}
		u.json.Diagnostics(diags, u.files)
	case u.compactWarnings && !diags.HasErrors():
		writeCompactWarnings(u.out, diags, u.color)
	default:
		// As OpenTofu: warnings go to stdout, errors to stderr.
		for _, d := range diags {
			w, wrap := u.errw, views.ANSIRed
			if d.Severity == hcl.DiagWarning {
				w, wrap = u.out, views.ANSIYellow
			}
			if u.color && u.legacyDiags {
				io.WriteString(w, wrap)
			}
			views.RenderDiagnostics(w, hcl.Diagnostics{d}, u.files, u.color, 78)
			switch {
			case u.color && u.legacyDiags:
				io.WriteString(w, views.ANSIReset+views.ANSIReset+"\n")
			case u.legacyDiags:
				io.WriteString(w, "\n")
			}
		}
	}
	return diags.HasErrors()
}

// fail prints diagnostics and returns the exit error for status 1.
func (u *ui) fail(diags hcl.Diagnostics) error {
	u.diagnostics(diags)
	return &exitError{1}
}

func (u *ui) errorf(summary, format string, args ...any) error {
	return u.fail(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)}})
}

// loadConfigAndProviders loads the configuration and resolves the
// providers it needs (see resolveProviders), for commands that run the
// engine.
func (u *ui) loadConfigAndProviders(g *globals) (*config.Config, hcl.Diagnostics) {
	cfg, diags := u.loadConfig()
	if cfg != nil && !diags.HasErrors() {
		diags = append(diags, g.resolveProviders(cfg)...)
	}
	return cfg, diags
}

// loadConfig loads the configuration in the working directory.
func (u *ui) loadConfig() (*config.Config, hcl.Diagnostics) {
	cfg, diags := u.loadInstalled()
	if cfg != nil {
		u.files = cfg.Files
		if !diags.HasErrors() {
			diags = append(diags, cfg.CheckRequiredVersions()...)
		}
	}
	return cfg, diags
}

// pendingRules is a rules compilation running in the background.
type pendingRules struct {
	done  chan struct{}
	r     *rules.Engine
	diags hcl.Diagnostics
}

// compileRules starts compiling the rules (see rulesEngine). The engine
// it gives may still be compiling team rules: ask r.Diagnostics after
// planning.
func compileRules(ctx context.Context, dirs []string) *pendingRules {
	p := &pendingRules{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.r, p.diags = loadRules(ctx, dirs, true)
	}()
	return p
}

func (p *pendingRules) wait() (*rules.Engine, hcl.Diagnostics) {
	<-p.done
	return p.r, p.diags
}

// rulesEngine compiles the default rules plus team rules from
// .tenet/rules and every -rules directory.
func rulesEngine(ctx context.Context, dirs []string) (*rules.Engine, hcl.Diagnostics) {
	return loadRules(ctx, dirs, false)
}

// loadRules is rulesEngine; with background set, team rules may still be
// compiling when it returns (rules.Options.Background).
func loadRules(ctx context.Context, dirs []string, background bool) (*rules.Engine, hcl.Diagnostics) {
	var team []rules.Source
	if fi, err := os.Stat(filepath.Join(".tenet", "rules")); err == nil && fi.IsDir() {
		team = append(team, rules.Source{Name: ".tenet/rules", FS: os.DirFS(filepath.Join(".tenet", "rules"))})
	}
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid -rules directory", Detail: fmt.Sprintf("The rules directory %q does not exist or is not a directory.", d)}}
		}
		team = append(team, rules.Source{Name: d, FS: os.DirFS(d)})
	}
	return rules.New(ctx, rules.Options{Team: team, Background: background})
}

func newEngine(g *globals, r *rules.Engine, hooks engine.Hooks) *engine.Engine {
	wd, _ := os.Getwd()
	ws, _ := currentWorkspace(g.deps.Env) // an invalid selection fails when the state is opened
	return &engine.Engine{Providers: g.providerRegistry(), Rules: r, FS: os.DirFS("."), WorkingDir: wd, Hooks: hooks, Version: Version, Workspace: ws}
}

// stateFlags are the flags of every command that touches the state.
type stateFlags struct {
	path        string
	lock        bool
	lockTimeout time.Duration
	backup      string
	// out (-state-out) is where the state is written, when not where it
	// is read from; local state only.
	out    string
	remote *remoteState // set by resolve for a pg, s3 or http backend
}

func (f *stateFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.path, "state", defaultStatePath, "path to the state file")
	cmd.Flags().StringVar(&f.out, "state-out", "", "path to write the resulting state to, instead of the -state file (the -state file is left as it was)")
	cmd.Flags().BoolVar(&f.lock, "lock", true, "lock the state file while the command runs")
	cmd.Flags().DurationVar(&f.lockTimeout, "lock-timeout", 0, "how long to retry acquiring the state lock")
	cmd.Flags().StringVar(&f.backup, "backup", "", "path of the backup file (\"-\" to disable)")
}

// openState opens, locks (unless disabled) and reads the state. The
// returned release function unlocks.
func (f *stateFlags) openState(ctx context.Context, u *ui, operation string) (*local.Manager, *state.State, func(), error) {
	if err := f.resolve(ctx, u, operation); err != nil {
		return nil, nil, nil, err
	}
	if f.remote != nil {
		if f.out != "" {
			f.close()
			return nil, nil, nil, u.errorf("Invalid -state-out", "-state-out names a local file for the resulting state, but the state is kept in the %q backend, and tenet keeps it there. Drop -state-out; for a local copy, run \"tenet state pull\" and save its output.", f.remote.loc.Type)
		}
		return f.openRemoteForRun(ctx, u, f.remote, operation)
	}
	writePath := f.path
	if f.out != "" {
		writePath = f.out
	}
	if dir := filepath.Dir(writePath); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, nil, u.errorf("Failed to create the state directory", "%s", err)
		}
	}
	opts := local.Options{BackupPath: f.backup, Lock: f.lock, LockTimeout: f.lockTimeout, Operation: operation, TerraformVersion: Version}
	if f.out != "" {
		opts.ReadPath = f.path
	}
	mgr := local.Open(writePath, opts)
	file, release, err := lockAndRead(ctx, u, mgr, f.path, f.lock, operation)
	if err != nil {
		return nil, nil, nil, err
	}
	st := state.NewState()
	if file != nil && file.State != nil {
		st = file.State
	}
	return mgr, st, release, nil
}

// lockAndRead locks the store (when lock is set) and reads its state,
// reporting failures and recovery notices. The release function unlocks.
func lockAndRead(ctx context.Context, u *ui, store stateStore, path string, lock bool, operation string) (*statefile.File, func(), error) {
	release := func() {}
	if lock {
		err := slowly(u, "Acquiring state lock. This may take a few moments...", func() error {
			return store.Lock(ctx, local.NewLockInfo(operation))
		})
		if err != nil {
			if isDirError(err) {
				return nil, nil, stateLoadFailed(u, err, path)
			}
			var le *local.LockError
			detail := err.Error()
			if errors.As(err, &le) {
				detail = le.Err.Error()
				if le.Holder != nil {
					detail += "\nLock Info:\n" + le.Holder.String()
				}
			}
			// OpenTofu's words, wrapped as OpenTofu wraps them.
			return nil, nil, u.errorf("Error acquiring the state lock", "Error message: %s\n\ntenet acquires a state lock to protect the state from being written\nby multiple users at the same time. Please resolve the issue above and try\nagain. For most commands, you can disable locking with the \"-lock=false\"\nflag, but this is not recommended.", detail)
		}
		u.log.logf(logInfo, "state lock acquired: %s (%s)", path, operation)
		release = func() {
			u.log.logf(logInfo, "releasing state lock: %s", path)
			if err := store.Unlock(); err != nil {
				u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error releasing the state lock", Detail: err.Error()}})
			}
		}
	}
	file, err := store.Read()
	if err != nil {
		release()
		return nil, nil, stateLoadFailed(u, err, path)
	}
	if file != nil && u.log.enabled(logDebug) {
		u.log.logf(logDebug, "state read from %s: lineage %s, serial %d", path, file.Lineage, file.Serial)
	}
	u.stateNotices(store.Notices())
	return file, release, nil
}

// readStateFile reads a state without locking (for read-only commands),
// reporting what recovery had to say. A failure is reported too: the
// error is the exit status.
func readStateFile(u *ui, path string) (*statefile.File, error) {
	sf := stateFlags{path: path}
	if err := sf.resolve(context.Background(), u, "this command"); err != nil {
		return nil, err
	}
	if sf.remote != nil {
		defer sf.close()
		f, d := sf.remote.m.Read(context.Background())
		if d.HasErrors() {
			return nil, u.fail(d)
		}
		return f, nil
	}
	path = sf.path
	mgr := local.Open(path, local.Options{})
	f, err := mgr.Read()
	if err != nil {
		return nil, stateLoadFailed(u, err, path)
	}
	u.stateNotices(mgr.Notices())
	return f, nil
}

// readState is the state of readStateFile, nil when there is no state
// file.
func readState(u *ui, path string) (*state.State, error) {
	file, err := readStateFile(u, path)
	if err != nil || file == nil {
		return nil, err
	}
	return file.State, nil
}

// stateLoadFailed reports a state that could not be read.
func stateLoadFailed(u *ui, err error, path string) error {
	if isDirError(err) {
		return u.errorf("State path is a directory", "The state path %s is a directory, not a file. Name the state file itself with -state, for example -state=%s.", path, filepath.Join(path, defaultStatePath))
	}
	return u.errorf("Failed to load state", "%s\n\nThe state file %s was left untouched.", err, path)
}

func isDirError(err error) bool {
	var de *local.IsDirError
	return errors.As(err, &de)
}

// stateNotices shows as warnings what reading the state recovered only in
// part or could not apply.
func (u *ui) stateNotices(notices []local.Notice) {
	var diags hcl.Diagnostics
	for _, n := range notices {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: n.Summary, Detail: n.Detail})
	}
	u.diagnostics(diags)
}

// registerShowSensitive adds -show-sensitive, which OpenTofu accepts on
// plan, apply, destroy, show, output and state show.
func registerShowSensitive(cmd *cobra.Command, showSensitive *bool) {
	cmd.Flags().BoolVar(showSensitive, "show-sensitive", false, "show sensitive values in human output instead of hiding them")
}

// inAutomation reports TF_IN_AUTOMATION: a program, not a person, reads
// the output, so OpenTofu (and tenet) leave out the hints about what to
// run next.
func inAutomation(env []string) bool { return envSet(env, "TF_IN_AUTOMATION") }

// slowThreshold is how long an operation on the state may take before
// the user is told that it is waiting, as OpenTofu tells.
const slowThreshold = 400 * time.Millisecond

// slowly runs op, and prints message on the human view if op is still
// running after slowThreshold (waiting for a lock held by someone else).
func slowly(u *ui, message string, op func() error) error {
	if u.json != nil {
		return op()
	}
	var mu sync.Mutex
	finished := false
	timer := time.AfterFunc(slowThreshold, func() {
		mu.Lock()
		defer mu.Unlock()
		if !finished {
			fmt.Fprintln(u.out, message)
		}
	})
	err := op()
	timer.Stop()
	mu.Lock()
	finished = true
	mu.Unlock()
	return err
}
