package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backends"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"
)

// This file is init's state migration (-migrate-state, -force-copy): when
// the backend changes, every workspace's state is copied from the backend
// init recorded last to the new one, under both sides' locks, after the
// same questions OpenTofu asks. Nothing is removed from the old backend;
// a local state that was copied is emptied (its previous content kept as
// <path>.backup), as OpenTofu does, so it cannot be used by mistake.

// stateSide is one end of a migration: a local state with its workspace
// directory, or a remote backend.
type stateSide struct {
	typ string
	// local backend
	path, workspaceDir string
	// remote backend
	b backend.Backend
}

func (s *stateSide) close() {
	if s.b != nil {
		s.b.Close()
	}
}

// openSide configures one end of a migration from recorded settings.
func openSide(ctx context.Context, typ string, settings map[string]cty.Value) (*stateSide, hcl.Diagnostics) {
	if typ == "" || typ == "local" {
		s := &stateSide{typ: "local", path: defaultStatePath, workspaceDir: "terraform.tfstate.d"}
		if v, ok := settings["path"]; ok && v.Type() == cty.String && !v.IsNull() && v.AsString() != "" {
			s.path = v.AsString()
		}
		if v, ok := settings["workspace_dir"]; ok && v.Type() == cty.String && !v.IsNull() && v.AsString() != "" {
			s.workspaceDir = v.AsString()
		}
		return s, nil
	}
	b, diags := backends.Configure(ctx, typ, backend.NewSettings(settings))
	if diags.HasErrors() {
		return nil, diags
	}
	return &stateSide{typ: typ, b: b}, diags
}

// workspaces lists the side's workspaces, "default" first.
func (s *stateSide) workspaces(ctx context.Context) ([]string, error) {
	if s.b != nil {
		names, d := s.b.Workspaces(ctx)
		if s.typ == "http" && d.HasErrors() {
			return []string{backend.DefaultWorkspace}, nil
		}
		return names, diagErr(d)
	}
	return localWorkspaces{&stateLocation{Path: s.path, WorkspaceDir: s.workspaceDir}}.list(ctx)
}

// localPath is a local side's state file of a workspace.
func (s *stateSide) localPath(ws string) string {
	if ws == backend.DefaultWorkspace {
		return s.path
	}
	return filepath.Join(s.workspaceDir, ws, defaultStatePath)
}

// store opens a workspace of the side as a stateStore (not yet locked).
func (s *stateSide) store(ctx context.Context, ws string, lockTimeout time.Duration) (stateStore, error) {
	if s.b == nil {
		return local.Open(s.localPath(ws), local.Options{Lock: true, LockTimeout: lockTimeout, Operation: "migration", TerraformVersion: Version}), nil
	}
	m, d := backend.Open(ctx, s.b, ws, backend.Options{TerraformVersion: Version, LockTimeout: lockTimeout})
	if d.HasErrors() {
		return nil, diagErr(d)
	}
	return &backendStore{r: &remoteState{b: s.b, m: m}}, nil
}

// sameLocal reports whether two local sides keep a workspace in the same
// file, which copying must skip (and never empty).
func sameLocal(a, b *stateSide, ws string) bool {
	if a.b != nil || b.b != nil {
		return false
	}
	pa, err1 := filepath.Abs(a.localPath(ws))
	pb, err2 := filepath.Abs(b.localPath(ws))
	return err1 == nil && err2 == nil && pa == pb
}

func readStore(st stateStore) (*statefile.File, error) {
	f, err := st.Read()
	if err != nil || f == nil || f.State == nil {
		return nil, err
	}
	return f, nil
}

func emptyFile(f *statefile.File) bool { return f == nil || f.State == nil || f.State.Empty() }

// migrationAnswers is how the questions get their answer.
type migrationAnswers struct {
	forceCopy bool
	input     bool
	ask       func(question, explanation string) (bool, error)
}

// confirm asks one question, or answers it from -force-copy; with input
// disabled and no -force-copy it is an error, as in OpenTofu.
func (a migrationAnswers) confirm(u *ui, question, explanation string) (bool, error) {
	if a.forceCopy {
		return true, nil
	}
	if !a.input {
		return false, u.errorf("Error asking for state migration action", "Input is disabled (-input=false or TF_INPUT), so tenet cannot ask: %s Add -force-copy to answer yes, or run init interactively.", question)
	}
	yes, err := a.ask(question, explanation)
	if err != nil {
		// As OpenTofu: no answer stops init, nothing changed.
		return false, u.fail(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error asking for confirmation: " + err.Error()}})
	}
	return yes, nil
}

// migrateState copies the state of every workspace from one backend to
// another. It returns an error (already reported) when the migration was
// refused or failed; the new settings must then not be recorded.
func migrateState(ctx context.Context, u *ui, answers migrationAnswers, lock bool, lockTimeout time.Duration, fromType string, fromSettings map[string]cty.Value, toType string, toSettings map[string]cty.Value) (emptySources func(), err error) {
	emptySources = func() {}
	recorded := fromType != ""
	if fromType == "" {
		fromType = "local"
	}
	if toType == "" {
		toType = "local"
	}
	src, diags := openSide(ctx, fromType, fromSettings)
	if diags.HasErrors() {
		return emptySources, u.fail(append(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the previous backend", Detail: fmt.Sprintf("The state must be copied from the %q backend recorded by the last init, but it cannot be configured. Fix its settings, or run init with -reconfigure to use the new backend without copying.", fromType)}}, diags...))
	}
	defer src.close()
	dst, diags := openSide(ctx, toType, toSettings)
	if diags.HasErrors() {
		return emptySources, u.fail(diags)
	}
	defer dst.close()
	if recorded && fromType != toType {
		u.output(fmt.Sprintf("tenet detected that the backend type changed from %q to %q.", fromType, toType))
	}

	names, err := src.workspaces(ctx)
	if err != nil {
		return emptySources, u.errorf("Cannot list the previous backend's workspaces", "Listing the workspaces of the %q backend failed: %s.\n\nFix the problem, or run init with -reconfigure to use the new backend without copying.", fromType, err)
	}
	// A workspace kept in the same file by both (a local backend whose
	// settings did not move it) needs no copy.
	names = slices.DeleteFunc(names, func(ws string) bool { return sameLocal(src, dst, ws) })
	if len(names) == 0 {
		return emptySources, nil
	}
	multi := len(names) > 1 || (len(names) == 1 && names[0] != backend.DefaultWorkspace)
	if multi && dst.typ == "http" {
		return emptySources, u.errorf("Cannot migrate workspaces to the http backend", "The %q backend has the workspaces %s, but the http backend keeps a single state. Copy the workspace you want with \"tenet state pull\" and \"tenet state push\", then run init with -reconfigure.", fromType, strings.Join(names, ", "))
	}
	if multi {
		ok, err := answers.confirm(u, fmt.Sprintf("Do you want to migrate all workspaces to %q?", toType),
			fmt.Sprintf("The %q backend and the new %q backend both keep workspaces. tenet copies every workspace (%s) under the same name, and REPLACES the state of any workspace of that name already in the new backend (the replaced state is kept in a local backup file).\n\nOnly all workspaces can be migrated; to copy some, use \"tenet state pull\" and \"tenet state push\" instead.\n\nAnswer \"yes\" to copy them all; any other answer stops init.", fromType, toType, strings.Join(names, ", ")))
		if err != nil {
			return emptySources, err
		}
		if !ok {
			return emptySources, u.errorf("Migration aborted by user.", "Nothing was copied and the backend settings were not changed.")
		}
	} else {
		srcState, err := src.store(ctx, backend.DefaultWorkspace, lockTimeout)
		if err != nil {
			return emptySources, u.errorf("Cannot read the previous state", "%s", err)
		}
		from, err := readStore(srcState)
		if err != nil {
			return emptySources, u.errorf("Cannot read the previous state", "Reading the state of the %q backend failed: %s.\n\nFix it, or run init with -reconfigure to use the new backend without copying.", fromType, err)
		}
		if from == nil || sameLocal(src, dst, backend.DefaultWorkspace) {
			return emptySources, nil // nothing to copy
		}
		dstState, err := dst.store(ctx, backend.DefaultWorkspace, lockTimeout)
		if err != nil {
			return emptySources, u.errorf("Cannot read the new backend's state", "%s", err)
		}
		to, err := readStore(dstState)
		if err != nil {
			return emptySources, u.errorf("Cannot read the new backend's state", "Reading the state already in the %q backend failed: %s.\n\nFix it, or remove it, and run init again.", toType, err)
		}
		var ok bool
		switch {
		case to != nil && to.Lineage == from.Lineage && to.Serial == from.Serial && to.State.Equal(from.State):
			u.output(fmt.Sprintf("The %q backend already holds this state; nothing to copy.", toType))
			return emptySources, nil
		case emptyFile(to):
			// OpenTofu's words, wrapped where it wraps them.
			ok, err = answers.confirm(u, "Do you want to copy existing state to the new backend?",
				fmt.Sprintf("Pre-existing state was found while migrating the previous %q backend to the\nnewly configured %q backend. No existing state was found in the newly\nconfigured %[2]q backend. Do you want to copy this state to the new %[2]q\nbackend? Enter \"yes\" to copy and \"no\" to start with an empty state.", fromType, toType))
		default:
			ok, err = answers.confirm(u, "Do you want to copy existing state to the new backend?",
				fmt.Sprintf("The %q backend holds a state, and the new %q backend already holds a different, non-empty one (lineage %s, serial %d; the previous one has lineage %s, serial %d). See both with \"tenet state pull\" before deciding.\n\nAnswer \"yes\" to REPLACE the state in %q with the previous one (the replaced state is kept in a local backup file), or \"no\" to keep the state %q holds.", fromType, toType, to.Lineage, to.Serial, from.Lineage, from.Serial, toType, toType))
		}
		if err != nil {
			return emptySources, err
		}
		if !ok {
			return emptySources, nil
		}
	}

	var copied []string
	for _, ws := range names {
		if sameLocal(src, dst, ws) {
			continue
		}
		if err := copyWorkspace(ctx, u, src, dst, ws, lock, lockTimeout); err != nil {
			return emptySources, err
		}
		copied = append(copied, ws)
	}
	if len(copied) > 0 {
		u.output(fmt.Sprintf("Copied the state of %d workspace(s) (%s) from %q to %q.", len(copied), strings.Join(copied, ", "), fromType, toType))
	}
	if src.b == nil {
		emptySources = func() {
			for _, ws := range copied {
				emptyLocalState(u, src.localPath(ws))
			}
		}
	}
	return emptySources, nil
}

// copyWorkspace copies one workspace's state under both locks.
func copyWorkspace(ctx context.Context, u *ui, src, dst *stateSide, ws string, lock bool, lockTimeout time.Duration) error {
	failed := func(what string, err error) error {
		return u.errorf("State migration failed", "Workspace %q: %s: %s.\n\nWorkspaces copied before this one are in the new backend; nothing was removed from the old one and the backend settings were not changed. Fix the problem and run init with -migrate-state again.", ws, what, err)
	}
	if dst.b != nil && ws != backend.DefaultWorkspace {
		have, d := dst.b.Workspaces(ctx)
		if d.HasErrors() {
			return failed("listing the new backend's workspaces", diagErr(d))
		}
		if !slices.Contains(have, ws) {
			if d := dst.b.CreateWorkspace(ctx, ws); d.HasErrors() {
				return failed("creating the workspace in the new backend", diagErr(d))
			}
		}
	} else if dst.b == nil && ws != backend.DefaultWorkspace {
		if err := os.MkdirAll(filepath.Join(dst.workspaceDir, ws), 0o755); err != nil {
			return failed("creating the workspace directory", err)
		}
	}
	from, err := src.store(ctx, ws, lockTimeout)
	if err != nil {
		return failed("opening the previous backend", err)
	}
	to, err := dst.store(ctx, ws, lockTimeout)
	if err != nil {
		return failed("opening the new backend", err)
	}
	if lock {
		if err := from.Lock(ctx, local.NewLockInfo("migration source state")); err != nil {
			return u.errorf("Error acquiring the state lock", "Locking workspace %q of the %q backend (the migration's source) failed: %s.\n\nWait for the other operation to finish and run init again, or raise -lock-timeout.", ws, src.typ, err)
		}
		defer from.Unlock()
		if err := to.Lock(ctx, local.NewLockInfo("migration destination state")); err != nil {
			return u.errorf("Error acquiring the state lock", "Locking workspace %q of the %q backend (the migration's destination) failed: %s.\n\nWait for the other operation to finish and run init again, or raise -lock-timeout.", ws, dst.typ, err)
		}
		defer to.Unlock()
	}
	f, err := readStore(from)
	if err != nil {
		return failed("reading the previous state", err)
	}
	if f == nil {
		return nil // an empty workspace: created above
	}
	cur, err := readStore(to)
	if err != nil {
		return failed("reading the state already in the new backend", err)
	}
	if cur != nil && cur.Lineage == f.Lineage && cur.Serial == f.Serial && cur.State.Equal(f.State) {
		return nil
	}
	if !emptyFile(cur) && dst.b != nil {
		// The answer said to replace it; keep it on disk first.
		b, err := statefile.Marshal(cur)
		if err != nil {
			return failed("encoding the state to be replaced", err)
		}
		name := fmt.Sprintf("%s-%s.%d.tfstate.backup", dst.typ, ws, time.Now().Unix())
		if err := os.WriteFile(name, b, 0o600); err != nil {
			return failed("keeping a backup of the state to be replaced", err)
		}
		u.output(fmt.Sprintf("The state workspace %q had in %q was kept in %s.", ws, dst.typ, name))
	}
	if err := to.WriteFile(f); err != nil {
		return failed("writing the new backend's state", err)
	}
	return nil
}

// emptyLocalState empties a migrated local state file, keeping its
// content as <path>.backup, so the old location is not used by mistake.
func emptyLocalState(u *ui, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if err := os.WriteFile(path+".backup", b, 0o600); err != nil {
		u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Previous local state left in place", Detail: fmt.Sprintf("The state of %s was copied to the new backend, but keeping its backup failed (%s), so the file was left as it was. Delete it once you have checked the new backend.", path, err)}})
		return
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		u.diagnostics(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Previous local state left in place", Detail: fmt.Sprintf("The state of %s was copied to the new backend, but emptying it failed: %s. Delete it once you have checked the new backend.", path, err)}})
	}
}
