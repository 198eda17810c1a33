package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// withEnvArgs adds the arguments of TF_CLI_ARGS and TF_CLI_ARGS_<command>
// as OpenTofu does: each is split like a shell command line and inserted
// right after the subcommand's name, the general variable first and then
// the command's own before it, so the command's own and then the user's
// arguments come later and win. The command's variable names nested
// commands with underscores for spaces and dashes (TF_CLI_ARGS_state_list,
// TF_CLI_ARGS_force_unlock).
func withEnvArgs(root *cobra.Command, args []string, env []string) ([]string, error) {
	sub := subcommandName(root, args)
	args, err := mergeEnvArgs("TF_CLI_ARGS", lookupEnv(env, "TF_CLI_ARGS"), sub, args)
	if err != nil {
		return nil, err
	}
	name := "TF_CLI_ARGS_" + strings.NewReplacer(" ", "_", "-", "_").Replace(sub)
	if sub == "" {
		return args, nil
	}
	return mergeEnvArgs(name, lookupEnv(env, name), sub, args)
}

// subcommandName is the path of the command args run, without "tenet"
// ("plan", "state list"); "" for the root.
func subcommandName(root *cobra.Command, args []string) string {
	cmd, _, err := root.Find(NormalizeArgs(args))
	if err != nil || cmd == nil || cmd == root {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), root.Name()+" ")
}

func mergeEnvArgs(name, value, sub string, args []string) ([]string, error) {
	if value == "" {
		return args, nil
	}
	extra, err := splitShellWords(value)
	if err != nil {
		return nil, fmt.Errorf("Error parsing extra CLI args from %s: %w", name, err)
	}
	// After the last word of the subcommand's name, or first of all when
	// it is not there.
	last := sub
	if i := strings.LastIndexByte(sub, ' '); i >= 0 {
		last = sub[i+1:]
	}
	at := 0
	for i, a := range args {
		if last != "" && a == last {
			at = i + 1
			break
		}
	}
	out := make([]string, 0, len(args)+len(extra))
	out = append(out, args[:at]...)
	out = append(out, extra...)
	return append(out, args[at:]...), nil
}

var errBadCommandLine = errors.New("invalid command line string")

// splitShellWords splits s into words as a POSIX shell would without
// expansions: blanks separate words; 'single quotes' keep everything;
// "double quotes" keep everything but a backslash before " \ $ or `;
// outside quotes a backslash keeps the next character. No $VARIABLE or
// glob is expanded. An unterminated quote or trailing backslash is an
// error.
func splitShellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errBadCommandLine
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errBadCommandLine
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errBadCommandLine
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
