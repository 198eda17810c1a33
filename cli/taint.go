package cli

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

func newTaintCommand(g *globals, taint bool) *cobra.Command {
	var sf stateFlags
	var noColor, allowMissing bool
	use, short := "taint [options] ADDRESS", "Mark a resource instance as not fully functional"
	if !taint {
		use, short = "untaint [options] ADDRESS", "Remove the 'tainted' state from a resource instance"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return wrongArgCount(cmd, g, !noColor, fmt.Sprintf("The %s command expects exactly one argument.", cmd.Name()), false, helpInRed)
			}
			u := newUI(cmd, g, noColor, false)
			u.legacyDiags = true
			addr, diags := addrs.ParseAbsResourceInstanceStr(args[0])
			if diags.HasErrors() {
				return u.fail(diags)
			}
			if taint && addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
				return plainError(u, u.color, fmt.Sprintf("Resource instance %s cannot be tainted", addr))
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			mgr, st, release, err := sf.openState(ctx, u, map[bool]string{true: "taint", false: "untaint"}[taint])
			if err != nil {
				return err
			}
			defer release()
			ri := st.ResourceInstance(addr)
			if ri != nil && ri.Current == nil && len(ri.Deposed) > 0 {
				return u.errorf("No such resource instance", "Resource instance %s is currently part-way through a create_before_destroy replacement action. Run \"tenet apply\" to complete its replacement before tainting it.", addr)
			}
			if ri == nil || ri.Current == nil {
				if allowMissing {
					u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "No such resource instance", Detail: fmt.Sprintf("Resource instance %s was not found, but this is not an error because -allow-missing was set.", addr)}})
					return nil
				}
				if st.Empty() {
					return u.errorf("No such resource instance", "The state currently contains no resource instances whatsoever. This may occur if the configuration has never been applied or if it has recently been destroyed.")
				}
				// OpenTofu says "tainted" for untaint too.
				return u.errorf("No such resource instance", "There is no resource instance in the state with the address %s. If the resource configuration has just been added, you must run \"tenet apply\" once to create the corresponding instance(s) before they can be tainted.", addr)
			}
			if taint {
				ri.Current.Status = state.ObjectTainted
			} else {
				if ri.Current.Status != state.ObjectTainted {
					return u.errorf("Resource instance is not tainted", "Resource instance %s is not currently tainted, and so it cannot be untainted.", addr)
				}
				ri.Current.Status = state.ObjectReady
			}
			if err := mgr.Write(st); err != nil {
				return u.errorf("Failed to save state", "%s", err)
			}
			if taint {
				fmt.Fprintf(u.out, "Resource instance %s has been marked as tainted.\n", addr)
			} else {
				fmt.Fprintf(u.out, "Resource instance %s has been successfully untainted.\n", addr)
			}
			return nil
		},
	}
	sf.register(cmd)
	acceptIgnoreRemoteVersion(cmd)
	cmd.Flags().BoolVar(&noColor, "no-color", false, "disable color")
	cmd.Flags().BoolVar(&allowMissing, "allow-missing", false, "succeed even if the instance is missing")
	return cmd
}
