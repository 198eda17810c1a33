package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statejson"

	"github.com/tenetplan/tenet/engine/plan/planjson"

	"github.com/tenetplan/tenet/engine/plan/planfile"

	"github.com/tenetplan/tenet/cli/views/human"
)

func newShowCommand(g *globals) *cobra.Command {
	var jsonOut, noColor bool
	var statePath string
	cmd := &cobra.Command{
		Use:   "show [options] [PLANFILE]",
		Short: "Show a saved plan or the current state",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			g.resolveProvidersIfPossible()
			if len(args) == 1 {
				p, err := planfile.ReadFile(args[0])
				if err != nil {
					return u.errorf("Failed to read the plan file", "%s", err)
				}
				marshal := planjson.MarshalView
				if jsonOut {
					marshal = func(p *plan.Plan) ([]byte, error) {
						return planjson.Marshal(p, schemaLookup{g.providerRegistry()}.types)
					}
				}
				js, err := marshal(p)
				if err != nil {
					return u.errorf("Failed to encode the plan", "%s", err)
				}
				if jsonOut {
					fmt.Fprintln(u.out, string(js))
					return nil
				}
				return human.RenderPlan(u.out, js, schemaLookup{g.providerRegistry()}, human.RenderOptions{Color: u.color, Mode: viewMode(p.Mode)})
			}
			file, err := readStateFile(u, statePath)
			if err != nil {
				return err
			}
			if jsonOut {
				var st *state.State
				if file != nil {
					st = file.State
				}
				js, err := statejson.Marshal(st, Version, schemaLookup{g.providerRegistry()}.types)
				if err != nil {
					return u.errorf("Failed to encode the state", "%s", err)
				}
				fmt.Fprintln(u.out, string(js))
				return nil
			}
			if file == nil || file.State == nil || file.State.Empty() {
				fmt.Fprintln(u.out, "The state file is empty. No resources are represented.")
				return nil
			}
			return showStateHuman(u, g, file)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "machine-readable output")
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	cmd.Flags().StringVar(&statePath, "state", defaultStatePath, "path to the state file")
	return cmd
}

var _ = os.Stdout
