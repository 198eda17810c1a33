package backends

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statetest"
)

// BenchmarkStateRoundTrip100k is one run's state traffic for a
// 100,000-instance state (what `count = 100000` of terraform_data
// leaves): a fresh manager reads the stored state, as a run starts, and
// writes it back changed, as the run ends. To a local file, and through
// the pg and s3 backends on the servers of scripts/services.sh (skipped
// without them). docs/performance.md has the
// numbers; the promise is that pg and s3 stay within 1.5x of local.
//
// Besides wall time it reports CPU time per round trip (on Linux), which
// a loaded machine disturbs less: cpu-s/op of this process, server-cpu-s/op
// of the server's processes (pg: the sessions of this benchmark; s3: all
// of versitygw, so an upper bound if others use it at the same time) and
// total-cpu-s/op, their sum.
func BenchmarkStateRoundTrip100k(b *testing.B) {
	st := statetest.Flat(100_000)
	ctx := context.Background()
	b.Run("local", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "terraform.tfstate")
		i := 0
		defer measureCPU(b, nil)()
		for b.Loop() {
			i++
			st.SetOutputValue("round", cty.NumberIntVal(int64(i)), false)
			m := local.Open(path, local.Options{BackupPath: "-"})
			if _, err := m.Read(); err != nil {
				b.Fatal(err)
			}
			if err := m.Write(st); err != nil {
				b.Fatal(err)
			}
		}
	})
	remote := func(b *testing.B, typ string, settings map[string]cty.Value, servers func() []int) {
		be, diags := Configure(ctx, typ, backend.NewSettings(settings))
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
		defer be.Close()
		i := 0
		defer measureCPU(b, servers)()
		for b.Loop() {
			i++
			st.SetOutputValue("round", cty.NumberIntVal(int64(i)), false)
			m, _ := backend.Open(ctx, be, "default", backend.Options{})
			if _, d := m.Read(ctx); d.HasErrors() {
				b.Fatal(d.Error())
			}
			if d := m.Write(ctx, st); d.HasErrors() {
				b.Fatal(d.Error())
			}
		}
	}
	b.Run("pg", func(b *testing.B) {
		conn := os.Getenv("TENET_TEST_PG_CONN")
		if conn == "" {
			b.Skip("SKIPPING: TENET_TEST_PG_CONN is not set; run eval \"$(bash scripts/services.sh)\"")
		}
		suffix := randomSuffix()
		schema, app := "bench_"+suffix, "tenet-bench-"+suffix
		db, err := pgx.Connect(ctx, conn)
		if err != nil {
			b.Fatal(err)
		}
		defer func() {
			db.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
			db.Close(ctx)
		}()
		// The benchmark's sessions, named by application_name.
		sessions := func() []int {
			rows, _ := db.Query(ctx, "SELECT pid FROM pg_stat_activity WHERE application_name = $1", app)
			pids, _ := pgx.CollectRows(rows, pgx.RowTo[int32])
			var out []int
			for _, p := range pids {
				out = append(out, int(p))
			}
			return out
		}
		remote(b, "pg", map[string]cty.Value{"conn_str": cty.StringVal(withParam(conn, "application_name="+app)), "schema_name": cty.StringVal(schema)}, sessions)
	})
	b.Run("s3", func(b *testing.B) {
		endpoint := os.Getenv("TENET_TEST_S3_ENDPOINT")
		if endpoint == "" {
			b.Skip("SKIPPING: TENET_TEST_S3_ENDPOINT is not set; run eval \"$(bash scripts/services.sh)\"")
		}
		remote(b, "s3", map[string]cty.Value{
			"bucket": cty.StringVal(os.Getenv("TENET_TEST_S3_BUCKET")), "key": cty.StringVal("bench-" + randomSuffix() + "/terraform.tfstate"),
			"region":         cty.StringVal(os.Getenv("TENET_TEST_S3_REGION")),
			"endpoints":      cty.ObjectVal(map[string]cty.Value{"s3": cty.StringVal(endpoint)}),
			"use_path_style": cty.True, "access_key": cty.StringVal(os.Getenv("TENET_TEST_S3_ACCESS_KEY")),
			"secret_key":                  cty.StringVal(os.Getenv("TENET_TEST_S3_SECRET_KEY")),
			"skip_credentials_validation": cty.True,
		}, func() []int { return processesNamed("versitygw") })
	})
}

// measureCPU starts counting CPU time; the function it returns reports
// it per operation: this process's and, with servers, that of the
// processes it lists (asked again at the end, for sessions opened
// meanwhile).
func measureCPU(b *testing.B, servers func() []int) func() {
	own := ownCPU()
	base := map[int]time.Duration{}
	if servers != nil {
		for _, pid := range servers() {
			base[pid] = processCPU(pid)
		}
	}
	return func() {
		if own == 0 || b.N == 0 {
			return
		}
		n := float64(b.N)
		total := ownCPU() - own
		b.ReportMetric(total.Seconds()/n, "cpu-s/op")
		if servers != nil {
			var server time.Duration
			for _, pid := range servers() {
				server += processCPU(pid) - base[pid]
			}
			b.ReportMetric(server.Seconds()/n, "server-cpu-s/op")
			total += server
		}
		b.ReportMetric(total.Seconds()/n, "total-cpu-s/op")
	}
}

// withParam adds key=value to a connection string, URL or key=value form.
func withParam(conn, kv string) string {
	switch {
	case !strings.Contains(conn, "://"):
		return conn + " " + kv
	case strings.Contains(conn, "?"):
		return conn + "&" + kv
	}
	return conn + "?" + kv
}
