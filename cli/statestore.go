package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"
)

// stateStore is what commands need from the place the state is kept. The
// local state file (local.Manager) implements it; other backends can slot
// in behind the same methods.
type stateStore interface {
	// Lock takes the state lock; Unlock releases it.
	Lock(ctx context.Context, info local.LockInfo) error
	Unlock() error
	// Read returns the stored snapshot (nil when there is none).
	Read() (*statefile.File, error)
	// Notices says what Read recovered only in part or could not apply.
	Notices() []local.Notice
	// Write stores a new state, bumping the serial when it changed.
	Write(s *state.State) error
	// WriteFile stores a snapshot with its own lineage and serial.
	WriteFile(f *statefile.File) error
	// ForceUnlock removes the lock with the given ID.
	ForceUnlock(id string) error
}

var _ stateStore = (*local.Manager)(nil)

// openStore opens the store for the state commands.
func (f *stateFlags) openStore(operation string) stateStore {
	if f.remote != nil {
		return &backendStore{r: f.remote}
	}
	return local.Open(f.path, local.Options{BackupPath: f.backup, Lock: f.lock, LockTimeout: f.lockTimeout, Operation: operation, TerraformVersion: Version})
}

// registerFor adds the state flags a state subcommand has: -state,
// -lock and -lock-timeout always, -backup when it writes a backup.
func (f *stateFlags) registerFor(cmd *cobra.Command, backup bool) {
	cmd.Flags().StringVar(&f.path, "state", defaultStatePath, "path to the state file")
	cmd.Flags().BoolVar(&f.lock, "lock", true, "lock the state file while the command runs")
	cmd.Flags().DurationVar(&f.lockTimeout, "lock-timeout", 0, "how long to retry acquiring the state lock")
	if backup {
		cmd.Flags().StringVar(&f.backup, "backup", "", "path of the backup file (\"-\" to disable)")
	}
}

// modifyState runs change on the locked state and writes the result
// unless change says not to (a dry run, nothing to do).
func (f *stateFlags) modifyState(ctx context.Context, u *ui, operation string, change func(st *state.State) (write bool, err error)) error {
	if err := f.resolve(ctx, u, "state"); err != nil {
		return err
	}
	defer f.close()
	f.timedBackup()
	store := f.openStore(operation)
	file, release, err := lockAndRead(ctx, u, store, f.path, f.lock, operation)
	if err != nil {
		return err
	}
	defer release()
	if file == nil || file.State == nil {
		return noStateFile(u, u.color)
	}
	st := file.State
	write, err := change(st)
	if err != nil || !write {
		return err
	}
	if err := store.Write(st); err != nil {
		return u.errorf("Failed to save state", "Writing the state failed: %s.\n\nThe state file %s was left as it was.", err, f.path)
	}
	return nil
}

// noStateFile is how a state command that finds no state fails, in
// OpenTofu's words and form: plain text on stderr, red when colour is on
// (state show never colours it).
func noStateFile(u *ui, color bool) error {
	return plainError(u, color, "No state file was found!\n\nState management commands require a state file. Run this command\nin a directory where tenet has been run or use the -state flag\nto point the command to a specific state location.")
}

// plainError fails a command with an error in the oldest form OpenTofu
// still uses for some commands (state, workspace): the message alone on
// stderr, red when color is set, and exit status 1.
func plainError(u *ui, color bool, msg string) error {
	if color {
		fmt.Fprint(u.errw, views.ANSIRed+msg+views.ANSIReset+views.ANSIReset+"\n")
	} else {
		fmt.Fprintln(u.errw, msg)
	}
	return &exitError{1}
}

// timedBackup sets the default backup of the state commands: as OpenTofu,
// a backup named for the time, so a second change does not overwrite the
// first one's backup.
func (f *stateFlags) timedBackup() {
	if f.backup == "" && f.remote == nil {
		f.backup = fmt.Sprintf("%s.%d.backup", f.path, time.Now().Unix())
	}
}

// resolve replaces the default -state path by the selected workspace's
// state under the configured backend: a local file, or for pg, s3 and
// http the opened backend (f.remote; f.path then names it in messages).
func (f *stateFlags) resolve(ctx context.Context, u *ui, command string) error {
	if f.path != defaultStatePath || f.remote != nil {
		return nil
	}
	loc, err := resolveBackend(u, u.env)
	if err != nil {
		return err
	}
	// A selected workspace that does not exist yet is an empty state, and
	// opening it creates it, as in OpenTofu: the local backend makes its
	// directory (the state file comes with the first write), the remote
	// backends create the workspace.
	if loc.Type == "local" {
		if loc.Workspace != "default" {
			if err := os.MkdirAll(filepath.Join(loc.WorkspaceDir, loc.Workspace), 0o755); err != nil {
				return u.errorf("Failed to create workspace", "The selected workspace %q did not exist, and creating its directory failed: %s.", loc.Workspace, err)
			}
		}
		f.path = loc.Path
		return nil
	}
	if f.backup != "" && f.backup != "-" {
		return u.errorf("Invalid -backup", "-backup names a local backup file, but the state is kept in the %q backend, which keeps no backup files. Drop -backup.", loc.Type)
	}
	r, err := openRemote(ctx, u, loc, f.lockTimeout)
	if err != nil {
		return err
	}
	if loc.Workspace != "default" {
		names, d := r.b.Workspaces(ctx)
		if d.HasErrors() {
			r.b.Close()
			return u.fail(d)
		}
		if !slices.Contains(names, loc.Workspace) {
			create := func() hcl.Diagnostics { return r.b.CreateWorkspace(ctx, loc.Workspace) }
			if err := retryWhileLocked(ctx, f.lockTimeout, create); err != nil {
				r.b.Close()
				return u.errorf("Failed to create workspace", "The selected workspace %q did not exist, and creating it failed: %s.", loc.Workspace, err)
			}
		}
	}
	f.remote = r
	f.path = r.m.Where()
	return nil
}

// close releases the backend resolve opened.
func (f *stateFlags) close() {
	if f.remote != nil {
		f.remote.b.Close()
	}
}

// acceptIgnoreRemoteVersion takes -ignore-remote-version on the commands
// OpenTofu takes it on. It changes only how OpenTofu's "remote" backend
// (Terraform Cloud) compares versions; tenet refuses that backend, and
// with every other backend the flag does nothing in OpenTofu either.
func acceptIgnoreRemoteVersion(cmd *cobra.Command) {
	cmd.Flags().Bool("ignore-remote-version", false, "accepted for OpenTofu compatibility; only OpenTofu's remote backend, which tenet does not offer, reads it")
}
