package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin"
	"github.com/tenetplan/tenet/providers/cliconfig"
	"github.com/tenetplan/tenet/providers/plugin"
)

// Version is tenet's version, written into state and plan files.
const Version = "0.1.0"

// Deps is what the commands need from the process.
type Deps struct {
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
	Env       []string
	Providers providers.Registry
	// Plugins makes commands that run the engine use installed provider
	// plugins (and TF_REATTACH_PROVIDERS, dev_overrides) in place of, or
	// besides, Providers. Main sets it; tests that inject their own
	// providers leave it off.
	Plugins bool

	// Set by Main: the process's interrupt handling and tenet's own log
	// (TF_LOG). NewRootCommand makes ones that never fire and read Env.
	intr *interrupts
	log  *coreLog
}

// exitError carries an exit status; the message, if any, was printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Main runs tenet with the given arguments and returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env []string) int {
	defer tuneGC()()
	log := newCoreLog(env, stderr)
	defer log.finish()
	log.logf(logInfo, "tenet version: %s", Version)
	log.logf(logInfo, "CLI args: %q", args)
	intr := newInterrupts(stdout, stderr, os.Exit, log)
	defer intr.watch()()
	deps := Deps{Stdin: stdin, Stdout: stdout, Stderr: stderr, Env: env, Providers: withRemoteStateReader(builtin.Registry()), Plugins: true, intr: intr, log: log}
	defer plugin.KillAll()
	root := NewRootCommand(deps)
	args, err := withEnvArgs(root, args, env)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	log.logf(logInfo, "CLI command args: %q", args)
	args, code, done := globalArgs(args, stdout, stderr, root)
	if done {
		return code
	}
	root.SetArgs(NormalizeArgs(args))
	stopProfile := startProfile(env, stderr)
	err = root.ExecuteContext(withCommandLine(intr.stop, args))
	stopProfile()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if noSuchCommand(stderr, err, args) {
		return 1
	}
	fmt.Fprintf(stderr, "Error: %s\n", err)
	return 1
}

// NewRootCommand builds the command tree.
func NewRootCommand(deps Deps) *cobra.Command {
	if deps.log == nil {
		deps.log = newCoreLog(deps.Env, deps.Stderr)
	}
	if deps.intr == nil {
		deps.intr = newInterrupts(deps.Stdout, deps.Stderr, os.Exit, deps.log)
	}
	g := &globals{deps: deps, phases: newPhaseLog(deps.Env, deps.Stderr), intr: deps.intr, log: deps.log, answers: newAnswers(deps.Stdin)}
	root := &cobra.Command{
		Use:           "tenet",
		Short:         "Plan and apply Terraform-language configurations with planning rules in Rego",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPostRunE: func(cmd *cobra.Command, args []string) error {
			if g.lateFailure {
				return &exitError{1}
			}
			return nil
		},
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			g.log.logf(logInfo, "command: %s", cmd.CommandPath())
			// Before -chdir, as OpenTofu: a relative TF_CLI_CONFIG_FILE
			// names a file in the directory tenet was started in.
			g.reportCLIConfigWarnings(deps.Stderr)
			if g.chdir != "" {
				if err := os.Chdir(g.chdir); err != nil {
					fmt.Fprintf(deps.Stderr, "Error handling -chdir option: %s\n", err)
					return &exitError{1}
				}
			}
			return refuseEncryptionEnv(cmd, g)
		},
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return flagError(cmd, g, err) })
	root.SetIn(deps.Stdin)
	root.SetOut(deps.Stdout)
	root.SetErr(deps.Stderr)
	root.PersistentFlags().StringVar(&g.chdir, "chdir", "", "switch to a different working directory before executing the given subcommand")
	// OpenTofu takes -no-color on every command. Most commands that can
	// colour their output declare their own flag (which takes
	// precedence); the others read this one (noColorFlag) or never colour.
	root.PersistentFlags().Bool("no-color", false, "disable color")
	root.AddCommand(
		newInitCommand(g),
		newGetCommand(g),
		newValidateCommand(g),
		newFmtCommand(g),
		newPlanCommand(g),
		newApplyCommand(g, false),
		newApplyCommand(g, true),
		newRefreshCommand(g),
		newShowCommand(g),
		newOutputCommand(g),
		newTaintCommand(g, true),
		newImportCommand(g),
		newTaintCommand(g, false),
		newStateCommand(g),
		newGraphCommand(g),
		newVersionCommand(g),
		newProvidersCommand(g),
		newPolicyCommand(g),
		newExplainCommand(g),
		newRulesCommand(g),
		newForceUnlockCommand(g),
		newWorkspaceCommand(g),
		newTestCommand(g),
		newConsoleCommand(g),
		newMetadataCommand(g),
		newLoginCommand(g),
		newLogoutCommand(g),
	)
	requireSubcommand(root)
	acceptEarlyVars(root)
	useOpenTofuHelp(root, g)
	return root
}

// globals holds the process-wide settings every command shares.
type globals struct {
	deps   Deps
	chdir  string
	phases *phaseLog // nil unless TENET_TIMINGS is set
	// registry is the providers of this run once resolveProviders has
	// looked at the configuration; nil before.
	registry providers.Registry
	// cli is the CLI configuration, read once per run (cliConfig).
	cli      *cliconfig.Config
	cliDiags hcl.Diagnostics
	cliRead  bool
	intr     *interrupts // SIGINT/SIGTERM handling (interrupt.go)
	log      *coreLog    // TF_LOG (corelog.go); nil when off
	// lateFailure is set by what fails after a command's result is
	// decided (the final write of a remote state), to exit non-zero.
	lateFailure bool
	// answers reads replies to prompts from stdin (prompt.go).
	answers *answers
}

// NormalizeArgs turns tofu-style single-dash long flags (-out=F, -no-color)
// into the double-dash form cobra understands. A lone "-" and short
// one-letter flags are left alone, as is everything after "--".
func NormalizeArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && isFlagChar(a[1]) {
			name := a[1:]
			if eq := strings.IndexByte(name, '='); eq >= 0 {
				name = name[:eq]
			}
			if len(name) > 1 {
				a = "-" + a
			}
		}
		out = append(out, a)
	}
	return out
}

func isFlagChar(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// requireSubcommand makes every command that only groups subcommands
// (state, policy, ...) fail on a missing or unknown subcommand: cobra
// would print the help and exit 0, so `tenet state pul > backup.tfstate`
// would look like it worked.
func requireSubcommand(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		requireSubcommand(c)
	}
	if cmd.Runnable() || !cmd.HasSubCommands() || cmd.Parent() == nil {
		return
	}
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			cmd.SetOut(cmd.ErrOrStderr())
			_ = cmd.Help()
			return &exitError{1}
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "Error: unknown command %q for %q\n\nRun '%s --help' for the list of its subcommands.\n", args[0], cmd.CommandPath(), cmd.CommandPath())
		return &exitError{1}
	}
}

// commandsWithoutStateOrPlans read and write neither state nor plan files,
// so OpenTofu's TF_ENCRYPTION means nothing to them.
var commandsWithoutStateOrPlans = map[string]bool{"version": true, "fmt": true, "metadata": true, "login": true, "logout": true, "help": true}

// refuseEncryptionEnv stops a command that reads or writes state or plan
// files when TF_ENCRYPTION asks OpenTofu to encrypt them: tenet cannot, and
// must not write in plain text what the user asked to be encrypted.
func refuseEncryptionEnv(cmd *cobra.Command, g *globals) error {
	if !envSet(g.deps.Env, "TF_ENCRYPTION") {
		return nil
	}
	top := cmd
	for top.HasParent() && top.Parent().HasParent() {
		top = top.Parent()
	}
	if commandsWithoutStateOrPlans[top.Name()] {
		return nil
	}
	u := newUI(cmd, g, noColorFlag(cmd), false)
	return u.errorf("Unsupported state encryption", "TF_ENCRYPTION asks for state and plan files to be encrypted, which tenet cannot do; it will not write them unencrypted instead. Unset TF_ENCRYPTION to keep state and plans in plain text, or use OpenTofu.")
}
