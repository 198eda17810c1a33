package cli

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/terraform"

	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backends"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"
)

// remoteState is the selected workspace of a pg, s3 or http backend.
type remoteState struct {
	loc *stateLocation
	b   backend.Backend
	m   *backend.Manager
}

// openRemote configures the backend recorded by init and opens the
// selected workspace's state manager.
func openRemote(ctx context.Context, u *ui, loc *stateLocation, lockTimeout time.Duration) (*remoteState, error) {
	b, diags := backends.Configure(ctx, loc.Type, backend.NewSettings(loc.Settings))
	if diags.HasErrors() {
		return nil, u.fail(diags)
	}
	u.diagnostics(diags)
	m, diags := backend.Open(ctx, b, loc.Workspace, backend.Options{TerraformVersion: Version, LockTimeout: lockTimeout})
	if diags.HasErrors() {
		b.Close()
		return nil, u.fail(diags)
	}
	return &remoteState{loc: loc, b: b, m: m}, nil
}

// backendStore is a backend workspace as the state commands' stateStore.
type backendStore struct {
	r  *remoteState
	id string
}

var _ stateStore = (*backendStore)(nil)

func diagErr(d hcl.Diagnostics) error {
	if !d.HasErrors() {
		return nil
	}
	var parts []string
	for _, x := range d {
		if x.Severity == hcl.DiagError {
			parts = append(parts, strings.TrimSuffix(x.Summary, ".")+": "+x.Detail)
		}
	}
	return errors.New(strings.Join(parts, "; "))
}

func (s *backendStore) Lock(ctx context.Context, info local.LockInfo) error {
	li := backend.NewLockInfo(info.Operation)
	id, d := s.r.m.Lock(ctx, li)
	s.id = id
	return diagErr(d)
}

func (s *backendStore) Unlock() error {
	return diagErr(s.r.m.Unlock(context.Background(), s.id))
}

func (s *backendStore) Read() (*statefile.File, error) {
	f, d := s.r.m.Read(context.Background())
	return f, diagErr(d)
}

func (s *backendStore) Notices() []local.Notice { return nil }

func (s *backendStore) Write(st *state.State) error {
	return diagErr(s.r.m.Write(context.Background(), st))
}

func (s *backendStore) WriteFile(f *statefile.File) error {
	return diagErr(s.r.m.WriteFile(context.Background(), f))
}

func (s *backendStore) ForceUnlock(id string) error {
	return diagErr(s.r.m.Unlock(context.Background(), id))
}

// workingCopyPath is where plan and apply keep a remote workspace's
// state while they run: a local state file with its journal, so every
// completed operation is on disk before the state goes back to the
// backend. Its name is tied to the backend settings and workspace.
func workingCopyPath(env []string, loc *stateLocation) string {
	raw, _ := encodeSettings(loc.Settings)
	sum := crc32.ChecksumIEEE(append([]byte(loc.Type+"\x00"), raw...))
	return filepath.Join(dataDir(env), "tenet-remote", fmt.Sprintf("%s-%08x-%s.tfstate", loc.Type, sum, loc.Workspace))
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// openRemoteForRun locks the remote workspace (unless lock is off), reads
// its state into the local working copy and returns the working copy's
// manager. release writes the working copy's state back to the backend
// when it differs from what was read (also after a failed or interrupted
// apply), saving errored.tfstate if that write fails, then unlocks.
func (f *stateFlags) openRemoteForRun(ctx context.Context, u *ui, r *remoteState, operation string) (*local.Manager, *state.State, func(), error) {
	bg := context.WithoutCancel(ctx)
	unlock := func() {}
	if f.lock {
		id, d := r.m.Lock(ctx, backend.NewLockInfo(operation))
		if d.HasErrors() {
			r.b.Close()
			return nil, nil, nil, u.fail(append(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error acquiring the state lock", Detail: fmt.Sprintf("Locking the state in %s failed. Wait for the other operation to finish and try again, or raise -lock-timeout.", r.m.Where())}}, d...))
		}
		unlock = func() {
			if d := r.m.Unlock(bg, id); d.HasErrors() {
				u.failLate()
				u.diagnostics(append(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error releasing the state lock", Detail: fmt.Sprintf("The lock %s on %s could not be released; remove it with \"tenet force-unlock %s\" once no operation is running.", id, r.m.Where(), id)}}, d...))
			}
		}
	}
	fail := func(err error) (*local.Manager, *state.State, func(), error) {
		unlock()
		r.b.Close()
		return nil, nil, nil, err
	}
	remote, d := r.m.Read(ctx)
	if d.HasErrors() {
		return fail(u.fail(d))
	}
	wc := workingCopyPath(u.env, r.loc)
	if err := os.MkdirAll(filepath.Dir(wc), 0o755); err != nil {
		return fail(u.errorf("Failed to prepare the working directory", "%s", err))
	}
	mgr := local.Open(wc, local.Options{BackupPath: "-", TerraformVersion: Version, Operation: operation})
	if exists(wc) || exists(wc+".journal") {
		// A run that crashed left its working copy: continue from it
		// when it descends from the stored state, so nothing is lost.
		left, err := mgr.Read()
		if err != nil {
			return fail(u.errorf("Failed to load state", "A previous run left its working copy of the %s state at %s, and it cannot be read: %s. Inspect it, push what it holds with \"tenet state push\" if needed, then delete it.", r.loc.Type, wc, err))
		}
		if left != nil && remote != nil && (left.Lineage != remote.Lineage || left.Serial < remote.Serial) {
			return fail(u.errorf("Unfinished run found", "A previous run left a working copy of the state at %s (lineage %s, serial %d), but the backend now holds lineage %s, serial %d. Decide which is right: push the working copy with \"tenet state push -force %s\", or delete it to keep the backend's state.", wc, left.Lineage, left.Serial, remote.Lineage, remote.Serial, wc))
		}
		u.stateNotices(mgr.Notices())
		u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Continuing from an interrupted run", Detail: fmt.Sprintf("A previous run left its working copy of the state at %s; tenet continues from it and writes it to %s at the end of this run.", wc, r.m.Where())}})
	} else if remote != nil {
		if err := mgr.WriteFile(remote); err != nil {
			return fail(u.errorf("Failed to prepare the state", "Copying the state from %s to the working copy %s failed: %s.", r.m.Where(), wc, err))
		}
	}
	file, err := mgr.Read()
	if err != nil {
		return fail(stateLoadFailed(u, err, wc))
	}
	st := state.NewState()
	if file != nil && file.State != nil {
		st = file.State
	}
	release := func() {
		defer r.b.Close()
		defer unlock()
		final, err := local.Open(wc, local.Options{}).Read()
		if err != nil {
			u.errorf("Failed to save state", "Reading the working copy %s failed: %s. It was kept; write it to the backend with \"tenet state push %s\".", wc, err, wc)
			u.failLate()
			return
		}
		if final != nil && final.State != nil {
			if d := r.m.Write(bg, final.State); d.HasErrors() {
				diags := append(d, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to save state", Detail: fmt.Sprintf("Writing the state to %s failed. ", r.m.Where())})
				if b, err := statefile.Marshal(final); err == nil && os.WriteFile("errored.tfstate", b, 0o600) == nil {
					diags[len(diags)-1].Detail += "The state was saved to errored.tfstate; once the backend works again, write it there with \"tenet state push errored.tfstate\"."
					os.Remove(wc)
					os.Remove(wc + ".journal")
				} else {
					diags[len(diags)-1].Detail += fmt.Sprintf("Saving it to errored.tfstate failed too; it is still in %s, which the next run continues from.", wc)
				}
				u.diagnostics(diags)
				u.failLate()
				return
			}
		}
		os.Remove(wc)
		os.Remove(wc + ".journal")
	}
	return mgr, st, release, nil
}

// withRemoteStateReader lets terraform_remote_state read the pg, s3 and
// http backends as well as local files.
func withRemoteStateReader(reg providers.Registry) providers.Registry {
	newFn := terraform.NewWithStateReader(readBackendStateBytes)
	reg[addrs.NewBuiltInProvider("terraform")] = func() (providers.Interface, error) { return newFn(), nil }
	return reg
}

// readBackendStateBytes reads a workspace's stored state from a backend
// for terraform_remote_state.
func readBackendStateBytes(ctx context.Context, typ string, settings map[string]cty.Value, workspace string) ([]byte, error) {
	b, d := backends.Configure(ctx, typ, backend.NewSettings(settings))
	if d.HasErrors() {
		return nil, diagErr(d)
	}
	defer b.Close()
	m, d := backend.Open(ctx, b, workspace, backend.Options{TerraformVersion: Version})
	if d.HasErrors() {
		return nil, diagErr(d)
	}
	f, d := m.Read(ctx)
	if d.HasErrors() {
		return nil, diagErr(d)
	}
	if f == nil {
		return nil, nil
	}
	return statefile.Marshal(f)
}

// failLate makes the run exit non-zero although the command itself
// already returned: the state could not be written back or unlocked.
func (u *ui) failLate() {
	if u.lateFailure != nil {
		*u.lateFailure = true
	}
}
