package backend

import (
	"context"

	"github.com/hashicorp/hcl/v2"
)

// DefaultWorkspace is the workspace every backend has and none can delete.
const DefaultWorkspace = "default"

// Backend is one configured backend.
type Backend interface {
	// Workspaces lists the workspaces that have a stored state, always
	// starting with DefaultWorkspace, the rest sorted by name.
	Workspaces(ctx context.Context) ([]string, hcl.Diagnostics)
	// CreateWorkspace stores an empty state for a new workspace, under the
	// workspace's lock. Creating one that exists is not an error.
	CreateWorkspace(ctx context.Context, name string) hcl.Diagnostics
	// DeleteWorkspace removes a workspace's stored state. The default
	// workspace cannot be deleted; one whose state still tracks resources
	// needs force.
	DeleteWorkspace(ctx context.Context, name string, force bool) hcl.Diagnostics
	// Client is the storage of one workspace. Nothing is read or locked
	// until asked; see Open for the state manager over it.
	Client(ctx context.Context, workspace string) (Client, hcl.Diagnostics)
	// Close releases connections the backend holds.
	Close() error
}

// Client stores one workspace's snapshot and its lock. Backends implement
// it; the serial and lineage rules are Manager's.
type Client interface {
	// Get returns the stored snapshot, or nil when there is none.
	Get(ctx context.Context) ([]byte, hcl.Diagnostics)
	// Put replaces the stored snapshot with data. On failure the stored
	// snapshot is the one before.
	Put(ctx context.Context, data []byte) hcl.Diagnostics
	// Delete removes the stored snapshot.
	Delete(ctx context.Context) hcl.Diagnostics
	// Lock takes the workspace's lock for info (ID set). When someone
	// else holds it, the diagnostics carry the holder (see Holder) and the
	// caller may retry.
	Lock(ctx context.Context, info *LockInfo) hcl.Diagnostics
	// Unlock releases the lock taken with the given lock ID.
	Unlock(ctx context.Context, id string) hcl.Diagnostics
	// Where names the storage in messages ("s3://bucket/key").
	Where() string
}

// Open returns the state manager of one workspace of b.
func Open(ctx context.Context, b Backend, workspace string, opts Options) (*Manager, hcl.Diagnostics) {
	c, diags := b.Client(ctx, workspace)
	if diags.HasErrors() {
		return nil, diags
	}
	return NewManager(c, opts), diags
}
