package pg

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backendtest"
	"github.com/tenetplan/tenet/state/statetest"
)

// testSchema is a fresh schema name, dropped when the test ends.
func testSchema(t *testing.T) string {
	t.Helper()
	var b [4]byte
	rand.Read(b[:])
	name := "tenet_test_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		conn := backendtest.PGConn(t)
		conn.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+pgx.Identifier{name}.Sanitize()+" CASCADE")
	})
	return name
}

func newBackend(t *testing.T, cfg Config) *Backend { return backendtest.Configure(t, New, cfg) }

func harness(t *testing.T) backendtest.Harness {
	conn := backendtest.PGConnStr(t)
	schema := testSchema(t)
	table := pgx.Identifier{schema, "states"}.Sanitize()
	return backendtest.Harness{
		New: func(t *testing.T) backend.Backend {
			return newBackend(t, Config{ConnStr: conn, SchemaName: schema, TableName: "states", IndexName: "states_by_name"})
		},
		RawGet: func(t *testing.T, ws string) []byte {
			var data string
			err := backendtest.PGConn(t).QueryRow(context.Background(), "SELECT data FROM "+table+" WHERE name = $1", ws).Scan(&data)
			if err == pgx.ErrNoRows {
				return nil
			}
			if err != nil {
				t.Fatal(err)
			}
			return []byte(data)
		},
		RawPut: func(t *testing.T, ws string, data []byte) {
			_, err := backendtest.PGConn(t).Exec(context.Background(), "INSERT INTO "+table+" (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2", ws, string(data))
			if err != nil {
				t.Fatal(err)
			}
		},
	}
}

func TestSuite(t *testing.T) {
	backendtest.Run(t, harness(t))
}

func TestSettings(t *testing.T) {
	tests := []backendtest.SettingsCase[Config]{
		{
			Name: "defaults",
			Want: Config{SchemaName: "terraform_remote_state", TableName: "states", IndexName: "states_by_name"},
		},
		{
			Name: "environment",
			Env:  map[string]string{"PG_CONN_STR": "postgres://h/db", "PG_SCHEMA_NAME": "s", "PG_SKIP_SCHEMA_CREATION": "true", "PG_SKIP_INDEX_CREATION": "1"},
			Want: Config{ConnStr: "postgres://h/db", SchemaName: "s", TableName: "states", IndexName: "states_by_name", SkipSchemaCreation: true, SkipIndexCreation: true},
		},
		{
			Name: "settings win over environment",
			Vals: map[string]cty.Value{"conn_str": cty.StringVal("postgres://a/b"), "skip_table_creation": cty.True, "table_name": cty.StringVal("t")},
			Env:  map[string]string{"PG_CONN_STR": "postgres://h/db"},
			Want: Config{ConnStr: "postgres://a/b", SchemaName: "terraform_remote_state", TableName: "t", IndexName: "states_by_name", SkipTableCreation: true},
		},
		{
			Name: "unknown argument",
			Vals: map[string]cty.Value{"conn_string": cty.StringVal("x")},
			Err:  `no argument named "conn_string"`,
		},
		{
			Name: "bad boolean in environment",
			Env:  map[string]string{"PG_SKIP_TABLE_CREATION": "maybe"},
			Err:  "PG_SKIP_TABLE_CREATION must be true or false",
		},
	}
	backendtest.CheckSettings(t, ConfigFrom, tests)
}

// TestOpenTofuLayout checks the objects OpenTofu's pg backend expects,
// by their catalog names, and that its lock keys exclude tenet's.
func TestOpenTofuLayout(t *testing.T) {
	ctx := context.Background()
	conn := backendtest.PGConnStr(t)
	schema := testSchema(t)
	b := newBackend(t, Config{ConnStr: conn, SchemaName: schema, TableName: "states", IndexName: "states_by_name"})
	raw := backendtest.PGConn(t)

	var cols []string
	rows, err := raw.Query(ctx, `SELECT column_name || ' ' || data_type FROM information_schema.columns
WHERE table_schema = $1 AND table_name = 'states' ORDER BY ordinal_position`, schema)
	if err != nil {
		t.Fatal(err)
	}
	cols, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"id bigint", "name text", "data text"}; strings.Join(cols, ",") != strings.Join(want, ",") {
		t.Errorf("columns = %q, want %q", cols, want)
	}
	var idx, seqDefault string
	if err := raw.QueryRow(ctx, "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'states_by_name'", schema).Scan(&idx); err != nil {
		t.Fatalf("index states_by_name: %v", err)
	}
	if !strings.Contains(idx, "UNIQUE INDEX") || !strings.Contains(idx, "(name)") {
		t.Errorf("index = %q", idx)
	}
	if err := raw.QueryRow(ctx, "SELECT column_default FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'states' AND column_name = 'id'", schema).Scan(&seqDefault); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(seqDefault, "global_states_id_seq") {
		t.Errorf("id default = %q, want the public.global_states_id_seq sequence", seqDefault)
	}

	// OpenTofu locks an existing workspace on its row id: while tenet
	// holds the lock OpenTofu's try fails, and the other way round.
	m, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
	backendtest.NoErrors(t, "open", diags)
	backendtest.NoErrors(t, "write", m.Write(ctx, statetest.With(t, "a")))
	var id int64
	if err := raw.QueryRow(ctx, "SELECT id FROM "+pgx.Identifier{schema, "states"}.Sanitize()+" WHERE name = 'default'").Scan(&id); err != nil {
		t.Fatal(err)
	}
	lockID, diags := m.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	backendtest.NoErrors(t, "lock", diags)
	if try(t, raw, id) {
		t.Error("OpenTofu's lock on the row id succeeded while tenet held the lock")
	}
	backendtest.NoErrors(t, "unlock", m.Unlock(ctx, lockID))
	if !try(t, raw, id) {
		t.Fatal("OpenTofu's lock on the row id failed after tenet let go")
	}
	_, diags = m.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	backendtest.WantError(t, "lock while OpenTofu holds it", diags, "locked")
	if h, _ := backend.Holder(diags); h == nil || !strings.Contains(h.Info, "PostgreSQL session PID") {
		t.Errorf("holder = %+v, want the holding session", h)
	}
	raw.Exec(ctx, "SELECT pg_advisory_unlock($1)", id)

	// A workspace without a row is locked on the creation key.
	if got, want := creationLockKey(schema, "states"), creationKeyLikeOpenTofu(schema, "states"); got != want {
		t.Fatalf("creation key = %d, want %d", got, want)
	}
	mNew, diags := backend.Open(ctx, b, "newws", backend.Options{})
	backendtest.NoErrors(t, "open newws", diags)
	lockID, diags = mNew.Lock(ctx, backend.NewLockInfo("init"))
	backendtest.NoErrors(t, "lock newws", diags)
	if try(t, raw, creationLockKey(schema, "states")) {
		t.Error("OpenTofu's creation lock succeeded while tenet held it")
	}
	backendtest.NoErrors(t, "unlock newws", mNew.Unlock(ctx, lockID))
}

// creationKeyLikeOpenTofu recomputes the creation key from the
// description in OpenTofu's documentation of its pg backend: FNV-1 32 of
// schema NUL table, negated.
func creationKeyLikeOpenTofu(schema, table string) int64 {
	var h uint32 = 2166136261
	for _, c := range []byte(schema + "\x00" + table) {
		h *= 16777619
		h ^= uint32(c)
	}
	return -int64(h)
}

func try(t *testing.T, conn *pgx.Conn, key int64) bool {
	t.Helper()
	var ok bool
	if err := conn.QueryRow(context.Background(), "SELECT pg_try_advisory_lock($1)", key).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestConnectionDiagnostics(t *testing.T) {
	conn := backendtest.PGConnStr(t)
	cfg, err := pgx.ParseConfig(conn)
	if err != nil {
		t.Fatal(err)
	}
	schema := testSchema(t)
	wrongPassword := fmt.Sprintf("postgres://%s:wrong@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, cfg.Database)
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"wrong password", Config{ConnStr: wrongPassword, SchemaName: schema, TableName: "states", IndexName: "i"}, "Cannot log in"},
		{"unreachable", Config{ConnStr: "postgres://u:p@127.0.0.1:1/db?sslmode=disable&connect_timeout=3", SchemaName: schema, TableName: "states"}, "Cannot reach PostgreSQL"},
		{"missing database", Config{ConnStr: fmt.Sprintf("postgres://%s:%s@%s:%d/nodb_here?sslmode=disable", cfg.User, cfg.Password, cfg.Host, cfg.Port), SchemaName: schema, TableName: "states"}, "does not exist"},
		{"unparsable", Config{ConnStr: "postgres://[::1", SchemaName: schema}, "cannot be parsed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := New(context.Background(), tt.cfg)
			if b != nil {
				b.Close()
			}
			backendtest.WantError(t, "configure", diags, tt.want)
			if strings.Contains(diags.Error(), "wrong@") {
				t.Errorf("message shows the password: %s", diags.Error())
			}
		})
	}

	t.Run("missing schema with creation skipped", func(t *testing.T) {
		b := newBackend(t, Config{ConnStr: conn, SchemaName: schema + "_none", TableName: "states", IndexName: "i",
			SkipSchemaCreation: true, SkipTableCreation: true, SkipIndexCreation: true})
		_, diags := b.Workspaces(context.Background())
		backendtest.WantError(t, "list", diags, "state table is missing")
		m, diags := backend.Open(context.Background(), b, "default", backend.Options{})
		backendtest.NoErrors(t, "open", diags)
		backendtest.WantError(t, "write", m.Write(context.Background(), statetest.With(t, "a")), "skip_schema_creation")
	})
}

// TestLostLockRefusesWrite: when the session holding the lock ends (here
// terminated by an administrator), PostgreSQL releases the lock, so the
// next write must fail and leave the stored state alone: an existing row
// is not updated, and a workspace without one gets none.
func TestLostLockRefusesWrite(t *testing.T) {
	for _, stored := range []bool{true, false} {
		t.Run(map[bool]string{true: "stored state", false: "new workspace"}[stored], func(t *testing.T) {
			ctx := context.Background()
			h := harness(t)
			b := h.New(t)
			m, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
			backendtest.NoErrors(t, "open", diags)
			if stored {
				backendtest.NoErrors(t, "write", m.Write(ctx, statetest.With(t, "a")))
			}
			before := h.RawGet(t, backend.DefaultWorkspace)
			info := backend.NewLockInfo("OperationTypeApply")
			_, diags = m.Lock(ctx, info)
			backendtest.NoErrors(t, "lock", diags)
			_, diags = m.Read(ctx) // as a run reads under its lock
			backendtest.NoErrors(t, "read", diags)
			raw := backendtest.PGConn(t)
			var n int
			if err := raw.QueryRow(ctx, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1", "tenet:"+info.ID+":OperationTypeApply").Scan(&n); err != nil || n != 1 {
				t.Fatalf("terminating the lock session: %d sessions, %v", n, err)
			}
			time.Sleep(100 * time.Millisecond)
			backendtest.WantError(t, "write after the lock was lost", m.Write(ctx, statetest.With(t, "b")), "State lock lost")
			if after := h.RawGet(t, backend.DefaultWorkspace); string(after) != string(before) || (after == nil) != (before == nil) {
				t.Errorf("stored state changed by a write that failed: %.60q, was %.60q", after, before)
			}
		})
	}
}

// TestLockBetweenProcesses runs a second test process that takes the
// lock: this process must see it held, with the child's lock info, and
// get it once the child has exited (its session ended).
func TestLockBetweenProcesses(t *testing.T) {
	if os.Getenv("TENET_PG_LOCK_CHILD") != "" {
		lockChild(t)
		return
	}
	ctx := context.Background()
	conn := backendtest.PGConnStr(t)
	schema := testSchema(t)
	b := newBackend(t, Config{ConnStr: conn, SchemaName: schema, TableName: "states", IndexName: "states_by_name"})
	m, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
	backendtest.NoErrors(t, "open", diags)
	backendtest.NoErrors(t, "write", m.Write(ctx, statetest.With(t, "a")))

	cmd := exec.Command(os.Args[0], "-test.run=^TestLockBetweenProcesses$")
	cmd.Env = append(os.Environ(), "TENET_PG_LOCK_CHILD=1", "TENET_PG_LOCK_SCHEMA="+schema)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	childID, ok := strings.CutPrefix(strings.TrimSpace(line), "locked ")
	if err != nil || !ok {
		t.Fatalf("child did not lock: %q %v", line, err)
	}
	_, diags = m.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
	backendtest.WantError(t, "lock while the child holds it", diags, childID)

	stdin.Close() // the child exits without unlocking
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	m2, _ := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{LockTimeout: 10 * time.Second})
	id, diags := m2.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
	backendtest.NoErrors(t, "lock after the child exited", diags)
	backendtest.NoErrors(t, "unlock", m2.Unlock(ctx, id))
}

func lockChild(t *testing.T) {
	ctx := context.Background()
	b, diags := New(ctx, Config{ConnStr: os.Getenv("TENET_TEST_PG_CONN"), SchemaName: os.Getenv("TENET_PG_LOCK_SCHEMA"), TableName: "states", IndexName: "states_by_name"})
	backendtest.NoErrors(t, "child configure", diags)
	m, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
	backendtest.NoErrors(t, "child open", diags)
	id, diags := m.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	backendtest.NoErrors(t, "child lock", diags)
	fmt.Printf("locked %s\n", id)
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0) // no unlock: the session ends with the process
}

// TestLibpqEnvironment: with no conn_str, libpq's PG* variables say where
// to connect, as they do for OpenTofu.
func TestLibpqEnvironment(t *testing.T) {
	cfg, err := pgx.ParseConfig(backendtest.PGConnStr(t))
	if err != nil {
		t.Fatal(err)
	}
	schema := testSchema(t)
	t.Setenv("PGHOST", cfg.Host)
	t.Setenv("PGPORT", fmt.Sprint(cfg.Port))
	t.Setenv("PGUSER", cfg.User)
	t.Setenv("PGPASSWORD", cfg.Password)
	t.Setenv("PGDATABASE", cfg.Database)
	t.Setenv("PGSSLMODE", "disable")
	b := newBackend(t, Config{SchemaName: schema, TableName: "states", IndexName: "states_by_name"})
	names, diags := b.Workspaces(context.Background())
	backendtest.NoErrors(t, "list", diags)
	if len(names) != 1 || names[0] != backend.DefaultWorkspace {
		t.Errorf("workspaces = %q, want [default]", names)
	}
}

// TestLockWithinOneProcess: two managers over the same backend use
// different sessions, so they exclude each other even though advisory
// locks are re-entrant within a session, also after sessions went back
// to the pool.
func TestLockWithinOneProcess(t *testing.T) {
	ctx := context.Background()
	b := harness(t).New(t)
	for round := range 3 {
		m1, _ := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
		m2, _ := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
		if round == 0 {
			backendtest.NoErrors(t, "write", m1.Write(ctx, statetest.With(t, "a")))
		}
		id, diags := m1.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
		backendtest.NoErrors(t, "lock 1", diags)
		_, diags = m2.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
		backendtest.WantError(t, fmt.Sprintf("round %d: lock 2 in the same process", round), diags, id)
		backendtest.NoErrors(t, "unlock 1", m1.Unlock(ctx, id))
	}
}
