package pg

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tenetplan/tenet/state/backend"
)

// client is one workspace: the row named after it.
type client struct {
	b    *Backend
	name string

	mu sync.Mutex
	// conn is the session holding the advisory lock on key while locked.
	conn   *pgxpool.Conn
	key    int64
	lockID string
}

func (c *client) Where() string {
	return fmt.Sprintf("%s, workspace %q", c.b.where, c.name)
}

func (c *client) Get(ctx context.Context) ([]byte, hcl.Diagnostics) {
	var data []byte // scanned as is: a state can be tens of megabytes
	err := c.b.pool.QueryRow(ctx, fmt.Sprintf("SELECT data FROM %s WHERE name = $1", c.b.table), c.name).Scan(&data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, c.b.queryDiags("reading the state", err)
	case data == nil:
		return nil, nil
	}
	return data, nil
}

// Put upserts the row in one statement, so a failure leaves the old data.
func (c *client) Put(ctx context.Context, data []byte) hcl.Diagnostics {
	if diags := c.checkLock(ctx); diags.HasErrors() {
		return diags
	}
	q := fmt.Sprintf(`INSERT INTO %[1]s (name, data) VALUES ($1, $2)
ON CONFLICT (name) DO UPDATE SET data = excluded.data`, c.b.table)
	if _, err := c.b.pool.Exec(ctx, q, c.name, data); err != nil {
		return c.b.queryDiags("writing the state", err)
	}
	return nil
}

// checkLock refuses to write when this client took the lock but its
// session has gone: PostgreSQL then released the lock and someone else
// may hold it.
func (c *client) checkLock(ctx context.Context) hcl.Diagnostics {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil
	}
	var held bool
	err := c.conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1)`, int64(uint32(uint64(c.key)>>32)), int64(uint32(c.key))).Scan(&held)
	if err != nil || !held {
		// Closing the session gives it back; Unlock of this ID then
		// has nothing left to release.
		c.conn.Hijack().Close(ctx)
		c.conn = nil
		return backend.Errorf("State lock lost",
			"The PostgreSQL session holding the lock of %s has ended (%v), so PostgreSQL released the lock and another operation may now hold it. Nothing was written to the database; run the command again, or (after an apply) push the errored.tfstate it saved.", c.Where(), err)
	}
	return nil
}

func (c *client) Delete(ctx context.Context) hcl.Diagnostics {
	if _, err := c.b.pool.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE name = $1", c.b.table), c.name); err != nil {
		return c.b.queryDiags("deleting the workspace", err)
	}
	return nil
}

// Lock takes OpenTofu's advisory locks on a session kept until Unlock.
func (c *client) Lock(ctx context.Context, info *backend.LockInfo) hcl.Diagnostics {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		return backend.Errorf("State already locked", "This process already holds the lock of %s (ID %s).", c.Where(), c.lockID)
	}
	conn, err := c.b.pool.Acquire(ctx)
	if err != nil {
		return c.b.queryDiags("locking the state", err)
	}
	create := creationLockKey(c.b.cfg.SchemaName, c.b.cfg.TableName)
	var id int64
	var gotRow, gotCreate bool
	err = conn.QueryRow(ctx, fmt.Sprintf("SELECT id, pg_try_advisory_lock(id), pg_try_advisory_lock($1) FROM %s WHERE name = $2", c.b.table),
		create, c.name).Scan(&id, &gotRow, &gotCreate)
	key := id
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		// No row yet: the creation key stands for the workspace.
		key = create
		if err = conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", create).Scan(&gotCreate); err != nil {
			break
		}
		if !gotCreate {
			holder := c.holder(ctx, conn, create)
			giveBack(ctx, conn)
			return backend.LockConflict(c.Where(), holder, "locked while the workspace is being created")
		}
	case err != nil:
	case !gotRow:
		holder := c.holder(ctx, conn, id)
		giveBack(ctx, conn)
		return backend.LockConflict(c.Where(), holder, "")
	case !gotCreate:
		holder := c.holder(ctx, conn, create)
		giveBack(ctx, conn)
		return backend.LockConflict(c.Where(), holder, "locked while the workspace is being created")
	default:
		// The creation key was only needed to see that no one is
		// creating the workspace right now.
		var released bool
		if err = conn.QueryRow(ctx, "SELECT pg_advisory_unlock($1)", create).Scan(&released); err == nil && !released {
			err = errors.New("the creation lock was not held")
		}
	}
	if err != nil {
		// The session may hold a lock we cannot account for: close it.
		conn.Hijack().Close(ctx)
		return c.b.queryDiags("locking the state", err)
	}
	// Name the session after the lock so a conflicting process can say
	// who holds it (PostgreSQL keeps 63 bytes).
	appName := "tenet:" + info.ID + ":" + info.Operation
	if _, err := conn.Exec(ctx, "SELECT set_config('application_name', $1, false)", appName); err != nil {
		conn.Hijack().Close(ctx)
		return c.b.queryDiags("locking the state", err)
	}
	info.Path = strconv.FormatInt(key, 10)
	c.conn, c.key, c.lockID = conn, key, info.ID
	return nil
}

// giveBack returns a session to the pool holding no advisory lock and
// with its usual name; a session that cannot be cleaned is closed, which
// releases whatever it holds. (Advisory locks are re-entrant within a
// session, so a pooled session still holding one would hand the lock to
// the next user of that session.)
func giveBack(ctx context.Context, conn *pgxpool.Conn) {
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock_all()"); err != nil {
		conn.Hijack().Close(ctx)
		return
	}
	if _, err := conn.Exec(ctx, "RESET application_name"); err != nil {
		conn.Hijack().Close(ctx)
		return
	}
	conn.Release()
}

// Unlock releases the lock this client holds. PostgreSQL lets only the
// holding session release an advisory lock, so another process's lock
// cannot be forced from here: it goes when that session ends.
func (c *client) Unlock(ctx context.Context, id string) hcl.Diagnostics {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil && id != "" && id == c.lockID {
		c.lockID = "" // lost with its session: already released
		return nil
	}
	if c.conn == nil || id != c.lockID {
		return backend.Errorf("Cannot release a PostgreSQL lock held by another session",
			"The lock of %s with ID %q is not held by this process. PostgreSQL advisory locks belong to the database session that took them and are released when it ends. If the holder is stuck, end its session as a database administrator: SELECT pg_terminate_backend(PID), with the PID from the lock info.", c.Where(), id)
	}
	conn := c.conn
	c.conn, c.lockID = nil, ""
	giveBack(ctx, conn)
	return nil
}

// holder describes the session holding the advisory lock on key, from
// pg_locks and pg_stat_activity, or nil when it cannot be seen (it may
// have just let go, or the user may not see other users' sessions).
func (c *client) holder(ctx context.Context, conn *pgxpool.Conn, key int64) *backend.LockInfo {
	var (
		pid              int32
		user, addr, app  string
		since, connected *time.Time
	)
	err := conn.QueryRow(ctx, `SELECT a.pid, coalesce(a.usename, ''), coalesce(host(a.client_addr), 'local socket'),
	coalesce(a.application_name, ''), a.query_start, a.backend_start
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
	AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid
	AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
LIMIT 1`, int64(uint32(uint64(key)>>32)), int64(uint32(key))).Scan(&pid, &user, &addr, &app, &since, &connected)
	if err != nil {
		return nil
	}
	info := &backend.LockInfo{
		ID:   fmt.Sprintf("pg-session-%d", pid),
		Who:  user + "@" + addr,
		Path: strconv.FormatInt(key, 10),
		Info: fmt.Sprintf("PostgreSQL session PID %d (application %q)", pid, app),
	}
	// A tenet holder named its session "tenet:<lock ID>:<operation>".
	if rest, ok := strings.CutPrefix(app, "tenet:"); ok {
		if id, op, ok := strings.Cut(rest, ":"); ok {
			info.ID, info.Operation = id, op
		}
	}
	switch {
	case since != nil:
		info.Created = since.UTC()
	case connected != nil:
		info.Created = connected.UTC()
	}
	return info
}
