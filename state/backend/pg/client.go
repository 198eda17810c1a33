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
	"github.com/jackc/pgx/v5/pgconn"
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

// Get reads the row; while this client holds the lock, on the locking
// session, so a read cannot succeed after the lock was lost.
//
// The value comes back in binary format, which for text is the bytes
// themselves: the server then skips the text output function's copy and
// length scan of tens of megabytes (docs/performance.md).
func (c *client) Get(ctx context.Context) ([]byte, hcl.Diagnostics) {
	c.mu.Lock()
	defer c.mu.Unlock()
	conn := c.conn
	if conn == nil {
		pooled, err := c.b.pool.Acquire(ctx)
		if err != nil {
			return nil, c.b.queryDiags("reading the state", err)
		}
		defer pooled.Release()
		conn = pooled
	}
	rr := conn.Conn().PgConn().ExecParams(ctx, fmt.Sprintf("SELECT data FROM %s WHERE name = $1", c.b.table),
		[][]byte{[]byte(c.name)}, nil, nil, []int16{pgx.BinaryFormatCode})
	var data []byte
	for rr.NextRow() {
		// The reader reuses its buffer: keep a copy. NULL stays nil.
		if v := rr.Values()[0]; v != nil {
			data = append(make([]byte, 0, len(v)), v...)
		}
	}
	if _, err := rr.Close(); err != nil {
		return nil, c.b.queryDiags("reading the state", err)
	}
	return data, nil
}

// Put stores the row in one statement, so a failure leaves the old data.
// While this client holds the lock, the statement runs on the locking
// session and writes only if that session still holds the lock: a lock
// lost with its session (PostgreSQL then released it and someone else
// may hold it) writes nothing, with no moment between check and write.
//
// The snapshot goes to the server as the statement's parameter as is
// (pgconn, text format, which for a text column is the bytes
// themselves): pgx's typed path would copy tens of megabytes once more.
func (c *client) Put(ctx context.Context, data []byte) hcl.Diagnostics {
	c.mu.Lock()
	defer c.mu.Unlock()
	params := [][]byte{[]byte(c.name), data}
	if c.conn == nil {
		conn, err := c.b.pool.Acquire(ctx)
		if err != nil {
			return c.b.queryDiags("writing the state", err)
		}
		defer conn.Release()
		if _, err := storeRow(ctx, conn, c.b.table, "", params); err != nil {
			return c.b.queryDiags("writing the state", err)
		}
		return nil
	}
	const holdsLock = ` AND EXISTS (SELECT 1 FROM pg_locks
	WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
	AND classid = $3::bigint::oid AND objid = $4::bigint::oid AND objsubid = 1)`
	params = append(params, strconv.AppendInt(nil, int64(uint32(uint64(c.key)>>32)), 10), strconv.AppendInt(nil, int64(uint32(c.key)), 10))
	stored, err := storeRow(ctx, c.conn, c.b.table, holdsLock, params)
	if err == nil && stored {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Severity != "FATAL" && !c.conn.Conn().IsClosed() {
		// The server refused the statement and the session lives on,
		// holding the lock: nothing was written.
		return c.b.queryDiags("writing the state", err)
	}
	if err == nil {
		err = errors.New("the session no longer holds the lock")
	}
	// Closing the session gives it back; Unlock of this ID then has
	// nothing left to release.
	c.conn.Hijack().Close(ctx)
	c.conn = nil
	return backend.Errorf("State lock lost",
		"The PostgreSQL session holding the lock of %s has ended (%v), so PostgreSQL released the lock and another operation may now hold it. Nothing was written to the database; run the command again, or (after an apply) push the errored.tfstate it saved.", c.Where(), err)
}

// storeRow writes params (name, data, then any condition's parameters)
// as the row, when condition (an SQL "AND ..." or "") holds, and reports
// whether it did. It updates the row where there is one and inserts it
// where there is none (or another writer's insert just won the race):
// PostgreSQL's INSERT ... ON CONFLICT DO UPDATE alone would build the
// tens-of-megabytes row twice, once for the insert it then abandons.
func storeRow(ctx context.Context, conn *pgxpool.Conn, table, condition string, params [][]byte) (bool, error) {
	q := fmt.Sprintf(`WITH updated AS (UPDATE %[1]s SET data = $2 WHERE name = $1%[2]s RETURNING 1),
inserted AS (INSERT INTO %[1]s (name, data) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM updated)%[2]s
	ON CONFLICT (name) DO UPDATE SET data = excluded.data RETURNING 1)
SELECT (SELECT count(*) FROM updated) + (SELECT count(*) FROM inserted)`, table, condition)
	r := conn.Conn().PgConn().ExecParams(ctx, q, params, nil, nil, nil).Read()
	if r.Err != nil {
		return false, r.Err
	}
	return len(r.Rows) == 1 && string(r.Rows[0][0]) == "1", nil
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
