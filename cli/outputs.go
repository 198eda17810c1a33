package cli

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/config"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/state"

	"github.com/tenetplan/tenet/cli/views/human"
)

func outputValues(s *state.State) map[string]views.OutputValue {
	out := map[string]views.OutputValue{}
	if s == nil {
		return out
	}
	for name, o := range s.Outputs {
		out[name] = views.OutputValue{Value: o.Value, Sensitive: o.Sensitive, Deprecated: o.Deprecated}
	}
	return out
}

func writeOutputs(u *ui, s *state.State) {
	human.WriteApplyOutputs(u.out, outputValues(s), u.color, u.showSensitive)
}

// schemaLookup finds resource schemas for the human renderer.
type schemaLookup struct{ reg providers.Registry }

var schemaCache sync.Map // provider source -> *providers.GetProviderSchemaResponse

func (s schemaLookup) ResourceSchema(providerName, mode, typ string) *providers.Block {
	p, err := addrs.ParseProviderSource(providerName)
	if err != nil {
		return nil
	}
	var resp *providers.GetProviderSchemaResponse
	if v, ok := schemaCache.Load(p); ok {
		resp = v.(*providers.GetProviderSchemaResponse)
	} else {
		factory, ok := s.reg[p]
		if !ok {
			return nil
		}
		inst, err := factory()
		if err != nil {
			return nil
		}
		r := inst.GetProviderSchema(context.Background())
		_ = inst.Close(context.Background())
		resp = &r
		schemaCache.Store(p, resp)
	}
	var sch providers.Schema
	var ok bool
	if mode == "data" {
		sch, ok = resp.DataSources[typ]
	} else {
		sch, ok = resp.ResourceTypes[typ]
	}
	if !ok {
		return nil
	}
	return sch.Block
}

func newOutputCommand(g *globals) *cobra.Command {
	var jsonOut, raw, noColor, showSensitive bool
	var statePath string
	var vars []config.VarSource
	cmd := &cobra.Command{
		Use:   "output [options] [NAME]",
		Short: "Show output values from the state",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColor, false)
			u.showSensitive = showSensitive
			if diags := checkOutputArgs(args, &jsonOut, &raw); diags.HasErrors() {
				u.diagnostics(diags)
				fmt.Fprint(u.errw, "\nFor more help on using this command, run:\n  tenet output -help\n")
				return &exitError{1}
			}
			// As in OpenTofu, the values are read but not used.
			if diags := config.CheckVariableSources(os.DirFS("."), ".", vars); diags.HasErrors() {
				return u.fail(diags)
			}
			u.useVars(vars, false) // OpenTofu does not ask here
			st, err := readState(u, statePath)
			if err != nil {
				return err
			}
			outs := outputValues(st)
			if len(outs) == 0 && !jsonOut {
				// As OpenTofu: without outputs the human and raw views only
				// warn; -json answers "{}", or that the named one is missing.
				u.diagnostics(hcl.Diagnostics{{
					Severity: hcl.DiagWarning,
					Summary:  "No outputs found",
					Detail:   "The state file either has no outputs defined, or all the defined outputs are empty. Please define an output in your configuration with the `output` keyword and run `tenet refresh` for it to become available. If you are using interpolation, please verify the interpolated value is not empty. You can use the `tenet console` command to assist.",
				}})
				return nil
			}
			if len(args) == 1 {
				o, ok := outs[args[0]]
				if !ok {
					return u.errorf(fmt.Sprintf("Output %q not found", args[0]), "The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `tenet apply`, since the state won't be updated with new output variables until that command is run.")
				}
				switch {
				case jsonOut:
					js, err := views.OutputValueJSON(o.Value)
					if err != nil {
						return u.errorf("Failed to encode output", "%s", err)
					}
					fmt.Fprintln(u.out, string(js))
				case raw:
					s, err := views.RawOutputValue(args[0], o.Value)
					if err != nil {
						return u.errorf("Unsupported value for raw output", "%s", err)
					}
					fmt.Fprint(u.out, s)
				default:
					fmt.Fprintln(u.out, views.FormatOutputValue(o.Value))
				}
				return nil
			}
			if jsonOut {
				js, err := views.OutputsJSON(outs) // ends its own line
				if err != nil {
					return u.errorf("Failed to encode outputs", "%s", err)
				}
				u.out.Write(js)
				return nil
			}
			return human.WriteOutputs(u.out, outs, u.showSensitive)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the outputs as JSON")
	cmd.Flags().BoolVar(&raw, "raw", false, "print a single string, number or bool output without quotes")
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	registerShowSensitive(cmd, &showSensitive)
	registerConsolidation(cmd)
	cmd.Flags().StringVar(&statePath, "state", defaultStatePath, "path to the state file")
	cmd.Flags().Var(&varFlag{kind: config.ValueFromCLI, list: &vars}, "var", "accepted as OpenTofu does: the value is read, not used")
	cmd.Flags().Var(&varFlag{kind: config.ValueFromFile, list: &vars}, "var-file", "accepted as OpenTofu does: the file is read, its values not used")
	return cmd
}

// checkOutputArgs reports the output command's arguments that do not go
// together, in OpenTofu's words and order. Given both -json and -raw it
// drops both, as OpenTofu does, before looking further.
func checkOutputArgs(args []string, jsonOut, raw *bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(args) > 1 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unexpected argument",
			Detail: "The output command expects exactly one argument with the name of an output variable or no arguments to show all outputs."})
	}
	if *jsonOut && *raw {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid output format",
			Detail: "The -raw and -json options are mutually-exclusive."})
		*jsonOut, *raw = false, false
	}
	if *raw && len(args) == 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Output name required",
			Detail: "You must give the name of a single output value when using the -raw option."})
	}
	return diags
}

// types gives the implied type of a resource type's schema, for the JSON
// state view.
func (s schemaLookup) types(p addrs.Provider, mode addrs.ResourceMode, typ string) (cty.Type, bool) {
	b := s.ResourceSchema(p.String(), mode.String(), typ)
	if b == nil {
		return cty.NilType, false
	}
	return b.ImpliedType(), true
}
