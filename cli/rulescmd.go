package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/rules"
)

func newRulesCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "Work with team planning rules",
	}
	cmd.AddCommand(newRulesTestCommand(g))
	return cmd
}

func newRulesTestCommand(g *globals) *cobra.Command {
	var noColor, verbose bool
	cmd := &cobra.Command{
		Use:   "test [options] [DIR]",
		Short: "Run the Rego unit tests of team planning rules",
		Long: `Run the Rego unit tests (test_ rules in *_test.rego files) of the team
planning rules in DIR (default .tenet/rules), compiled with tenet's default
rules in the same sandbox as planning. A rule file that does not parse or
compile, or that calls a forbidden built-in (http.send, net.*, opa.runtime,
time.now_ns, ...), fails the run with its file and line.

Exit status: 0 when every test passed, 1 otherwise.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			dir := filepath.Join(".tenet", "rules")
			if len(args) == 1 {
				dir = args[0]
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return u.errorf("Invalid rules directory", "The rules directory %q does not exist or is not a directory.", dir)
			}
			results, diags := rules.RunTests(contextOrBackground(cmd.Context()), []rules.Source{{Name: filepath.ToSlash(dir), FS: os.DirFS(dir)}})
			if u.diagnostics(diags) {
				return &exitError{1}
			}
			passed, failed, skipped := 0, 0, 0
			for _, r := range results {
				switch r.Status {
				case rules.TestSkip:
					skipped++
				case rules.TestPass:
					passed++
				default:
					failed++
				}
				if verbose || r.Status != rules.TestPass {
					fmt.Fprintf(u.out, "%s: %s.%s (%s:%d)\n", strings.ToUpper(r.Status), r.Package, r.Name, r.File, r.Line)
					if r.Status == rules.TestError {
						fmt.Fprintf(u.out, "  %s\n", r.Message)
					}
				}
			}
			if len(results) == 0 {
				fmt.Fprintf(u.out, "No tests found in %s: write test_ rules in *_test.rego files.\n", dir)
				return nil
			}
			fmt.Fprintf(u.out, "%d passed, %d failed, %d skipped\n", passed, failed, skipped)
			if failed > 0 {
				return &exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color in the output")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every test, not only the failing ones")
	return cmd
}
