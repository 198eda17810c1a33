package cli_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/jackc/pgx/v5"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/cli"
	"github.com/tenetplan/tenet/state/backend/backendtest"
)

// The fault tests run the real binary against the real servers and check
// what a user sees: each fault is an error whose text says what to do, and
// the stored state is left byte for byte as it was.

// flat is stderr without the diagnostic box and line breaks, for matching
// sentences.
func flat(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), " ")
}

// pgRow reads a workspace's stored bytes as OpenTofu's layout has them.
func pgRow(t *testing.T, schema, ws string) string {
	t.Helper()
	var data string
	if err := backendtest.PGConn(t).QueryRow(context.Background(), "SELECT data FROM "+pgx.Identifier{schema, "states"}.Sanitize()+" WHERE name = $1", ws).Scan(&data); err != nil {
		t.Fatal(err)
	}
	return data
}

func pgExec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if _, err := backendtest.PGConn(t).Exec(context.Background(), sql, args...); err != nil {
		t.Fatal(err)
	}
}

const faultConfig = `
resource "terraform_data" "a" {
  input = "one"
}
`

// TestBackendFaultsPG: wrong password, unreachable server, a missing
// schema with skip_schema_creation, a corrupt stored state, and pushes of
// an older serial or another lineage.
func TestBackendFaultsPG(t *testing.T) {
	schema := pgSchema(t)
	pg := pgSettings(t, schema)
	dir := t.TempDir()
	writeMain(t, dir, backendBlock("pg", pg)+faultConfig)
	mustTenet(t, dir, nil, "init", "-no-color")
	mustTenet(t, dir, nil, "apply", "-auto-approve", "-no-color")
	mustTenet(t, dir, nil, "state", "pull") // serial 1
	writeMain(t, dir, backendBlock("pg", pg)+strings.Replace(faultConfig, "one", "two", 1))
	mustTenet(t, dir, nil, "apply", "-auto-approve", "-no-color") // serial 2
	stored := pgRow(t, schema, "default")
	cfg, err := pgx.ParseConfig(backendtest.PGConnStr(t))
	if err != nil {
		t.Fatal(err)
	}
	pullOld := readBackendState(t, "pg", pg, "default")

	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) // runs before the command
		args  []string
		want  []string // sentences of the error, in its flattened text
	}{
		{name: "wrong password",
			args: []string{"init", "-reconfigure", "-no-color", "-backend-config=conn_str=postgres://" + cfg.User + ":wrong@" + cfg.Host + ":" + strconv.Itoa(int(cfg.Port)) + "/" + cfg.Database + "?sslmode=disable"},
			want: []string{"Cannot log in"}},
		{name: "unreachable server",
			args: []string{"init", "-reconfigure", "-no-color", "-backend-config=conn_str=postgres://u:p@127.0.0.1:1/db?sslmode=disable&connect_timeout=3"},
			want: []string{"Cannot reach PostgreSQL"}},
		{name: "missing schema with skip_schema_creation",
			args: []string{"init", "-reconfigure", "-no-color", "-backend-config=schema_name=" + schema + "_none", "-backend-config=skip_schema_creation=true", "-backend-config=skip_table_creation=true"},
			want: []string{"state table is missing", "does not exist", "leave skip_schema_creation and skip_table_creation unset"}},
		{name: "push of another lineage",
			setup: func(t *testing.T, dir string) {
				other := strings.Replace(stored, pullOld.Lineage, "00000000-1111-2222-3333-444444444444", 1)
				os.WriteFile(filepath.Join(dir, "other.tfstate"), []byte(other), 0o644)
			},
			args: []string{"state", "push", "other.tfstate"},
			want: []string{"Failed to write state: cannot import state with lineage", "over unrelated state with lineage"}},
		{name: "push of an older serial",
			setup: func(t *testing.T, dir string) {
				older := regexp.MustCompile(`"serial":\s*2`).ReplaceAllString(stored, `"serial": 1`)
				if older == stored {
					t.Fatalf("the stored state has no serial 2:\n%s", stored)
				}
				os.WriteFile(filepath.Join(dir, "older.tfstate"), []byte(older), 0o644)
			},
			args: []string{"state", "push", "older.tfstate"},
			want: []string{"Failed to write state: cannot import state with serial 1 over newer state with serial 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := t.TempDir()
			src, _ := os.ReadFile(filepath.Join(dir, "main.tf"))
			writeMain(t, work, string(src))
			mustTenet(t, work, nil, "init", "-no-color")
			if tt.setup != nil {
				tt.setup(t, work)
			}
			out, stderr, err := tenetRun(t, work, "", nil, tt.args...)
			if err == nil {
				t.Fatalf("tenet %s succeeded:\n%s", strings.Join(tt.args, " "), out)
			}
			for _, w := range tt.want {
				if !strings.Contains(flat(stderr), w) {
					t.Errorf("the error lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stderr, ":wrong@") {
				t.Errorf("the error shows the password:\n%s", stderr)
			}
			if got := pgRow(t, schema, "default"); got != stored {
				t.Fatalf("the stored state changed:\n%s", got)
			}
		})
	}

	t.Run("corrupt stored state", func(t *testing.T) {
		corrupt := `{"version": 4, "serial": 3, "lineage": "x", "resources": {"not": "a list"}}`
		pgExec(t, "UPDATE "+pgx.Identifier{schema, "states"}.Sanitize()+" SET data = $1 WHERE name = 'default'", corrupt)
		defer pgExec(t, "UPDATE "+pgx.Identifier{schema, "states"}.Sanitize()+" SET data = $1 WHERE name = 'default'", stored)
		for _, args := range [][]string{{"apply", "-auto-approve", "-no-color"}, {"state", "rm", "terraform_data.a"}, {"state", "pull"}} {
			_, stderr, err := tenetRun(t, dir, "", nil, args...)
			if err == nil || !strings.Contains(flat(stderr), "Stored state is corrupt") || !strings.Contains(flat(stderr), "will not overwrite it") {
				t.Fatalf("tenet %s: err=%v\n%s", strings.Join(args, " "), err, stderr)
			}
			if got := pgRow(t, schema, "default"); got != corrupt {
				t.Fatalf("tenet %s changed the corrupt state to:\n%s", strings.Join(args, " "), got)
			}
		}
	})
	t.Run("push -force replaces", func(t *testing.T) {
		other := strings.Replace(stored, pullOld.Lineage, "00000000-1111-2222-3333-444444444444", 1)
		os.WriteFile(filepath.Join(dir, "other.tfstate"), []byte(other), 0o644)
		mustTenet(t, dir, nil, "state", "push", "-force", "other.tfstate")
		if got := readBackendState(t, "pg", pg, "default"); got.Lineage != "00000000-1111-2222-3333-444444444444" {
			t.Fatalf("push -force stored lineage %s", got.Lineage)
		}
	})
}

// TestBackendFaultsS3: wrong keys, a missing bucket, a corrupt stored
// object, and a lock object left by a process killed with SIGKILL, which
// only force-unlock removes.
func TestBackendFaultsS3(t *testing.T) {
	key := randomName("faults-") + "/terraform.tfstate"
	s3 := s3Settings(t, key)
	dir := t.TempDir()
	writeMain(t, dir, backendBlock("s3", s3)+faultConfig)
	mustTenet(t, dir, nil, "init", "-no-color")
	mustTenet(t, dir, nil, "apply", "-auto-approve", "-no-color")
	before := readBackendState(t, "s3", s3, "default")

	for _, tt := range []struct {
		name, setting string
		value         cty.Value
		want          []string
	}{
		{"wrong secret key", "secret_key", cty.StringVal("wrong-secret"), []string{"refused the credentials"}},
		{"unknown access key", "access_key", cty.StringVal("nobody"), []string{"refused the credentials"}},
		{"missing bucket", "bucket", cty.StringVal("no-such-bucket-here"), []string{"does not exist"}},
		{"unreachable server", "endpoints", cty.ObjectVal(map[string]cty.Value{"s3": cty.StringVal("http://127.0.0.1:1")}), []string{"Cannot reach S3"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bad := map[string]cty.Value{}
			for k, v := range s3 {
				bad[k] = v
			}
			bad[tt.setting] = tt.value
			bad["max_retries"] = cty.StringVal("1")
			work := t.TempDir()
			writeMain(t, work, backendBlock("s3", bad)+faultConfig)
			var stderr string
			out, stderr, err := tenetRun(t, work, "", nil, "init", "-no-color")
			if err == nil {
				out, stderr, err = tenetRun(t, work, "", nil, "apply", "-auto-approve", "-no-color")
			}
			if err == nil {
				t.Fatalf("init and apply succeeded:\n%s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(flat(stderr), w) {
					t.Errorf("the error lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stderr, "wrong-secret") {
				t.Errorf("the error shows the secret:\n%s", stderr)
			}
			if after := readBackendState(t, "s3", s3, "default"); after.Serial != before.Serial || after.Lineage != before.Lineage {
				t.Fatalf("the stored state changed: serial %d", after.Serial)
			}
		})
	}

	t.Run("lock left by a killed process", func(t *testing.T) {
		writeMain(t, dir, backendBlock("s3", s3)+faultConfig+`
resource "time_sleep" "slow" {
  create_duration = "30s"
}
`)
		cmd := tenetCmd(t, dir, "apply", "-auto-approve", "-no-color")
		var out cli.SyncBuffer // written by exec's copying goroutine while read here
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for !strings.Contains(out.String(), "time_sleep.slow: Creating") && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		_, stderr, err := tenetRun(t, dir, "", nil, "plan", "-no-color")
		if err == nil || !strings.Contains(flat(stderr), "Error acquiring the state lock") || !strings.Contains(flat(stderr), "force-unlock") {
			t.Fatalf("want the leftover lock reported: %v\n%s", err, stderr)
		}
		m := regexp.MustCompile(`ID:\s+([0-9a-f-]{36})`).FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("the lock error names no ID:\n%s", stderr)
		}
		if after := readBackendState(t, "s3", s3, "default"); after.Serial != before.Serial {
			t.Fatalf("the killed run wrote the stored state (serial %d)", after.Serial)
		}
		out2 := mustTenet(t, dir, nil, "force-unlock", "-force", m[1])
		if !strings.Contains(out2, "successfully unlocked") {
			t.Fatalf("force-unlock:\n%s", out2)
		}
		// The killed run's working copy is continued.
		_, stderr, err = tenetRun(t, dir, "", nil, "plan", "-no-color")
		if err != nil {
			t.Fatalf("plan after force-unlock: %v\n%s", err, stderr)
		}
	})

	t.Run("corrupt stored object", func(t *testing.T) {
		work := t.TempDir()
		writeMain(t, work, backendBlock("s3", s3)+faultConfig)
		mustTenet(t, work, nil, "init", "-no-color")
		putRaw(t, key, []byte("{not json"))
		for _, args := range [][]string{{"apply", "-auto-approve", "-no-color"}, {"state", "pull"}} {
			_, stderr, err := tenetRun(t, work, "", nil, args...)
			if err == nil || !strings.Contains(flat(stderr), "Stored state is corrupt") {
				t.Fatalf("tenet %s: err=%v\n%s", strings.Join(args, " "), err, stderr)
			}
			if got := getRaw(t, key); string(got) != "{not json" {
				t.Fatalf("tenet %s changed the corrupt object to %q", strings.Join(args, " "), got)
			}
		}
	})
}

// rawS3 is a plain S3 client for the test server, to read and write
// objects at the keys of OpenTofu's layout without the backend.
func rawS3() *awss3.Client {
	return awss3.New(awss3.Options{Region: os.Getenv("TENET_TEST_S3_REGION"), BaseEndpoint: aws.String(os.Getenv("TENET_TEST_S3_ENDPOINT")), UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider(os.Getenv("TENET_TEST_S3_ACCESS_KEY"), os.Getenv("TENET_TEST_S3_SECRET_KEY"), "")})
}

func putRaw(t *testing.T, key string, data []byte) {
	t.Helper()
	_, err := rawS3().PutObject(context.Background(), &awss3.PutObjectInput{Bucket: aws.String(os.Getenv("TENET_TEST_S3_BUCKET")), Key: aws.String(key), Body: bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
}

func getRaw(t *testing.T, key string) []byte {
	t.Helper()
	out, err := rawS3().GetObject(context.Background(), &awss3.GetObjectInput{Bucket: aws.String(os.Getenv("TENET_TEST_S3_BUCKET")), Key: aws.String(key)})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
