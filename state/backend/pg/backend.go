package pg

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tenetplan/tenet/state/backend"
)

// Config is the pg backend's settings with OpenTofu's names and defaults.
type Config struct {
	ConnStr            string // conn_str, PG_CONN_STR; "" uses libpq's PG* variables
	SchemaName         string // schema_name, PG_SCHEMA_NAME
	TableName          string // table_name, PG_TABLE_NAME
	IndexName          string // index_name, PG_INDEX_NAME
	SkipSchemaCreation bool   // skip_schema_creation, PG_SKIP_SCHEMA_CREATION
	SkipTableCreation  bool   // skip_table_creation, PG_SKIP_TABLE_CREATION
	SkipIndexCreation  bool   // skip_index_creation, PG_SKIP_INDEX_CREATION
}

// ConfigFrom reads a Config from backend settings and the environment.
func ConfigFrom(s *backend.Settings) (Config, hcl.Diagnostics) {
	c := Config{
		ConnStr:            s.String("conn_str", "", "PG_CONN_STR"),
		SchemaName:         s.String("schema_name", "terraform_remote_state", "PG_SCHEMA_NAME"),
		TableName:          s.String("table_name", "states", "PG_TABLE_NAME"),
		IndexName:          s.String("index_name", "states_by_name", "PG_INDEX_NAME"),
		SkipSchemaCreation: s.Bool("skip_schema_creation", false, "PG_SKIP_SCHEMA_CREATION"),
		SkipTableCreation:  s.Bool("skip_table_creation", false, "PG_SKIP_TABLE_CREATION"),
		SkipIndexCreation:  s.Bool("skip_index_creation", false, "PG_SKIP_INDEX_CREATION"),
	}
	return c, s.Check("pg")
}

// Backend is a configured pg backend.
type Backend struct {
	cfg   Config
	pool  *pgxpool.Pool
	table string // quoted "schema"."table"
	where string // for messages: database and table
}

var _ backend.Backend = (*Backend)(nil)

// connectTimeout bounds connecting when conn_str sets no connect_timeout,
// so an unreachable server is reported instead of waited on.
const connectTimeout = 15 * time.Second

// New connects and creates the schema, table and index the settings ask
// for.
func New(ctx context.Context, cfg Config) (*Backend, hcl.Diagnostics) {
	// pgx reads libpq's PG* environment variables for whatever the
	// connection string leaves out, as lib/pq does for OpenTofu.
	pcfg, err := pgxpool.ParseConfig(cfg.ConnStr)
	if err != nil {
		return nil, backend.Errorf("Invalid pg backend connection string",
			"conn_str (or PG_CONN_STR) cannot be parsed: %s. Use a URL such as postgres://user:password@host:5432/dbname or key=value pairs.", redact(err.Error(), cfg.ConnStr))
	}
	if pcfg.ConnConfig.ConnectTimeout == 0 {
		pcfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	pcfg.AfterConnect = tuneSession
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, connectDiags(pcfg.ConnConfig, err)
	}
	b := &Backend{
		cfg:   cfg,
		pool:  pool,
		table: pgx.Identifier{cfg.SchemaName, cfg.TableName}.Sanitize(),
		where: fmt.Sprintf("PostgreSQL database %q on %s, table %s.%s", pcfg.ConnConfig.Database, pcfg.ConnConfig.Host, cfg.SchemaName, cfg.TableName),
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, connectDiags(pcfg.ConnConfig, err)
	}
	if diags := b.prepare(ctx); diags.HasErrors() {
		pool.Close()
		return nil, diags
	}
	return b, nil
}

// prepare creates what the skip_* settings do not skip, with OpenTofu's
// definitions. Two processes configuring at once could both try the same
// CREATE ... IF NOT EXISTS and one fail on a catalog unique key, so the
// statements run in one transaction under an advisory lock of tenet's own
// (not one OpenTofu's locking uses).
func (b *Backend) prepare(ctx context.Context) hcl.Diagnostics {
	c := b.cfg
	if c.SkipSchemaCreation && c.SkipTableCreation && c.SkipIndexCreation {
		return nil
	}
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		return b.queryDiags("preparing the state table", err)
	}
	defer tx.Rollback(ctx)
	stmts := []string{fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", ddlLockKey)}
	if !c.SkipSchemaCreation {
		stmts = append(stmts, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{c.SchemaName}.Sanitize())
	}
	if !c.SkipTableCreation {
		stmts = append(stmts,
			"CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint",
			fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
	id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY,
	name text UNIQUE,
	data text
)`, b.table))
	}
	if !c.SkipIndexCreation {
		stmts = append(stmts, fmt.Sprintf("CREATE UNIQUE INDEX IF NOT EXISTS %s ON %s (name)", pgx.Identifier{c.IndexName}.Sanitize(), b.table))
	}
	for _, q := range stmts {
		if _, err := tx.Exec(ctx, q); err != nil {
			return b.queryDiags("preparing the state table", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return b.queryDiags("preparing the state table", err)
	}
	return nil
}

// tuneSession sets two things for this session only, for states of tens
// of megabytes (docs/performance.md):
//
//   - stored values are compressed with lz4 instead of pglz, when the
//     server has lz4 (PostgreSQL 14 or later built with it) and no one
//     configured default_toast_compression. The table, OpenTofu's or
//     ours, is not altered, and any reader gets the same text back, since
//     PostgreSQL records the method with each stored value. A column with
//     its own COMPRESSION keeps it.
//   - statements are planned without their parameters' values
//     (plan_cache_mode, PostgreSQL 12 and later): a plan made for the
//     values would copy the state into the plan twice. tenet's statements
//     look rows up by the unique name, which one plan fits for any value.
//
// A server that cannot answer (a PostgreSQL look-alike without these
// settings) keeps its own: the error is not the connection's.
func tuneSession(ctx context.Context, conn *pgx.Conn) error {
	conn.Exec(ctx, `SELECT set_config(name, CASE name WHEN 'plan_cache_mode' THEN 'force_generic_plan' ELSE 'lz4' END, false)
FROM pg_settings
WHERE name = 'plan_cache_mode'
	OR (name = 'default_toast_compression' AND source = 'default' AND 'lz4' = ANY(enumvals))`)
	return nil
}

// ddlLockKey serializes tenet's schema creation; an arbitrary constant
// outside the 32-bit range OpenTofu's keys use.
const ddlLockKey int64 = 0x74656e6574_00 // "tenet\0"

// creationLockKey is OpenTofu's key for locking a workspace that has no
// row yet: the negated FNV-1 32-bit hash of schema NUL table.
func creationLockKey(schema, table string) int64 {
	h := fnv.New32()
	h.Write([]byte(schema + "\x00" + table))
	return -int64(h.Sum32())
}

// Close closes the connections.
func (b *Backend) Close() error {
	b.pool.Close()
	return nil
}

// Workspaces lists "default" and the names of the other rows.
func (b *Backend) Workspaces(ctx context.Context) ([]string, hcl.Diagnostics) {
	rows, err := b.pool.Query(ctx, fmt.Sprintf("SELECT name FROM %s WHERE name != $1 ORDER BY name", b.table), backend.DefaultWorkspace)
	if err != nil {
		return nil, b.queryDiags("listing workspaces", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, b.queryDiags("listing workspaces", err)
	}
	return append([]string{backend.DefaultWorkspace}, names...), nil
}

// Client returns the storage of one workspace: the row of that name.
func (b *Backend) Client(_ context.Context, workspace string) (backend.Client, hcl.Diagnostics) {
	if diags := backend.ValidWorkspaceName(workspace); diags.HasErrors() {
		return nil, diags
	}
	return &client{b: b, name: workspace}, nil
}

// CreateWorkspace stores an empty state for a workspace without a row.
func (b *Backend) CreateWorkspace(ctx context.Context, name string) hcl.Diagnostics {
	return backend.CreateWorkspace(ctx, b, name)
}

// DeleteWorkspace removes a workspace's row.
func (b *Backend) DeleteWorkspace(ctx context.Context, name string, force bool) hcl.Diagnostics {
	return backend.DeleteWorkspace(ctx, b, name, force)
}

// connectDiags explains a failure to connect.
func connectDiags(cc *pgx.ConnConfig, err error) hcl.Diagnostics {
	target := fmt.Sprintf("%s:%d", cc.Host, cc.Port)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "28P01", "28000":
			return backend.Errorf("Cannot log in to PostgreSQL",
				"PostgreSQL at %s refused user %q: %s. Check the user name and password in conn_str (or PG_CONN_STR, PGUSER, PGPASSWORD, ~/.pgpass).", target, cc.User, pgErr.Message)
		case "3D000":
			return backend.Errorf("PostgreSQL database does not exist",
				"PostgreSQL at %s has no database %q: %s. Create it (createdb) or fix the database name in conn_str.", target, cc.Database, pgErr.Message)
		}
		return backend.Errorf("Cannot connect to PostgreSQL", "Connecting to PostgreSQL at %s failed: %s (SQLSTATE %s).", target, pgErr.Message, pgErr.Code)
	}
	var netErr net.Error
	if errors.As(err, &netErr) || strings.Contains(err.Error(), "connect") {
		return backend.Errorf("Cannot reach PostgreSQL",
			"No PostgreSQL server answered at %s: %s. Check the host and port in conn_str (or PG_CONN_STR, PGHOST, PGPORT), that the server is running, and that the network allows the connection.", target, redact(err.Error(), ""))
	}
	return backend.Errorf("Cannot connect to PostgreSQL", "Connecting to PostgreSQL at %s failed: %s.", target, redact(err.Error(), ""))
}

// queryDiags explains a failed statement.
func (b *Backend) queryDiags(what string, err error) hcl.Diagnostics {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "3F000", "42P01":
			return backend.Errorf("PostgreSQL state table is missing",
				"%s failed: %s. The schema %q or table %q does not exist. Create them, or leave skip_schema_creation and skip_table_creation unset so tenet creates them.", what, pgErr.Message, b.cfg.SchemaName, b.cfg.TableName)
		case "42501":
			return backend.Errorf("Not allowed by PostgreSQL",
				"%s failed: %s. Grant the user the needed privileges on schema %q (CREATE and USAGE) and table %q (SELECT, INSERT, UPDATE, DELETE), or create them beforehand and set the skip_* settings.", what, pgErr.Message, b.cfg.SchemaName, b.cfg.TableName)
		}
		return backend.Errorf("PostgreSQL error", "%s in %s failed: %s (SQLSTATE %s).", what, b.where, pgErr.Message, pgErr.Code)
	}
	return backend.Errorf("PostgreSQL error", "%s in %s failed: %s. Check that the server is reachable and try again.", what, b.where, err)
}

// redact removes a password that an error message may quote from the
// connection string.
func redact(msg, connStr string) string {
	if connStr != "" {
		if cc, err := pgconn.ParseConfig(connStr); err == nil && cc.Password != "" {
			msg = strings.ReplaceAll(msg, cc.Password, "xxxxx")
		}
	}
	return msg
}
