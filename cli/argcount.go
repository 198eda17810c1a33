package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// helpAfter says where a command's help text goes after its message
// about a wrong number of arguments, as each OpenTofu command has it.
type helpAfter int

const (
	// helpToStdout: OpenTofu's "show the help" result, the message on
	// stderr and the help text on stdout.
	helpToStdout helpAfter = iota
	// helpInRed: the message and then the help text on stderr, both red
	// (with colour), as a command printing its usage.
	helpInRed
)

// wrongArgCount refuses a command's arguments as OpenTofu's command does:
// msg (red with colour unless plainMsg), then the command's help text
// (helpTexts), exit status 1.
func wrongArgCount(cmd *cobra.Command, g *globals, color bool, msg string, plainMsg bool, where helpAfter) error {
	errw, out := cmd.ErrOrStderr(), cmd.OutOrStdout()
	red := func(s string) string {
		if !color {
			return s
		}
		return "\x1b[31m" + s + "\x1b[0m\x1b[0m"
	}
	if plainMsg {
		fmt.Fprint(errw, msg)
	} else {
		fmt.Fprintln(errw, red(msg))
	}
	help := commandHelp(cmd, g)
	if where == helpToStdout {
		fmt.Fprint(out, help)
	} else {
		fmt.Fprintln(errw, red(strings.TrimSuffix(help, "\n")))
	}
	return &exitError{1}
}

// commandHelp is a command's OpenTofu help text.
func commandHelp(cmd *cobra.Command, g *globals) string {
	path := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	return strings.ReplaceAll(helpTexts[path], "%CREDENTIALS%", credentialsPath(g.deps.Env))
}

// tooManyForChdir refuses arguments to a command that takes none, as the
// OpenTofu commands that once took a configuration directory do.
func tooManyForChdir(cmd *cobra.Command, color bool) error {
	msg := "Too many command line arguments. Did you mean to use -chdir?"
	if color {
		msg = "\x1b[31m" + msg + "\x1b[0m\x1b[0m"
	}
	fmt.Fprintln(cmd.ErrOrStderr(), msg)
	return &exitError{1}
}

// useOpenTofuHelp makes -help print OpenTofu's help text for the commands
// helpTexts has, as their argument errors do.
func useOpenTofuHelp(cmd *cobra.Command, g *globals) {
	for _, c := range cmd.Commands() {
		useOpenTofuHelp(c, g)
	}
	if _, ok := helpTexts[strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")]; !ok {
		return
	}
	cmd.SetHelpFunc(func(c *cobra.Command, _ []string) {
		fmt.Fprint(c.OutOrStdout(), commandHelp(c, g))
	})
}
