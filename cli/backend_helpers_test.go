package cli_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backends"
	"github.com/tenetplan/tenet/state/backend/backendtest"
	"github.com/tenetplan/tenet/state/statefile"
)

// Helpers for the tests that run the real binary against the real
// PostgreSQL and S3 servers of scripts/services.sh.

func needS3(t *testing.T) {
	t.Helper()
	if os.Getenv("TENET_TEST_S3_ENDPOINT") == "" {
		t.Skip("SKIPPING: TENET_TEST_S3_ENDPOINT is not set; run eval \"$(bash scripts/services.sh)\" to start the test S3 server")
	}
}

func randomName(prefix string) string {
	var b [4]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// pgSchema is a fresh schema, dropped at the end of the test.
func pgSchema(t *testing.T) string {
	t.Helper()
	conn := backendtest.PGConnStr(t)
	name := randomName("cli_")
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), conn)
		if err == nil {
			c.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+pgx.Identifier{name}.Sanitize()+" CASCADE")
			c.Close(context.Background())
		}
	})
	return name
}

func pgSettings(t *testing.T, schema string) map[string]cty.Value {
	return map[string]cty.Value{"conn_str": cty.StringVal(backendtest.PGConnStr(t)), "schema_name": cty.StringVal(schema)}
}

func s3Settings(t *testing.T, key string) map[string]cty.Value {
	needS3(t)
	return map[string]cty.Value{
		"bucket":                      cty.StringVal(os.Getenv("TENET_TEST_S3_BUCKET")),
		"key":                         cty.StringVal(key),
		"region":                      cty.StringVal(os.Getenv("TENET_TEST_S3_REGION")),
		"endpoints":                   cty.ObjectVal(map[string]cty.Value{"s3": cty.StringVal(os.Getenv("TENET_TEST_S3_ENDPOINT"))}),
		"use_path_style":              cty.True,
		"access_key":                  cty.StringVal(os.Getenv("TENET_TEST_S3_ACCESS_KEY")),
		"secret_key":                  cty.StringVal(os.Getenv("TENET_TEST_S3_SECRET_KEY")),
		"skip_credentials_validation": cty.True,
		"use_lockfile":                cty.True,
	}
}

// backendBlock writes settings as a terraform { backend "TYPE" { … } } block.
func backendBlock(typ string, settings map[string]cty.Value) string {
	var b strings.Builder
	fmt.Fprintf(&b, "terraform {\n  backend %q {\n", typ)
	for k, v := range settings {
		fmt.Fprintf(&b, "    %s = %s\n", k, hclValue(v))
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

func hclValue(v cty.Value) string {
	switch {
	case v.Type() == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case v.Type() == cty.Bool:
		return fmt.Sprintf("%t", v.True())
	case v.Type().IsObjectType():
		var parts []string
		for k, e := range v.AsValueMap() {
			parts = append(parts, k+" = "+hclValue(e))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	panic("unsupported value " + v.GoString())
}

// openManager opens a workspace of a backend directly, as another
// process (or machine) would.
func openManager(t *testing.T, typ string, settings map[string]cty.Value, ws string) *backend.Manager {
	t.Helper()
	b, d := backends.Configure(context.Background(), typ, backend.NewSettings(settings))
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	t.Cleanup(func() { b.Close() })
	m, d := backend.Open(context.Background(), b, ws, backend.Options{TerraformVersion: "test"})
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	return m
}

func readBackendState(t *testing.T, typ string, settings map[string]cty.Value, ws string) *statefile.File {
	t.Helper()
	f, d := openManager(t, typ, settings, ws).Read(context.Background())
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	return f
}

func readStateFile(t *testing.T, path string) *statefile.File {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// tenetRun runs the built binary in dir with stdin and extra environment.
func tenetRun(t *testing.T, dir, stdin string, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := tenetCmd(t, dir, args...)
	cmd.Env = append(cmd.Env, "TF_CLI_CONFIG_FILE=/dev/null")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// mustTenet runs tenet and fails the test when it fails.
func mustTenet(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	out, errs, err := tenetRun(t, dir, "", env, args...)
	if err != nil {
		t.Fatalf("tenet %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, errs)
	}
	return out
}

func writeMain(t *testing.T, dir, src string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}
