package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backends"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"
)

// newWorkspaceCommand is "tenet workspace": named states of one
// configuration. The selection is kept in the data directory's
// environment file; TF_WORKSPACE overrides it.
func newWorkspaceCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "workspace", Short: "Manage workspaces"}
	cmd.AddCommand(newWorkspaceNewCommand(g), newWorkspaceSelectCommand(g), newWorkspaceListCommand(g), newWorkspaceShowCommand(g), newWorkspaceDeleteCommand(g))
	requireSubcommand(cmd)
	return cmd
}

// workspaceStore lists, creates and deletes the workspaces of the
// configured backend.
type workspaceStore interface {
	list(ctx context.Context) ([]string, error)
	// create makes an empty workspace, or one holding initial.
	create(ctx context.Context, name string, initial *statefile.File, lock bool, timeout time.Duration) error
	// stateOf reads a workspace's state (nil when it has none).
	stateOf(ctx context.Context, name string) (*state.State, error)
	remove(ctx context.Context, name string, lock bool, timeout time.Duration) error
}

// localWorkspaces are the local backend's workspaces: "default" is the
// state path, every other one a directory under workspace_dir.
type localWorkspaces struct{ loc *stateLocation }

func (l localWorkspaces) path(name string) string {
	if name == "default" {
		return l.loc.Path
	}
	return filepath.Join(l.loc.WorkspaceDir, name, defaultStatePath)
}

func (l localWorkspaces) list(context.Context) ([]string, error) {
	names := []string{"default"}
	entries, err := os.ReadDir(l.loc.WorkspaceDir)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "default" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names[1:])
	return names, nil
}

func (l localWorkspaces) create(ctx context.Context, name string, initial *statefile.File, lock bool, timeout time.Duration) error {
	if err := os.MkdirAll(filepath.Join(l.loc.WorkspaceDir, name), 0o755); err != nil {
		return err
	}
	if initial == nil {
		return nil
	}
	m := local.Open(l.path(name), local.Options{BackupPath: "-", Lock: lock, LockTimeout: timeout, Operation: "OperationTypeInvalid", TerraformVersion: Version})
	if lock {
		if err := m.Lock(ctx, local.NewLockInfo("OperationTypeInvalid")); err != nil {
			return err
		}
		defer m.Unlock()
	}
	return m.WriteFile(initial)
}

func (l localWorkspaces) stateOf(_ context.Context, name string) (*state.State, error) {
	f, err := local.Open(l.path(name), local.Options{}).Read()
	if err != nil || f == nil {
		return nil, err
	}
	return f.State, nil
}

func (l localWorkspaces) remove(ctx context.Context, name string, lock bool, timeout time.Duration) error {
	if lock {
		m := local.Open(l.path(name), local.Options{Lock: true, LockTimeout: timeout, Operation: "OperationTypeInvalid", TerraformVersion: Version})
		if err := m.Lock(ctx, local.NewLockInfo("OperationTypeInvalid")); err != nil {
			return err
		}
		defer m.Unlock()
	}
	return os.RemoveAll(filepath.Join(l.loc.WorkspaceDir, name))
}

// openWorkspaces gives the workspaces of the configured backend.
func openWorkspaces(ctx context.Context, u *ui) (*stateLocation, workspaceStore, error) {
	loc, err := resolveBackend(u, u.env)
	if err != nil {
		return nil, nil, err
	}
	if loc.Type != "local" {
		b, diags := backends.Configure(ctx, loc.Type, backend.NewSettings(loc.Settings))
		if diags.HasErrors() {
			return nil, nil, u.fail(diags)
		}
		return loc, remoteWorkspaces{b: b, u: u}, nil
	}
	if loc.Workspace != "default" {
		// The default workspace's path, for listing and deleting.
		l2 := *loc
		l2.Path = defaultStatePath
		if v, ok := loc.Settings["path"]; ok && !v.IsNull() && v.AsString() != "" {
			l2.Path = v.AsString()
		}
		loc = &l2
	}
	return loc, localWorkspaces{loc}, nil
}

func workspaceExists(ctx context.Context, ws workspaceStore, name string) (bool, error) {
	names, err := ws.list(ctx)
	if err != nil {
		return false, err
	}
	for _, n := range names {
		if n == name {
			return true, nil
		}
	}
	return false, nil
}

func selectWorkspace(env []string, name string) error {
	if err := os.MkdirAll(dataDir(env), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dataDir(env), "environment"), []byte(name), 0o644)
}

// overridden refuses a selection that TF_WORKSPACE would make pointless,
// in OpenTofu's words: select is refused whenever TF_WORKSPACE is set, new
// only when it names another workspace (creating the one it names is how
// a pipeline makes its workspace).
func overridden(u *ui, name string, creating bool) error {
	ws := lookupEnv(u.env, "TF_WORKSPACE")
	switch {
	case ws == "":
		return nil
	case !creating:
		return plainError(u, u.color, "\nThe selected workspace is currently overridden using the TF_WORKSPACE\nenvironment variable.\n\nTo select a new workspace, either update this environment variable or unset\nit and then run this command again.\n")
	case ws != name:
		return plainError(u, u.color, "\nThe workspace is currently overridden using the TF_WORKSPACE environment\nvariable. You cannot create a new workspace when using this setting.\n\nTo create a new workspace, either unset this environment variable or update it\nto match the workspace name you are trying to create, and then run this command\nagain.\n")
	}
	return nil
}

// workspaceToSelect checks the NAME argument of "workspace new" and
// "workspace select", both of which end by selecting it: one valid name,
// and no TF_WORKSPACE that would make the selection pointless.
func workspaceToSelect(cmd *cobra.Command, g *globals, u *ui, args []string, creating bool) (string, error) {
	if len(args) != 1 {
		return "", wrongArgCount(cmd, g, u.color, "Expected a single argument: NAME.\n", false, helpToStdout)
	}
	name := args[0]
	if !creating {
		// OpenTofu checks the override before the name when selecting.
		if err := overridden(u, name, creating); err != nil {
			return "", err
		}
	}
	if !validWorkspaceName(name) {
		return "", plainError(u, u.color, fmt.Sprintf("\nThe workspace name %q is not allowed. The name must contain only URL safe\ncharacters, and no path separators.\n", name))
	}
	if creating {
		return name, overridden(u, name, creating)
	}
	return name, nil
}

func newWorkspaceNewCommand(g *globals) *cobra.Command {
	var lock bool
	var timeout time.Duration
	var statePath string
	cmd := &cobra.Command{
		Use:   "new [options] NAME",
		Short: "Create a workspace and select it",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			name, err := workspaceToSelect(cmd, g, u, args, true)
			if err != nil {
				return err
			}
			_, ws, err := openWorkspaces(cmd.Context(), u)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			if ok, err := workspaceExists(ctx, ws, name); err != nil {
				return listFailed(u, err, "Failed to get configured named states: ")
			} else if ok {
				return plainError(u, u.color, fmt.Sprintf("Workspace %q already exists", name))
			}
			var initial *statefile.File
			if statePath != "" {
				f, err := local.Open(statePath, local.Options{}).Read()
				if err != nil {
					return stateLoadFailed(u, err, statePath)
				}
				if f == nil {
					return u.errorf("Failed to load state", "The state file %s given with -state does not exist or is empty. Name an existing state file, or drop -state to start empty.", statePath)
				}
				initial = f
			}
			if err := ws.create(ctx, name, initial, lock, timeout); err != nil {
				return u.errorf("Failed to create workspace", "Creating the workspace %q failed: %s.", name, err)
			}
			if err := selectWorkspace(u.env, name); err != nil {
				return u.errorf("Failed to select workspace", "The workspace %q was created, but recording the selection failed: %s. Run \"tenet workspace select %s\".", name, err, name)
			}
			createdAndSwitched(u, name)
			return nil
		},
	}
	cmd.Flags().BoolVar(&lock, "lock", true, "lock the new workspace's state while it is written")
	cmd.Flags().DurationVar(&timeout, "lock-timeout", 0, "how long to retry acquiring the state lock")
	cmd.Flags().StringVar(&statePath, "state", "", "a state file to copy into the new workspace")
	return cmd
}

func newWorkspaceSelectCommand(g *globals) *cobra.Command {
	var orCreate bool
	cmd := &cobra.Command{
		Use:   "select [options] NAME",
		Short: "Select a workspace",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			name, err := workspaceToSelect(cmd, g, u, args, false)
			if err != nil {
				return err
			}
			loc, ws, err := openWorkspaces(cmd.Context(), u)
			if err != nil {
				return err
			}
			if loc.Workspace == name {
				return nil // as OpenTofu: nothing to say
			}
			ok, err := workspaceExists(cmd.Context(), ws, name)
			if err != nil {
				return listFailed(u, err, "")
			}
			if !ok {
				if !orCreate {
					return plainError(u, u.color, "\n"+noSuchWorkspaceAdvice(name))
				}
				if err := ws.create(cmd.Context(), name, nil, true, 0); err != nil {
					return u.errorf("Failed to create workspace", "Creating the workspace %q failed: %s.", name, err)
				}
			}
			if err := selectWorkspace(u.env, name); err != nil {
				return u.errorf("Failed to select workspace", "%s", err)
			}
			if !ok {
				createdAndSwitched(u, name)
				return nil
			}
			fmt.Fprintln(u.out, u.colorize(fmt.Sprintf("[reset][green]Switched to workspace %q.", name)))
			return nil
		},
	}
	cmd.Flags().BoolVar(&orCreate, "or-create", false, "create the workspace if it does not exist")
	return cmd
}

func newWorkspaceListCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the workspaces, marking the selected one",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return tooManyForChdir(cmd, !noColorFlag(cmd))
			}
			u := newUI(cmd, g, noColorFlag(cmd), false)
			loc, ws, err := openWorkspaces(cmd.Context(), u)
			if err != nil {
				return err
			}
			names, err := ws.list(cmd.Context())
			if err != nil {
				return listFailed(u, err, "")
			}
			for _, n := range names {
				mark := "  "
				if n == loc.Workspace {
					mark = "* "
				}
				fmt.Fprintf(u.out, "%s%s\n", mark, n)
			}
			fmt.Fprintln(u.out)
			if lookupEnv(u.env, "TF_WORKSPACE") != "" {
				fmt.Fprint(u.out, "\n\nThe active workspace is being overridden using the TF_WORKSPACE environment\nvariable.\n\n")
			}
			return nil
		},
	}
}

func newWorkspaceShowCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "show",
		Short: "Print the selected workspace's name",
		Args:  cobra.ArbitraryArgs, // ignored, as by OpenTofu
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			name, err := currentWorkspace(u.env)
			if err != nil {
				return u.errorf("Invalid workspace selection", "%s", err)
			}
			fmt.Fprintln(u.out, name)
			return nil
		},
	}
}

func newWorkspaceDeleteCommand(g *globals) *cobra.Command {
	var force, lock bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "delete [options] NAME",
		Short: "Delete a workspace",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			if len(args) != 1 {
				return wrongArgCount(cmd, g, u.color, "Expected a single argument: NAME.\n", false, helpToStdout)
			}
			name := args[0]
			loc, ws, err := openWorkspaces(cmd.Context(), u)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			ok, err := workspaceExists(ctx, ws, name)
			if err != nil {
				return listFailed(u, err, "")
			}
			// In OpenTofu's order and words.
			switch {
			case !ok:
				return plainError(u, u.color, noSuchWorkspaceAdvice(name))
			case loc.Workspace == name:
				return plainError(u, u.color, fmt.Sprintf("Workspace %q is your active workspace.\n\nYou cannot delete the currently active workspace. Please switch\nto another workspace and try again.", name))
			case name == "default" && loc.Type == "local":
				return plainError(u, u.color, "cannot delete default state")
			case name == "default":
				// OpenTofu's remote backends word it differently.
				return plainError(u, u.color, "can't delete default state")
			}
			st, err := ws.stateOf(ctx, name)
			if err != nil {
				return u.errorf("Failed to load state", "Reading the state of workspace %q failed: %s. Fix or remove the state, or delete the workspace with -force.", name, err)
			}
			if st != nil && st.HasManagedResourceInstanceObjects() && !force {
				var tracked strings.Builder
				for _, o := range stateObjects(st) {
					if o.addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
						continue
					}
					fmt.Fprintf(&tracked, "\n  - %s", o.addr)
					if o.deposed != state.NotDeposed {
						fmt.Fprintf(&tracked, " (deposed object %s)", o.deposed)
					}
				}
				return u.errorf("Workspace is not empty", "Workspace %q is currently tracking the following resource instances:%s\n\nDeleting this workspace would cause tenet to lose track of any associated remote objects, which would then require you to delete them manually outside of tenet. You should destroy these objects with tenet before deleting the workspace.\n\nIf you want to delete this workspace anyway, and have tenet forget about these managed objects, use the -force option to disable this safety check.", name, tracked.String())
			}
			if err := ws.remove(ctx, name, lock, timeout); err != nil {
				return u.errorf("Failed to delete workspace", "Deleting the workspace %q failed: %s.", name, err)
			}
			fmt.Fprintln(u.out, u.colorize(fmt.Sprintf("[reset][green]Deleted workspace %q!", name)))
			if st != nil && st.HasManagedResourceInstanceObjects() {
				fmt.Fprintln(u.out, u.colorize(fmt.Sprintf("[reset][yellow]WARNING: %q was non-empty.\nThe resources managed by the deleted workspace may still exist,\nbut are no longer manageable by tenet since the state has\nbeen deleted.\n", name)))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "delete even when the workspace's state tracks resources")
	cmd.Flags().BoolVar(&lock, "lock", true, "lock the workspace's state while it is deleted")
	cmd.Flags().DurationVar(&timeout, "lock-timeout", 0, "how long to retry acquiring the state lock")
	return cmd
}

// remoteWorkspaces are a pg, s3 or http backend's workspaces.
type remoteWorkspaces struct {
	b backend.Backend
	u *ui
}

// errWorkspacesUnsupported is a backend's answer when it keeps only the
// default workspace.
var errWorkspacesUnsupported = errors.New("workspaces not supported")

func (r remoteWorkspaces) list(ctx context.Context) ([]string, error) {
	names, d := r.b.Workspaces(ctx)
	if backend.IsWorkspacesUnsupported(d) {
		return nil, errWorkspacesUnsupported
	}
	return names, diagErr(d)
}

// listFailed reports that the workspaces could not be listed; a backend
// with only the default workspace is answered in OpenTofu's words, after
// prefix.
func listFailed(u *ui, err error, prefix string) error {
	if errors.Is(err, errWorkspacesUnsupported) {
		return plainError(u, u.color, prefix+err.Error())
	}
	return u.errorf("Failed to list workspaces", "%s", err)
}

func (r remoteWorkspaces) create(ctx context.Context, name string, initial *statefile.File, lock bool, timeout time.Duration) error {
	// Creating takes the backend's lock (in pg one creation lock for the
	// whole table), so creations race: wait for the holder until
	// -lock-timeout, as every other locked operation does.
	if err := retryWhileLocked(ctx, timeout, func() hcl.Diagnostics { return r.b.CreateWorkspace(ctx, name) }); err != nil {
		return err
	}
	if initial == nil {
		return nil
	}
	m, d := backend.Open(ctx, r.b, name, backend.Options{TerraformVersion: Version, LockTimeout: timeout})
	if d.HasErrors() {
		return diagErr(d)
	}
	if lock {
		id, d := m.Lock(ctx, backend.NewLockInfo("OperationTypeInvalid"))
		if d.HasErrors() {
			return diagErr(d)
		}
		defer m.Unlock(context.WithoutCancel(ctx), id)
	}
	return diagErr(m.WriteFile(ctx, initial))
}

func (r remoteWorkspaces) stateOf(ctx context.Context, name string) (*state.State, error) {
	m, d := backend.Open(ctx, r.b, name, backend.Options{TerraformVersion: Version})
	if d.HasErrors() {
		return nil, diagErr(d)
	}
	f, d := m.Read(ctx)
	if d.HasErrors() || f == nil {
		return nil, diagErr(d)
	}
	return f.State, nil
}

func (r remoteWorkspaces) remove(ctx context.Context, name string, lock bool, timeout time.Duration) error {
	if !lock {
		return errors.New("a remote backend deletes a workspace only under its lock, so -lock=false cannot be honoured; drop it")
	}
	// The caller has checked for resources; the backend deletes under the
	// workspace's lock, retried here until -lock-timeout.
	return retryWhileLocked(ctx, timeout, func() hcl.Diagnostics { return r.b.DeleteWorkspace(ctx, name, true) })
}

// retryWhileLocked runs op again while someone else holds the lock it
// needs, until timeout has passed.
func retryWhileLocked(ctx context.Context, timeout time.Duration, op func() hcl.Diagnostics) error {
	deadline := time.Now().Add(timeout)
	delay := 100 * time.Millisecond
	for {
		d := op()
		if _, held := backend.Holder(d); !held || !time.Now().Before(deadline) {
			return diagErr(d)
		}
		select {
		case <-ctx.Done():
			return diagErr(d)
		case <-time.After(min(delay, time.Until(deadline))):
		}
		delay = min(2*delay, time.Second)
	}
}

// noSuchWorkspaceAdvice is OpenTofu's answer to a workspace name that
// does not exist.
func noSuchWorkspaceAdvice(name string) string {
	return fmt.Sprintf("Workspace %q doesn't exist.\n\nYou can create this workspace with the \"new\" subcommand \nor include the \"-or-create\" flag with the \"select\" subcommand.", name)
}

// createdAndSwitched reports a workspace created and selected.
func createdAndSwitched(u *ui, name string) {
	fmt.Fprintln(u.out, u.colorize(fmt.Sprintf("[reset][green][bold]Created and switched to workspace %q![reset][green]\n\n", name)+
		"You're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"tenet plan\" tenet will not see any existing state\nfor this configuration."))
}
