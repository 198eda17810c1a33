package cli

import "github.com/spf13/cobra"

// newGetCommand is "get [-update]": init's module step alone.
func newGetCommand(g *globals) *cobra.Command {
	var noColor, update, jsonOut bool
	cmd := &cobra.Command{
		Use:   "get [options]",
		Short: "Install or upgrade the modules the configuration calls",
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
			return initModules(cmd, u, g, update, false)
		},
	}
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the output as a stream of JSON messages")
	cmd.Flags().BoolVar(&update, "update", false, "check installed modules for newer versions and fetch them again")
	registerTestDirectory(cmd)
	return cmd
}
