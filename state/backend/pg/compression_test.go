package pg

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backendtest"
	"github.com/tenetplan/tenet/state/statetest"
)

// TestStoredCompression: tenet's sessions store the state compressed with
// lz4 where the server has it and no one chose a method, in OpenTofu's
// table as in its own, and the row reads back as the same text; a method
// chosen for the session (here in the connection string) is kept.
func TestStoredCompression(t *testing.T) {
	ctx := context.Background()
	conn := backendtest.PGConnStr(t)
	raw := backendtest.PGConn(t)
	var lz4 bool
	if err := raw.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals))").Scan(&lz4); err != nil {
		t.Fatal(err)
	}
	// A state large enough to be compressed out of line.
	ids := make([]string, 3000)
	for i := range ids {
		ids[i] = strings.Repeat("i", 8) + string(rune('a'+i%26)) + strings.Repeat("x", i%7)
	}
	st := statetest.With(t, ids...)
	tests := []struct {
		name, connStr, want string
	}{
		{"server default", conn, map[bool]string{true: "lz4", false: "pglz"}[lz4]},
		{"chosen by the client", withParam(conn, "default_toast_compression=pglz"), "pglz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schema := testSchema(t)
			// The table as OpenTofu creates it, before tenet connects.
			for _, q := range []string{
				"CREATE SCHEMA " + pgx.Identifier{schema}.Sanitize(),
				"CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint",
				"CREATE TABLE " + pgx.Identifier{schema, "states"}.Sanitize() + " (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)",
			} {
				if _, err := raw.Exec(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			b := newBackend(t, Config{ConnStr: tt.connStr, SchemaName: schema, TableName: "states", IndexName: "states_by_name"})
			m, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
			backendtest.NoErrors(t, "open", diags)
			backendtest.NoErrors(t, "write", m.Write(ctx, st))
			var method *string
			var stored string
			if err := raw.QueryRow(ctx, "SELECT pg_column_compression(data), data FROM "+pgx.Identifier{schema, "states"}.Sanitize()+" WHERE name = 'default'").Scan(&method, &stored); err != nil {
				t.Fatal(err)
			}
			if got := "none"; method == nil || *method != tt.want {
				if method != nil {
					got = *method
				}
				t.Errorf("stored with compression %s, want %s", got, tt.want)
			}
			m2, _ := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
			f, diags := m2.Read(ctx)
			backendtest.NoErrors(t, "read", diags)
			if f == nil || !f.State.Equal(st) {
				t.Error("the state read back differs from the one written")
			}
			if !strings.HasPrefix(stored, "{") || !strings.Contains(stored, ids[len(ids)-1]) {
				t.Errorf("stored data is not the state's JSON: %.80q", stored)
			}
		})
	}
}

// withParam adds a key=value setting to a connection URL.
func withParam(conn, kv string) string {
	if strings.Contains(conn, "?") {
		return conn + "&" + kv
	}
	return conn + "?" + kv
}

// TestSessionPlansGenerically: tenet's sessions plan statements without
// their parameters' values, so a state of tens of megabytes is not copied
// into each write's plan; a write and a read through such a session
// still store and return the state exactly.
func TestSessionPlansGenerically(t *testing.T) {
	ctx := context.Background()
	b := newBackend(t, Config{ConnStr: backendtest.PGConnStr(t), SchemaName: testSchema(t), TableName: "states", IndexName: "states_by_name"})
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	err = conn.QueryRow(ctx, "SHOW plan_cache_mode").Scan(&mode)
	conn.Release()
	if err != nil {
		t.Fatal(err)
	}
	if mode != "force_generic_plan" {
		t.Errorf("plan_cache_mode = %s, want force_generic_plan", mode)
	}
	// The first write inserts the row, the second updates it.
	for _, st := range []*state.State{statetest.With(t, "a", "b"), statetest.With(t, "a", "b", "c")} {
		m, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
		backendtest.NoErrors(t, "open", diags)
		backendtest.NoErrors(t, "write", m.Write(ctx, st))
		m2, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
		backendtest.NoErrors(t, "open", diags)
		f, diags := m2.Read(ctx)
		backendtest.NoErrors(t, "read", diags)
		if f == nil || !f.State.Equal(st) {
			t.Error("the state read back differs from the one written")
		}
	}
}
