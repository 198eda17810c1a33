package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// OpenTofu's top level, which cobra's defaults do not give: its global
// options, the help it prints without a subcommand (and the status 127 of
// a bare invocation), and its message for a command it does not have.

// mainCommands are listed first in the top-level help, in this order.
var mainCommands = []string{"init", "validate", "plan", "apply", "destroy"}

// globalArgs reads the options before the subcommand as OpenTofu does:
// -chdir=DIR stays for cobra, -version and its aliases become the version
// command, -help before a subcommand moves behind it, and anything else
// there is refused. Without a subcommand it prints the top-level help:
// status 0 when -help asked for it, 127 otherwise. done says whether the
// call ended here, with status code.
func globalArgs(args []string, stdout, stderr io.Writer, root *cobra.Command) (out []string, code int, done bool) {
	help := false
	var bad []string
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			rest := args[i:]
			if len(bad) > 0 {
				fmt.Fprint(stdout, "Invalid flags before the subcommand. If these flags are for\nthe subcommand, please put them after the subcommand.\n\n")
				if c, _, err := root.Find(rest); err == nil && c != root {
					c.SetOut(stdout)
					_ = c.Help()
				}
				return nil, 1, true
			}
			if help {
				// "tenet -help plan" is "tenet plan -help".
				rest = append(slices.Clone(rest), "-help")
			}
			return append(out, rest...), 0, false
		}
		switch {
		case a == "-v" || a == "-version" || a == "--version":
			return append(append(out, "version"), args[i+1:]...), 0, false
		case a == "-h" || a == "-help" || a == "--help":
			help = true
		case a == "-chdir" || a == "--chdir":
			fmt.Fprint(stderr, "Invalid -chdir option: must include an equals sign followed by a directory path, like -chdir=example\n")
			return nil, 1, true
		case a == "-install-autocomplete" || a == "-uninstall-autocomplete":
			// OpenTofu edits the shell's start-up files; tenet prints the
			// completion script and leaves installing it to the user.
			fmt.Fprintf(stderr, "Error: tenet does not support %s: it will not edit your shell's start-up files.\n\nPrint a completion script with \"tenet completion bash\" (or zsh, fish, powershell) and load it from your shell's start-up file; \"tenet completion bash -h\" says how.\n", a)
			return nil, 1, true
		case strings.HasPrefix(a, "-chdir=") || strings.HasPrefix(a, "--chdir="):
			out = append(out, a)
		default:
			bad = append(bad, a)
		}
	}
	writeTopHelp(stdout, root)
	if help {
		return nil, 0, true
	}
	return nil, 127, true // as OpenTofu: no subcommand is a usage error
}

// writeTopHelp prints the top-level help in OpenTofu's layout.
func writeTopHelp(w io.Writer, root *cobra.Command) {
	line := func(name, short string) {
		fmt.Fprintf(w, "  %-13s %s\n", name, short)
	}
	fmt.Fprint(w, "Usage: tenet [global options] <subcommand> [args]\n\n"+
		"The available commands for execution are listed below.\n"+
		"The primary workflow commands are given first, followed by\n"+
		"less common or more advanced commands.\n\nMain commands:\n")
	var others []*cobra.Command
	for _, name := range mainCommands {
		for _, c := range root.Commands() {
			if c.Name() == name {
				line(c.Name(), c.Short)
			}
		}
	}
	for _, c := range root.Commands() {
		if !c.Hidden && c.Name() != "help" && c.Name() != "completion" && !slices.Contains(mainCommands, c.Name()) {
			others = append(others, c)
		}
	}
	fmt.Fprint(w, "\nAll other commands:\n")
	for _, c := range others { // cobra keeps them sorted by name
		line(c.Name(), c.Short)
	}
	fmt.Fprint(w, "\nGlobal options (use these before the subcommand, if any):\n"+
		"  -chdir=DIR    Switch to a different working directory before executing the\n"+
		"                given subcommand.\n"+
		"  -help         Show this help output, or the help for a specified subcommand.\n"+
		"  -version      An alias for the \"version\" subcommand.\n")
}

// noSuchCommand prints OpenTofu's answer to a subcommand it does not
// have, when err is cobra's report of one at the top level.
func noSuchCommand(w io.Writer, err error, args []string) bool {
	if err == nil || !strings.HasPrefix(err.Error(), "unknown command ") {
		return false
	}
	name := ""
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			name = a
			break
		}
	}
	fmt.Fprintf(w, "tenet has no command named %q.\n\nTo see all of tenet's top-level commands, run:\n  tenet -help\n\n", name)
	return true
}
