package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"sync"

	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"
)

func newStatePullCommand(g *globals) *cobra.Command {
	var statePath string
	cmd := &cobra.Command{
		Use:   "pull [options]",
		Short: "Print the state as JSON",
		Long:  "Prints the stored state to standard output in the current state file format, so that it can be saved (tenet state pull > backup.tfstate) or inspected.",
		Args:  cobra.ArbitraryArgs, // ignored, as by OpenTofu
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			file, err := readStateFile(u, statePath)
			if err != nil || file == nil {
				return err
			}
			// Written by this version, as any state this tool writes.
			file.TerraformVersion = Version
			out, err := statefile.Marshal(file)
			if err != nil {
				return u.errorf("Failed to encode the state", "%s", err)
			}
			// OpenTofu ends the state with an empty line.
			_, err = fmt.Fprintf(u.out, "%s\n", out)
			return err
		},
	}
	cmd.Flags().StringVar(&statePath, "state", defaultStatePath, "path to the state file")
	return cmd
}

func newStatePushCommand(g *globals) *cobra.Command {
	var sf stateFlags
	var force bool
	cmd := &cobra.Command{
		Use:   "push [options] PATH",
		Short: "Replace the state with a local state file",
		Long:  "Replaces the stored state with the state file at PATH (\"-\" reads standard input). The lineage must match and the serial must not go backwards, unless -force is given.",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			if len(args) != 1 {
				return wrongArgCount(cmd, g, u.color, "Exactly one argument expected.\n", false, helpToStdout)
			}
			pushed, err := readPushed(cmd, u, args[0])
			if err != nil {
				return err
			}
			if err := sf.resolve(cmd.Context(), u, "state push"); err != nil {
				return err
			}
			defer sf.close()
			store := sf.openStore("OperationTypeInvalid")
			cur, release, err := lockAndRead(cmd.Context(), u, store, sf.path, sf.lock, "OperationTypeInvalid")
			if err != nil {
				return err
			}
			defer release()
			if !force {
				if err := local.CheckReplace(cur, pushed); err != nil {
					return plainError(u, u.color, "Failed to write state: "+err.Error())
				}
			}
			if err := store.WriteFile(pushed); err != nil {
				return u.errorf("Failed to write state", "%s\n\nThe state file %s was left as it was.", err, sf.path)
			}
			return nil
		},
	}
	sf.registerFor(cmd, false)
	acceptIgnoreRemoteVersion(cmd)
	cmd.Flags().BoolVar(&force, "force", false, "write the state even if the lineage differs or the serial is lower")
	return cmd
}

// readPushed reads the state file to push; "-" is standard input.
func readPushed(cmd *cobra.Command, u *ui, path string) (*statefile.File, error) {
	var src []byte
	var err error
	if path == "-" {
		src, err = io.ReadAll(cmd.InOrStdin())
	} else {
		src, err = os.ReadFile(path)
	}
	// Plain-text errors, as OpenTofu's state push prints them.
	if err != nil {
		return nil, plainError(u, u.color, err.Error())
	}
	f, err := statefile.Parse(src)
	if err != nil {
		return nil, plainError(u, u.color, fmt.Sprintf("Error reading source state %q: %s", path, err))
	}
	return f, nil
}

func newStateReplaceProviderCommand(g *globals) *cobra.Command {
	var sf stateFlags
	var autoApprove bool
	cmd := &cobra.Command{
		Use:   "replace-provider [options] FROM_PROVIDER_FQN TO_PROVIDER_FQN",
		Short: "Replace the provider of resources in the state",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			if len(args) != 2 {
				return wrongArgCount(cmd, g, u.color, "Exactly two arguments expected.\n", false, helpToStdout)
			}
			var provs [2]addrs.Provider
			for i, a := range args {
				p, err := addrs.ParseProviderSource(a)
				if err == nil && !validProviderParts(p) {
					err = fmt.Errorf("a provider address is [HOSTNAME/]NAMESPACE/TYPE, of letters, digits and dashes")
				}
				if err != nil {
					return u.errorf("Invalid provider address", "%q is not a valid provider address: %s.", a, err)
				}
				provs[i] = p
			}
			from, to := provs[0], provs[1]
			return sf.modifyState(cmd.Context(), u, "OperationTypeInvalid", func(st *state.State) (bool, error) {
				var matched []*state.Resource
				for _, m := range st.SortedModules() {
					for _, r := range m.SortedResources() {
						if r.ProviderConfig.Provider == from {
							matched = append(matched, r)
						}
					}
				}
				if len(matched) == 0 {
					fmt.Fprintln(u.out, "No matching resources found.")
					return false, nil
				}
				fmt.Fprintf(u.out, "tenet will perform the following actions:\n\n  ~ Updating provider:\n    - %s\n    + %s\n\n", from, to)
				fmt.Fprintf(u.out, "Changing %d resources:\n\n", len(matched))
				names := make([]string, len(matched))
				for i, r := range matched {
					names[i] = r.Addr.String()
				}
				sort.Strings(names)
				for _, n := range names {
					fmt.Fprintf(u.out, "  %s\n", n)
				}
				if !autoApprove {
					if !g.answers.askYes(cmd.Context(), u.out, "\nDo you want to make these changes?\nOnly 'yes' will be accepted to continue.\n\nEnter a value: ") {
						return false, u.errorf("Replacing providers cancelled", "Only 'yes' approves the change; the state was not changed.")
					}
				}
				for _, r := range matched {
					pc := r.ProviderConfig
					pc.Provider = to
					st.SetResourceProvider(r.Addr, pc)
				}
				fmt.Fprintf(u.out, "\nSuccessfully replaced provider for %d resources.\n", len(matched))
				return true, nil
			})
		},
	}
	sf.registerFor(cmd, true)
	acceptIgnoreRemoteVersion(cmd)
	cmd.Flags().BoolVar(&autoApprove, "auto-approve", false, "skip the interactive approval")
	return cmd
}

func newForceUnlockCommand(g *globals) *cobra.Command {
	var sf stateFlags
	var force bool
	cmd := &cobra.Command{
		Use:   "force-unlock [options] LOCK_ID",
		Short: "Release a stuck lock on the state",
		Long:  "Removes the state lock with the given ID, for an operation that can no longer release it. Only do this when you are sure no other operation is using the state.",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, true, false)
			if len(args) != 1 {
				return wrongArgCount(cmd, g, !noColorFlag(cmd), "Expected a single argument: LOCK_ID", false, helpToStdout)
			}
			id := args[0]
			if err := sf.resolve(cmd.Context(), u, "force-unlock"); err != nil {
				return err
			}
			defer sf.close()
			if !force {
				prompt := fmt.Sprintf("Do you really want to force-unlock?\n  tenet will remove the lock on the state %s, so that other commands can\n  change it even if the operation holding the lock is still running.\n  Only 'yes' will be accepted to confirm.\n\n  Enter a value: ", sf.path)
				if !g.answers.askYes(cmd.Context(), u.out, prompt) {
					return u.errorf("force-unlock cancelled", "Only 'yes' confirms; the lock was left in place.")
				}
			}
			store := sf.openStore("OperationTypeInvalid")
			if err := store.ForceUnlock(id); err != nil {
				if errors.Is(err, local.ErrNotLocked) {
					return u.errorf("Failed to unlock state", "The state %s is not locked, so there is no lock with the ID %s to remove.", sf.path, id)
				}
				return u.errorf("Failed to unlock state", "%s.", err)
			}
			fmt.Fprintf(u.out, "tenet state has been successfully unlocked!\n\nThe lock %s on %s was removed; tenet commands can lock the state again.\n", id, sf.path)
			return nil
		},
	}
	cmd.Flags().StringVar(&sf.path, "state", defaultStatePath, "path to the state file")
	cmd.Flags().BoolVar(&force, "force", false, "do not ask for confirmation")
	return cmd
}

var (
	providerPart = lazyRegexp(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)
	providerHost = lazyRegexp(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]+)?$`)
)

// validProviderParts reports whether p is a well-formed provider address,
// which ParseProviderSource, made for configuration, does not check.
func validProviderParts(p addrs.Provider) bool {
	return providerHost().MatchString(p.Hostname) && providerPart().MatchString(p.Namespace) && providerPart().MatchString(p.Type)
}

// lazyRegexp compiles expr on first use rather than at process start,
// where every command, even "version", would pay for it.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
