package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/cli/views/human"
	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/planfile"
	"github.com/tenetplan/tenet/engine/plan/planjson"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"
	"github.com/tenetplan/tenet/state/statejson"
)

// showArgError reports an error in show's arguments as OpenTofu does:
// the diagnostic, then where to find help (outside its frame).
func showArgError(u *ui, summary, detail string) error {
	u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail}})
	fmt.Fprint(u.errw, "\nFor more help on using this command, run:\n  tenet show -help\n")
	return &exitError{1}
}

func newShowCommand(g *globals) *cobra.Command {
	var jsonOut, noColor, latestState, showSensitive bool
	var planPath string
	cmd := &cobra.Command{
		Use:   "show [options] [PATH]",
		Short: "Show a saved plan, a state file or the current state",
		Long: "Shows the current state, or with PATH a saved plan file or a state file\n" +
			"(such as one written by `tenet state pull`). -state and -plan=FILE say which\n" +
			"of the two to show instead of a PATH.",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			u.showSensitive = showSensitive
			g.resolveProvidersIfPossible()
			switch {
			case planPath == "" && !latestState:
				switch len(args) {
				case 0:
					return showCurrentState(u, g, jsonOut)
				case 1:
					return showPath(u, g, args[0], jsonOut)
				}
				return showArgError(u, "Too many command line arguments", "Expected at most one positional argument for the legacy positional argument mode.")
			case len(args) != 0:
				return showArgError(u, "Unexpected command line arguments", "This command does not expect any positional arguments when using a target-selection option.")
			case planPath != "" && latestState:
				return showArgError(u, "Conflicting object types to show", "The -state and -plan=FILENAME options are mutually-exclusive, to specify which kind of object to show.")
			case latestState:
				return showCurrentState(u, g, jsonOut)
			}
			p, err := planfile.ReadFile(planPath)
			if err != nil {
				return u.errorf("Failed to read the plan file", "%s", err)
			}
			return showSavedPlan(u, g, p, jsonOut)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "machine-readable output")
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	cmd.Flags().BoolVar(&latestState, "state", false, "show the latest state snapshot")
	cmd.Flags().StringVar(&planPath, "plan", "", "show the plan saved in this file")
	registerShowSensitive(cmd, &showSensitive)
	registerConsolidation(cmd)
	return cmd
}

// showPath shows the saved plan or state file at path, whichever it is.
func showPath(u *ui, g *globals, path string, jsonOut bool) error {
	p, planErr := planfile.ReadFile(path)
	if planErr == nil {
		return showSavedPlan(u, g, p, jsonOut)
	}
	file, stateErr := readStateAt(path)
	if stateErr != nil {
		return u.errorf("Failed to read the given file as a state or plan file", "State read error: %s\n\nPlan read error: %s", stateErr, planErr)
	}
	return showState(u, g, file, jsonOut)
}

// readStateAt reads a state file such as `state pull` writes.
func readStateAt(path string) (*statefile.File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) && pathErr.Op == "open" {
			return nil, fmt.Errorf("Error loading statefile: %w", err)
		}
		return nil, fmt.Errorf("Error reading %s as a statefile: %w", path, err)
	}
	file, err := statefile.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("Error reading %s as a statefile: %w", path, err)
	}
	return file, nil
}

func showSavedPlan(u *ui, g *globals, p *plan.Plan, jsonOut bool) error {
	if jsonOut {
		js, err := planjson.Marshal(p, schemaLookup{g.providerRegistry()}.types)
		if err != nil {
			return u.errorf("Failed to encode the plan", "%s", err)
		}
		fmt.Fprintln(u.out, string(js))
		return nil
	}
	js, err := planjson.MarshalView(p)
	if err != nil {
		return u.errorf("Failed to encode the plan", "%s", err)
	}
	return human.RenderPlan(u.out, js, schemaLookup{g.providerRegistry()}, human.RenderOptions{Color: u.color, Mode: viewMode(p.Mode), ShowSensitive: u.showSensitive, InAutomation: inAutomation(u.env)})
}

// showCurrentState shows the state of the selected workspace.
func showCurrentState(u *ui, g *globals, jsonOut bool) error {
	file, err := readStateFile(u, defaultStatePath)
	if err != nil {
		return err
	}
	return showState(u, g, file, jsonOut)
}

func showState(u *ui, g *globals, file *statefile.File, jsonOut bool) error {
	if jsonOut {
		// OpenTofu writes only the format version for a state that holds
		// nothing, as for no state at all.
		var st *state.State
		if file != nil && !file.State.Empty() {
			st = file.State
		}
		js, err := statejson.Marshal(st, Version, schemaLookup{g.providerRegistry()}.types)
		if err != nil {
			return u.errorf("Failed to encode the state", "%s", err)
		}
		fmt.Fprintln(u.out, string(js))
		return nil
	}
	if file == nil {
		fmt.Fprintln(u.out, "No state.")
		return nil
	}
	if file.State == nil || file.State.Empty() {
		fmt.Fprintln(u.out, "The state file is empty. No resources are represented.")
		return nil
	}
	return showStateHuman(u, g, file)
}
