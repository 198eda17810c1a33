package cli

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

// OpenTofu parses flags with Go's flag package and reports a bad flag in
// that package's words; tenet's commands parse with cobra (pflag), whose
// words differ. flagError reports cobra's error as OpenTofu does: the
// commands whose arguments OpenTofu checks with diagnostics get one, with
// the prompt to read the command's help; the others a plain line.

// flagDiagnosticSummaries names the commands that report bad flags as a
// diagnostic, with its summary.
var flagDiagnosticSummaries = map[string]string{
	"plan": "Failed to parse command-line flags", "apply": "Failed to parse command-line flags",
	"destroy": "Failed to parse command-line flags", "refresh": "Failed to parse command-line flags",
	"output": "Failed to parse command-line flags", "test": "Failed to parse command-line flags",
	"validate": "Failed to parse command-line flags", "show": "Failed to parse command-line options",
}

var (
	pflagUnknown  = regexp.MustCompile(`^unknown (?:shorthand )?flag: '?-{1,2}([^' ]+)'?`)
	pflagNeedsArg = regexp.MustCompile(`^flag needs an argument: (?:'([^']+)' in )?-{1,2}(\S+)`)
	pflagInvalid  = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?-{1,2}([^"]+)" flag`)
)

// goFlagWords rewrites a pflag error in the words of Go's flag package.
func goFlagWords(err error) string {
	msg := err.Error()
	if m := pflagUnknown.FindStringSubmatch(msg); m != nil {
		return "flag provided but not defined: -" + m[1]
	}
	if m := pflagNeedsArg.FindStringSubmatch(msg); m != nil {
		return "flag needs an argument: -" + m[2]
	}
	if m := pflagInvalid.FindStringSubmatch(msg); m != nil {
		return "invalid value \"" + m[1] + "\" for flag -" + m[2] + ": parse error"
	}
	return msg
}

// flagError is the commands' cobra FlagErrorFunc.
func flagError(cmd *cobra.Command, g *globals, err error) error {
	// Parsing stopped at the bad flag; OpenTofu reads -no-color wherever
	// it stands.
	noColor := noColorFlag(cmd) || slices.ContainsFunc(commandLine(cmd.Context()), isNoColor)
	u := newUI(cmd, g, noColor, false)
	words := goFlagWords(err)
	if summary, ok := flagDiagnosticSummaries[cmd.Name()]; ok && cmd.Parent() == cmd.Root() {
		u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: words}})
		fmt.Fprintf(u.errw, "\nFor more help on using this command, run:\n  tenet %s -help\n", cmd.Name())
		return &exitError{1}
	}
	return plainError(u, u.color, "Error parsing command-line flags: "+words)
}

func isNoColor(a string) bool { return a == "-no-color" || a == "--no-color" || a == "--no-color=true" }

// commandLineKey carries the command line in the context, for what must
// look at arguments cobra did not parse.
type commandLineKey struct{}

// withCommandLine records args in ctx.
func withCommandLine(ctx context.Context, args []string) context.Context {
	return context.WithValue(ctx, commandLineKey{}, args)
}

// commandLine returns the arguments recorded in ctx, up to "--".
func commandLine(ctx context.Context) []string {
	if ctx == nil {
		return nil
	}
	args, _ := ctx.Value(commandLineKey{}).([]string)
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	return args
}
