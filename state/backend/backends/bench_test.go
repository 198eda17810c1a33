package backends

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/local"
)

// BenchmarkStateRoundTrip100k is one run's state traffic for a
// 100,000-instance state (what `count = 100000` of terraform_data
// leaves): a fresh manager reads the stored state, as a run starts, and
// writes it back changed, as the run ends. To a local file, and through
// the pg and s3 backends on the servers of scripts/services.sh (skipped
// without them). docs/performance.md has the
// numbers; the promise is that pg and s3 stay within 1.5x of local.
func BenchmarkStateRoundTrip100k(b *testing.B) {
	st := benchState(100_000)
	ctx := context.Background()
	b.Run("local", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "terraform.tfstate")
		i := 0
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
	remote := func(b *testing.B, typ string, settings map[string]cty.Value) {
		be, diags := Configure(ctx, typ, backend.NewSettings(settings))
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
		defer be.Close()
		i := 0
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
		schema := "bench_" + randomSuffix()
		defer func() {
			if db, err := pgx.Connect(ctx, conn); err == nil {
				db.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
				db.Close(ctx)
			}
		}()
		remote(b, "pg", map[string]cty.Value{"conn_str": cty.StringVal(conn), "schema_name": cty.StringVal(schema)})
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
		})
	})
}

// benchState is what `count = n` of terraform_data leaves after an apply.
func benchState(n int) *state.State {
	s := state.NewState()
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Absolute(nil)
	for i := range n {
		s.SetResourceInstanceCurrent(res.Instance(addrs.IntKey(i)), &state.ObjectSrc{
			Status:    state.ObjectReady,
			AttrsJSON: []byte(fmt.Sprintf(`{"id":"aaaaaaaa-0000-0000-0000-%012d","input":{"value":"x-%d","type":"string"},"output":{"value":"x-%d","type":"string"},"triggers_replace":null}`, i, i, i)),
		}, prov)
	}
	return s
}
