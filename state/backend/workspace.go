package backend

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/state"
)

// ValidWorkspaceName rejects names OpenTofu rejects: empty ones and ones
// that would not survive being a path segment or a URL part.
func ValidWorkspaceName(name string) hcl.Diagnostics {
	if name == "" || strings.ContainsAny(name, "/\\") || name != strings.TrimSpace(name) || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return Errorf("Invalid workspace name",
			"%q cannot be a workspace name: use letters, digits, '-', '_' and '.', without slashes or spaces.", name)
	}
	return nil
}

// CreateWorkspace is the common CreateWorkspace: under the workspace's
// lock, store an empty state unless one exists.
func CreateWorkspace(ctx context.Context, b Backend, name string) hcl.Diagnostics {
	if diags := ValidWorkspaceName(name); diags.HasErrors() {
		return diags
	}
	m, id, diags := openLocked(ctx, b, name, "init")
	if diags.HasErrors() {
		return diags
	}
	f, diags := m.Read(ctx)
	if !diags.HasErrors() && f == nil {
		diags = append(diags, m.Write(ctx, state.NewState())...)
	}
	return append(diags, m.Unlock(ctx, id)...)
}

// DeleteWorkspace is the common DeleteWorkspace: refuse the default
// workspace, a workspace that does not exist, and (without force) one
// whose state still tracks resources; then delete under the lock.
func DeleteWorkspace(ctx context.Context, b Backend, name string, force bool) hcl.Diagnostics {
	if name == DefaultWorkspace {
		return Error("Cannot delete the default workspace",
			"The default workspace always exists and cannot be deleted. Select it and destroy its resources instead, if that is the aim.")
	}
	names, diags := b.Workspaces(ctx)
	if diags.HasErrors() {
		return diags
	}
	if !slices.Contains(names, name) {
		return Errorf("Workspace does not exist", "There is no workspace %q. Existing workspaces: %s.", name, strings.Join(names, ", "))
	}
	m, id, diags := openLocked(ctx, b, name, "workspace delete")
	if diags.HasErrors() {
		return diags
	}
	defer m.Unlock(ctx, id)
	f, diags := m.Read(ctx)
	if diags.HasErrors() && !force {
		return diags
	}
	if !force && f != nil && f.State != nil && f.State.HasManagedResourceInstanceObjects() {
		return Errorf("Workspace is not empty",
			"The state of workspace %q still tracks resources. Destroy them first (tenet destroy), or delete the workspace with -force to forget them; the objects themselves are left alone.", name)
	}
	return m.client.Delete(ctx)
}

// openLocked opens a workspace's state and takes its lock for the named
// operation; the caller unlocks with the ID it returns.
func openLocked(ctx context.Context, b Backend, name, operation string) (*Manager, string, hcl.Diagnostics) {
	m, diags := Open(ctx, b, name, Options{})
	if diags.HasErrors() {
		return nil, "", diags
	}
	id, diags := m.Lock(ctx, NewLockInfo(operation))
	if diags.HasErrors() {
		return nil, "", diags
	}
	return m, id, diags
}
