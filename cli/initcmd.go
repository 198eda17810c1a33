package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/config/modinstall"
	"github.com/tenetplan/tenet/providers/getproviders"
	"github.com/tenetplan/tenet/providers/installer"
	"github.com/tenetplan/tenet/providers/lockfile"
)

func newInitCommand(g *globals) *cobra.Command {
	var noColor, input, upgrade, jsonOut bool
	var pluginDirs []string
	var lockMode, fromModule string
	var vars []config.VarSource
	bf := backendFlags{answers: g.answers}
	cmd := &cobra.Command{
		Use:   "init [options]",
		Short: "Prepare the working directory: backend, modules and providers",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return tooManyForChdir(cmd, !noColor)
			}
			u := newUI(cmd, g, noColor, jsonOut)
			u.legacyDiags = true
			if err := refuseTestDirectory(cmd, u); err != nil {
				return err
			}
			if lockMode != "" && lockMode != "readonly" {
				return u.errorf("Invalid -lockfile option", "The only mode -lockfile accepts is \"readonly\" (got %q).", lockMode)
			}
			u.useVars(vars, input)
			if fromModule != "" {
				if err := initFromModule(cmd, u, g, fromModule); err != nil {
					return err
				}
			}
			if emptyWorkingDir() {
				u.output("[reset][bold]tenet initialized in an empty directory![reset]\n\n" +
					"The directory has no tenet configuration files. You may begin working\nwith tenet immediately by creating tenet configuration files.")
				return nil
			}
			// As OpenTofu, the root module is read first: the values its
			// module calls need early are asked for before anything else.
			// Unreadable -var and -var-file options stop it there.
			if d := config.CheckVariableSources(os.DirFS("."), ".", vars); d.HasErrors() {
				u.printInitConfigError()
				return u.fail(d)
			}
			u.earlyRoot()
			// As OpenTofu's: the backend first (it is read from the root
			// module alone), then the modules, then the whole configuration.
			// The backend's errors are shown once the modules are
			// installed, as OpenTofu shows them.
			var held bytes.Buffer
			deferred, backendErr := bf.run(cmd.Context(), u, g.deps.Env, &held)
			if backendErr != nil && !deferred {
				return backendErr
			}
			// As OpenTofu's, configuration errors come after the backend
			// step. When modules are installed, that step reports them;
			// otherwise they come with a preamble saying the
			// configuration must be valid first, syntax errors of the root
			// module before anything else.
			get, _ := cmd.Flags().GetBool("get")
			modulesStep := get && modinstall.HasModuleCalls(".")
			if !modulesStep {
				if early := rootSyntaxErrors(u); early.HasErrors() {
					u.uiError(errInitConfigError)
					return u.fail(early)
				}
			}
			if err := initModules(cmd, u, g, upgrade, true); err != nil {
				return err
			}
			u.errw.Write(held.Bytes())
			if backendErr != nil {
				return backendErr
			}
			cfg, diags := u.loadConfig()
			if diags.HasErrors() {
				if !modulesStep {
					u.uiError(errInitConfigError)
					// The root module's own errors stand alone: OpenTofu
					// reports them before loading the modules it calls.
					if root := rootModuleDiags(diags); root.HasErrors() {
						diags = root
					}
				}
				return u.fail(diags)
			}
			reqs, _, d := requirementsOf(cfg)
			diags = append(diags, d...)
			if diags.HasErrors() {
				return u.fail(diags)
			}
			u.diagnostics(diags)
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			addInitStateRequirements(ctx, u, reqs)
			return runInit(ctx, g, u, reqs, initOptions{upgrade: upgrade, pluginDirs: pluginDirs, readonly: lockMode == "readonly"})
		},
	}
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	cmd.Flags().BoolVar(&input, "input", true, "ask for input (state migration asks before copying; -input=false fails instead unless -force-copy)")
	cmd.Flags().BoolVar(&upgrade, "upgrade", false, "select the newest provider and module versions the constraints allow, ignoring the lock file's selections and installed modules")
	cmd.Flags().StringArrayVar(&pluginDirs, "plugin-dir", nil, "install providers only from this directory (repeatable); no other installation method is used")
	cmd.Flags().StringVar(&lockMode, "lockfile", "", "\"readonly\": fail instead of changing the dependency lock file")
	cmd.Flags().Bool("get", true, "install the modules the configuration calls")
	registerTestDirectory(cmd)
	cmd.Flags().Var(&varFlag{kind: config.ValueFromCLI, list: &vars}, "var", "set a value for a root module input variable that module sources or the backend use (NAME=VALUE); repeatable")
	cmd.Flags().Var(&varFlag{kind: config.ValueFromFile, list: &vars}, "var-file", "load variable values from a file; repeatable")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the output as a stream of JSON messages")
	cmd.Flags().StringVar(&fromModule, "from-module", "", "copy the module at this source address into the empty working directory first")
	bf.register(cmd)
	acceptIgnoreRemoteVersion(cmd)
	// -migrate-state locks both backends' states with these (read by
	// backendFlags.migrationOptions).
	var lock bool
	var lockTimeout time.Duration
	cmd.Flags().BoolVar(&lock, "lock", true, "lock the states while -migrate-state copies them")
	cmd.Flags().DurationVar(&lockTimeout, "lock-timeout", 0, "how long -migrate-state retries acquiring a state lock")
	return cmd
}

type initOptions struct {
	upgrade    bool
	pluginDirs []string
	readonly   bool
}

func runInit(ctx context.Context, g *globals, u *ui, reqs installer.Requirements, opts initOptions) error {
	pe, diags := g.loadProviderEnv()
	if diags.HasErrors() {
		return u.fail(diags)
	}
	u.diagnostics(diags)
	icfg := pe.icfg
	if len(opts.pluginDirs) > 0 {
		icfg.Methods = nil
		for _, d := range opts.pluginDirs {
			abs, err := filepath.Abs(d)
			if err != nil {
				abs = d
			}
			icfg.Methods = append(icfg.Methods, getproviders.Method{Kind: getproviders.MethodFilesystemMirror, Location: abs})
		}
	}
	oldLocks, d := lockfile.Load(pe.lockPath)
	if d.HasErrors() {
		return u.fail(d)
	}
	_, lockErr := os.Stat(pe.lockPath)
	lockExisted := lockErr == nil

	u.output("\n[reset][bold]Initializing provider plugins...")
	for _, p := range sortedProviders(reqs) {
		if p.IsBuiltIn() {
			u.info(fmt.Sprintf("- %s is built in to tenet", p))
		}
	}

	// Providers tenet has built in are installed only when some source
	// other than the implied public registry has them, or the lock file
	// or dev_overrides name them (see docs/providers.md).
	builtinReqs, otherReqs := installer.Requirements{}, installer.Requirements{}
	for _, p := range sortedProviders(reqs) {
		if p.IsBuiltIn() {
			continue
		}
		_, builtIn := g.deps.Providers[p]
		_, overridden := icfg.DevOverrides[p]
		if builtIn && !overridden && oldLocks.Provider(p) == nil {
			builtinReqs[p] = reqs[p]
		} else {
			otherReqs[p] = reqs[p]
		}
	}

	doneNewline := true // a blank line before the closing message
	newLocks := lockfile.New()
	var allDiags hcl.Diagnostics
	record := func(l *lockfile.Locks) {
		for _, e := range l.AllProviders() {
			newLocks.SetProvider(e.Provider, e.Version, e.Constraints, e.Hashes)
		}
	}

	// Built-in candidates, one at a time, so that each one's progress
	// lines are shown only when it is really installed.
	localCfg := namingMethods(icfg)
	for _, p := range sortedProviders(builtinReqs) {
		var lines []string
		inst, d := installer.New(localCfg, pe.dataDir)
		if d.HasErrors() {
			return u.fail(d)
		}
		_, nl, d := inst.EnsureProviders(ctx, installer.Requirements{p: reqs[p]}, oldLocks, installer.Options{Upgrade: opts.upgrade, Events: initEvents(func(l string) { lines = append(lines, l) })})
		if notFoundOnly(d) {
			u.info(fmt.Sprintf("- Using tenet's built-in %s (no package found in the configured installation sources)", p.ForDisplay()))
			continue
		}
		for _, l := range lines {
			u.info(l)
		}
		allDiags = append(allDiags, d...)
		record(nl)
	}

	if len(otherReqs) > 0 {
		inst, d := installer.New(icfg, pe.dataDir)
		if d.HasErrors() {
			return u.fail(d)
		}
		_, nl, d := inst.EnsureProviders(ctx, otherReqs, oldLocks, installer.Options{Upgrade: opts.upgrade, Events: initEvents(u.info)})
		allDiags = append(allDiags, d...)
		record(nl)
	}
	if allDiags.HasErrors() {
		return u.fail(allDiags)
	}
	u.diagnostics(allDiags)

	if !newLocks.Equal(oldLocks) {
		if opts.readonly {
			return u.errorf("Provider dependency changes detected", "Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run \"tenet init\" without the \"-lockfile=readonly\" flag.")
		}
		if len(newLocks.AllProviders()) > 0 || lockExisted {
			if d := lockfile.Save(newLocks, pe.lockPath); d.HasErrors() {
				return u.fail(d)
			}
			if lockExisted {
				u.output(fmt.Sprintf("\ntenet has made some changes to the provider dependency selections recorded\nin the %s file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.", lockfile.FileName))
			} else {
				u.output("\ntenet has created a lock file [bold]" + lockfile.FileName + "[reset] to record the provider\nselections it made above. Include this file in your version control repository\nso that tenet can guarantee to make the same selections by default when\nyou run \"tenet init\" in the future.")
			}
			if d := incompleteLocks(oldLocks, newLocks); d != nil {
				u.output("")
				u.diagnostics(hcl.Diagnostics{d})
				// The empty line that follows the warning (legacyDiags; a
				// line of resets with colour) is the one before the
				// closing message, as in OpenTofu's output.
				doneNewline = false
			}
		}
	}
	if err := os.MkdirAll(pe.dataDir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return u.errorf("Failed to prepare the working directory", "Creating %s failed: %s.", pe.dataDir, err)
	}
	if doneNewline {
		u.output("")
	}
	u.output(initDoneHeadline)
	if !inAutomation(u.env) {
		u.output(initDone)
	}
	return nil
}

// printInitConfigError is OpenTofu's preamble to init's errors in the
// configuration it reads first.
func (u *ui) printInitConfigError() {
	const text = "tenet encountered problems during initialization, including problems\nwith the configuration, described below.\n\nThe tenet configuration must be valid before initialization so that\ntenet can determine which modules and providers need to be installed."
	plainError(u, u.color, u.ansi(views.ANSIReset)+text+u.ansi(views.ANSIReset))
}

// initDoneHeadline and initDone close a successful init, in OpenTofu's
// words and colours (templates for views.Colorize).
const (
	initDoneHeadline = "[reset][bold][green]tenet has been successfully initialized![reset][green]"
	initDone         = `[reset][green]
You may now begin working with tenet. Try running "tenet plan" to see
any changes that are required for your infrastructure. All tenet commands
should now work.

If you ever set or change modules or backend configuration for tenet,
rerun this command to reinitialize your working directory. If you forget, other
commands will detect it and remind you to do so if necessary.`
)

// incompleteLocks warns, as OpenTofu does, when init recorded providers
// whose lock entries hold only checksums computed here (no registry-signed
// "zh:" list): on another platform the lock file cannot verify them.
func incompleteLocks(oldLocks, newLocks *lockfile.Locks) *hcl.Diagnostic {
	var names []string
	for _, e := range newLocks.AllProviders() {
		if prev := oldLocks.Provider(e.Provider); prev != nil && prev.Version == e.Version && slices.Equal(prev.Hashes, e.Hashes) {
			continue
		}
		if !slices.ContainsFunc(e.Hashes, func(h getproviders.Hash) bool { return h.Scheme() == getproviders.SchemeZH }) {
			names = append(names, "  - "+e.Provider.ForDisplay())
		}
	}
	if len(names) == 0 {
		return nil
	}
	platform := runtime.GOOS + "_" + runtime.GOARCH
	return &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Incomplete lock file information for providers",
		Detail: fmt.Sprintf("Due to your customized provider installation methods, tenet was forced to calculate lock file checksums locally for the following providers:\n%s\n\nThe current %s file only includes checksums for %s, so tenet running on another platform will fail to install these providers.\n\nTo calculate additional checksums for another platform, run:\n  tenet providers lock -platform=%s\n(where %s is the platform to generate)",
			strings.Join(names, "\n"), lockfile.FileName, platform, platform, platform),
	}
}

// notFoundOnly says the only errors are "no method has this provider".
func notFoundOnly(d hcl.Diagnostics) bool {
	if !d.HasErrors() {
		return false
	}
	for _, x := range d {
		if x.Severity == hcl.DiagError && x.Summary != "Provider not found" {
			return false
		}
	}
	return true
}

// initEvents gives init's progress lines to say.
func initEvents(say func(string)) installer.Events {
	return installer.Events{
		FindingVersions: func(p addrs.Provider, c getproviders.Constraints) {
			if c.IsEmpty() {
				say(fmt.Sprintf("- Finding latest version of %s...", p.ForDisplay()))
			} else {
				say(fmt.Sprintf("- Finding %s versions matching %q...", p.ForDisplay(), c.String()))
			}
		},
		ReusingLocked: func(p addrs.Provider, v getproviders.Version) {
			say(fmt.Sprintf("- Reusing previous version of %s from the dependency lock file", p.ForDisplay()))
		},
		AlreadyInstalled: func(p addrs.Provider, v getproviders.Version) {
			say(fmt.Sprintf("- Using previously-installed %s v%s", p.ForDisplay(), v))
		},
		LinkedFromCache: func(p addrs.Provider, v getproviders.Version) {
			say(fmt.Sprintf("- Using %s v%s from the shared cache directory", p.ForDisplay(), v))
		},
		Installing: func(p addrs.Provider, v getproviders.Version) {
			say(fmt.Sprintf("- Installing %s v%s...", p.ForDisplay(), v))
		},
		Installed: func(p addrs.Provider, v getproviders.Version, auth *getproviders.AuthResult) {
			say(fmt.Sprintf("- Installed %s v%s (%s)", p.ForDisplay(), v, auth.String()))
		},
	}
}

// addInitStateRequirements adds the providers the current workspace's
// state needs to reqs (see addStateRequirements). The state is read
// without locking, as init changes nothing in it, and quietly: a state
// init cannot read is not init's error (the commands that use it report
// it), so it only adds nothing.
func addInitStateRequirements(ctx context.Context, u *ui, reqs installer.Requirements) {
	quiet := *u
	quiet.out, quiet.errw, quiet.json = io.Discard, io.Discard, nil
	sf := stateFlags{path: defaultStatePath}
	defer sf.close()
	_, st, release, err := sf.openState(ctx, &quiet, "init")
	if err != nil {
		return
	}
	release()
	addStateRequirements(reqs, st)
}

// emptyWorkingDir reports a working directory without configuration
// files, where init has nothing to set up (test files do not count).
func emptyWorkingDir() bool {
	entries, err := os.ReadDir(".")
	if err != nil {
		return false // the configuration loader reports it
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return len(config.ConfigFiles(names)) == 0
}

// errInitConfigError precedes the errors of a configuration init cannot
// load, in OpenTofu's words.
const errInitConfigError = `[reset]tenet encountered problems during initialization, including problems
with the configuration, described below.

The tenet configuration must be valid before initialization so that
tenet can determine which modules and providers need to be installed.`

// rootSyntaxErrors parses the root module's files and returns their
// syntax errors; the parsed files become the sources of diagnostics.
func rootSyntaxErrors(u *ui) hcl.Diagnostics {
	entries, err := os.ReadDir(".")
	if err != nil {
		return nil // the configuration loader reports it
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	p := hclparse.NewParser()
	var diags hcl.Diagnostics
	for _, name := range config.ConfigFiles(names) {
		f, d := parseFile(p, name)
		if f != nil {
			if u.files == nil {
				u.files = map[string]*hcl.File{}
			}
			if _, ok := u.files[name]; !ok {
				u.files[name] = f
			}
		}
		for _, x := range d {
			if x.Severity == hcl.DiagError {
				diags = append(diags, x)
			}
		}
	}
	return diags
}

// rootModuleDiags are the diagnostics about files of the root module (or
// about no file).
func rootModuleDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Subject == nil || !strings.ContainsAny(d.Subject.Filename, `/\`) {
			out = append(out, d)
		}
	}
	return out
}

// registerTestDirectory accepts OpenTofu's -test-directory on init and get
// so that refuseTestDirectory can name it.
func registerTestDirectory(cmd *cobra.Command) {
	cmd.Flags().String("test-directory", "tests", "refused: tenet does not install the modules of test files' run blocks")
}

// refuseTestDirectory stops init and get given -test-directory: OpenTofu
// installs the modules test files' run blocks call from there, which
// tenet does not, and the flag must not pass as if it did.
func refuseTestDirectory(cmd *cobra.Command, u *ui) error {
	if !cmd.Flags().Changed("test-directory") {
		return nil
	}
	return u.errorf("Unsupported option -test-directory", "tenet does not install the modules that test files' run blocks call (module blocks in run blocks), so -test-directory would have no effect. Run blocks whose module has a local source work without it; run tests that call remote modules with OpenTofu.")
}
