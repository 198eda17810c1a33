package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/internal/attrpath"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statefile"

	"github.com/tenetplan/tenet/engine/plan/planjson"

	"github.com/tenetplan/tenet/cli/views/human"
)

func newStateCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "state", Short: "Inspect and change the state"}
	cmd.AddCommand(
		newStateListCommand(g),
		newStateShowCommand(g),
		newStatePullCommand(g),
		newStatePushCommand(g),
		newStateMvCommand(g),
		newStateRmCommand(g),
		newStateReplaceProviderCommand(g),
	)
	return cmd
}

// instanceObject is one object of the state, in state-file order.
type instanceObject struct {
	addr     addrs.AbsResourceInstance
	deposed  state.DeposedKey
	obj      *state.ObjectSrc
	provider addrs.Provider
}

func stateObjects(s *state.State) []instanceObject {
	var out []instanceObject
	if s == nil {
		return nil
	}
	for _, m := range s.Modules {
		for _, r := range m.Resources {
			for k, ri := range r.Instances {
				addr := r.Addr.Instance(k)
				if ri.Current != nil {
					out = append(out, instanceObject{addr: addr, obj: ri.Current, provider: r.ProviderConfig.Provider})
				}
				for dk, obj := range ri.Deposed {
					out = append(out, instanceObject{addr: addr, deposed: dk, obj: obj, provider: r.ProviderConfig.Provider})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		// As OpenTofu lists them: shallower modules first.
		if di, dj := len(out[i].addr.Module), len(out[j].addr.Module); di != dj {
			return di < dj
		}
		if !out[i].addr.Equal(out[j].addr) {
			return out[i].addr.Less(out[j].addr)
		}
		return out[i].deposed < out[j].deposed
	})
	return out
}

func newStateListCommand(g *globals) *cobra.Command {
	var statePath, id string
	cmd := &cobra.Command{
		Use:   "list [options] [ADDRESS...]",
		Short: "List resources in the state",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			st, err := readState(u, statePath)
			if err != nil {
				return err
			}
			if st == nil {
				return noStateFile(u, u.color)
			}
			objects := stateObjects(st)
			var filters []*addrs.Target
			for _, a := range args {
				t, diags := addrs.ParseTargetStr(a)
				if diags.HasErrors() {
					return u.fail(diags)
				}
				// Like OpenTofu, an address the state does not hold is an
				// error before anything is listed, not an empty answer.
				if d := unknownInState(t, objects); d != nil {
					return u.fail(hcl.Diagnostics{d})
				}
				filters = append(filters, t)
			}
			for _, o := range objects {
				if o.deposed != state.NotDeposed {
					continue
				}
				if len(filters) > 0 && !matchesAny(filters, o.addr) {
					continue
				}
				if id != "" && objectID(o.obj) != id {
					continue
				}
				fmt.Fprintln(u.out, o.addr.String())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&statePath, "state", defaultStatePath, "path to the state file")
	cmd.Flags().StringVar(&id, "id", "", "list only the objects whose id attribute is this value")
	cmd.Flags().Bool("no-color", false, "disable color")
	return cmd
}

// objectID is the string value of an object's "id" attribute, or "" when it
// has none (or the attribute is not a string).
func objectID(o *state.ObjectSrc) string {
	var attrs struct {
		ID *string `json:"id"`
	}
	if o == nil || json.Unmarshal(o.AttrsJSON, &attrs) != nil || attrs.ID == nil {
		return ""
	}
	return *attrs.ID
}

// unknownInState returns the error for a state list address that names
// nothing in the state, or nil when some object lies within it.
func unknownInState(t *addrs.Target, objects []instanceObject) *hcl.Diagnostic {
	for _, o := range objects {
		if matches(t, o.addr) {
			return nil
		}
	}
	d := &hcl.Diagnostic{Severity: hcl.DiagError}
	switch s := t.Subject.(type) {
	case addrs.AbsResourceInstance:
		d.Summary = "Unknown resource instance"
		d.Detail = fmt.Sprintf("The current state contains no resource instance %s. If you've just added its resource to the configuration or have changed the count or for_each arguments, you must run \"tenet apply\" first to update the resource's entry in the state.", s)
	case addrs.AbsResource:
		d.Summary = "Unknown resource"
		d.Detail = fmt.Sprintf("The current state contains no resource %s. If you've just added this resource to the configuration, you must run \"tenet apply\" first to create the resource's entry in the state.", s)
	case addrs.ModuleInstance:
		d.Summary = "Unknown module"
		d.Detail = fmt.Sprintf("The current state contains no module at %s. If you've just added this module to the configuration, you must run \"tenet apply\" first to create the module's entry in the state.", s)
	default:
		return nil
	}
	return d
}

// matchesAny reports whether addr lies within any of the targets.
func matchesAny(targets []*addrs.Target, addr addrs.AbsResourceInstance) bool {
	return slices.ContainsFunc(targets, func(t *addrs.Target) bool { return matches(t, addr) })
}

// matches reports whether addr lies within target t.
func matches(t *addrs.Target, addr addrs.AbsResourceInstance) bool {
	switch s := t.Subject.(type) {
	case addrs.AbsResourceInstance:
		return s.Equal(addr)
	case addrs.AbsResource:
		return s.Equal(addr.ContainingResource())
	case addrs.ModuleInstance:
		return s.IsAncestorOf(addr.Module)
	}
	return false
}

func newStateShowCommand(g *globals) *cobra.Command {
	var statePath string
	var showSensitive bool
	cmd := &cobra.Command{
		Use:   "show [options] ADDRESS",
		Short: "Show one resource instance in the state",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return wrongArgCount(cmd, g, false, "Exactly one argument expected.\n", true, helpToStdout)
			}
			u := newUI(cmd, g, true, false)
			u.showSensitive = showSensitive
			// As OpenTofu, this command's errors are plain text.
			const oneInstance = "\n\nThis command requires that the address references one specific instance.\nTo view the available instances, use \"tenet state list\". Please modify \nthe address to reference a specific instance.\n"
			addr, diags := addrs.ParseAbsResourceInstanceStr(args[0])
			if diags.HasErrors() {
				fmt.Fprint(u.errw, "Error parsing instance address: "+args[0]+oneInstance)
				return &exitError{1}
			}
			file, err := readStateFile(u, statePath)
			if err != nil {
				return err
			}
			if file == nil || file.State == nil {
				return noStateFile(u, false)
			}
			for _, o := range stateObjects(file.State) {
				if o.addr.Equal(addr) && o.deposed == state.NotDeposed {
					return writeStateObject(u, g, o)
				}
			}
			fmt.Fprint(u.errw, "No instance found for the given address!"+oneInstance)
			return &exitError{1}
		},
	}
	cmd.Flags().StringVar(&statePath, "state", defaultStatePath, "path to the state file")
	cmd.Flags().Bool("no-color", false, "disable color (output is never colored)")
	registerShowSensitive(cmd, &showSensitive)
	return cmd
}

// writeStateObject renders one object as HCL-like text. Attributes that
// do not decode are an error, not an empty block: plan rejects them, and
// showing nothing would hide that the state needs fixing.
func writeStateObject(u *ui, g *globals, o instanceObject) error {
	r := o.addr.Resource.Resource
	// The schema gives the real type; without it (an unknown provider)
	// the JSON's own shape is the best guess.
	g.resolveProvidersIfPossible()
	ty, known := schemaLookup{g.providerRegistry()}.types(o.provider, r.Mode, r.Type)
	var err error
	if !known {
		ty, err = ctyjson.ImpliedType(o.obj.AttrsJSON)
	}
	var v cty.Value
	if err == nil {
		v, err = state.UnmarshalAttrs(o.obj.AttrsJSON, ty)
	}
	if err == nil && !v.Type().IsObjectType() {
		err = fmt.Errorf("the attributes are not an object")
	}
	if err != nil {
		var pe cty.PathError
		if errors.As(err, &pe) && len(pe.Path) > 0 {
			err = fmt.Errorf("at %s, %w", attrpath.String(pe.Path), err)
		}
		what := o.addr.String()
		if o.deposed != state.NotDeposed {
			what += fmt.Sprintf(" (deposed object %s)", o.deposed)
		}
		return u.errorf("Invalid attributes in the state", "The attributes stored for %s do not decode as a %s of provider %s: %s.\n\ntenet plan rejects them too. Correct them in the state file, or remove the object from the state with \"tenet state rm\" and import it again.", what, r.Type, o.provider, err)
	}
	header := "# " + o.addr.String() + ":"
	if o.deposed != state.NotDeposed {
		header = fmt.Sprintf("# %s: (deposed object %s)", o.addr, o.deposed)
	} else if o.obj.Status == state.ObjectTainted {
		header = "# " + o.addr.String() + ": (tainted)"
	}
	fmt.Fprintln(u.out, header)
	// Drawn from the decoded value (so it is known to fit the schema),
	// with what the state records as sensitive hidden.
	attrs, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return u.errorf("Invalid attributes in the state", "The attributes stored for %s cannot be encoded: %s.", o.addr, err)
	}
	mode := "managed"
	if r.Mode == addrs.DataResourceMode {
		mode = "data"
	}
	sens := planjson.AppendSensitive(nil, v, o.obj.SensitivePaths)
	if err := human.RenderStateObject(u.out, schemaLookup{g.providerRegistry()}, o.provider.String(), mode, r.Type, r.Name, attrs, sens, u.showSensitive); err != nil {
		return u.errorf("Failed to render the state", "%s", err)
	}
	return nil
}

func showStateHuman(u *ui, g *globals, file *statefile.File) error {
	for i, o := range stateObjects(file.State) {
		if i > 0 {
			fmt.Fprintln(u.out)
		}
		if err := writeStateObject(u, g, o); err != nil {
			return err
		}
	}
	if len(file.State.Outputs) > 0 {
		fmt.Fprintln(u.out, "\n\nOutputs:")
		fmt.Fprintln(u.out)
		if err := human.WriteStateOutputs(u.out, outputValues(file.State), u.showSensitive); err != nil {
			return u.errorf("Failed to render the outputs", "%s", err)
		}
	}
	return nil
}
