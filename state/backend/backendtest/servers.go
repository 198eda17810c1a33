package backendtest

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// PGConnStr is the test PostgreSQL server from TENET_TEST_PG_CONN
// (scripts/services.sh prints it); the test skips, loudly, without one.
func PGConnStr(t testing.TB) string {
	t.Helper()
	c := os.Getenv("TENET_TEST_PG_CONN")
	if c == "" {
		t.Skip("SKIPPING PostgreSQL tests: TENET_TEST_PG_CONN is not set. Run `eval \"$(bash scripts/services.sh)\"` to start a test server.")
	}
	return c
}

// PGConn is a plain connection to the test PostgreSQL server, for reading
// and writing its tables without a backend, closed when the test ends.
func PGConn(t testing.TB) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), PGConnStr(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
