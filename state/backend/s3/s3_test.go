package s3

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backendtest"
	"github.com/tenetplan/tenet/state/statetest"
)

// server is the S3-compatible test server from TENET_TEST_S3_* (printed by
// scripts/services.sh); the tests skip, loudly, without one.
type server struct{ endpoint, access, secret, bucket, region string }

func testServer(t *testing.T) server {
	t.Helper()
	s := server{os.Getenv("TENET_TEST_S3_ENDPOINT"), os.Getenv("TENET_TEST_S3_ACCESS_KEY"), os.Getenv("TENET_TEST_S3_SECRET_KEY"),
		os.Getenv("TENET_TEST_S3_BUCKET"), os.Getenv("TENET_TEST_S3_REGION")}
	if s.endpoint == "" || s.access == "" || s.secret == "" || s.bucket == "" {
		t.Skip("SKIPPING S3 backend tests: TENET_TEST_S3_ENDPOINT, TENET_TEST_S3_ACCESS_KEY, TENET_TEST_S3_SECRET_KEY and TENET_TEST_S3_BUCKET are not set. Run `eval \"$(bash scripts/services.sh)\"` to start a test server.")
	}
	if s.region == "" {
		s.region = "us-east-1"
	}
	return s
}

func (s server) config(key string) Config {
	return Config{Bucket: s.bucket, Key: key, Region: s.region, Endpoint: s.endpoint, UsePathStyle: true,
		WorkspaceKeyPrefix: "env:", AccessKey: s.access, SecretKey: s.secret, SkipCredentialsValidation: true,
		SkipMetadataAPICheck: true, UseLockfile: true, MaxRetries: 1}
}

// raw is a plain S3 client for reading and writing objects at the keys
// OpenTofu's layout names, without the backend.
func (s server) raw() *s3.Client {
	return s3.New(s3.Options{Region: s.region, BaseEndpoint: aws.String(s.endpoint), UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider(s.access, s.secret, "")})
}

func randomKey(t *testing.T) string {
	var b [4]byte
	rand.Read(b[:])
	return "tenet-test-" + hex.EncodeToString(b[:]) + ".tfstate"
}

func newBackend(t *testing.T, cfg Config) *Backend { return backendtest.Configure(t, New, cfg) }

func (s server) get(t *testing.T, key string) []byte {
	t.Helper()
	out, err := s.raw().GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if err != nil {
		var noKey *types.NoSuchKey
		if errors.As(err, &noKey) {
			return nil
		}
		t.Fatal(err)
	}
	defer out.Body.Close()
	data, _ := io.ReadAll(out.Body)
	return data
}

// layoutKey is where OpenTofu's documentation says a workspace's state is.
func layoutKey(key, ws string) string {
	if ws == backend.DefaultWorkspace {
		return key
	}
	return "env:/" + ws + "/" + key
}

func harness(t *testing.T) (backendtest.Harness, server, string) {
	s := testServer(t)
	key := randomKey(t)
	t.Cleanup(func() {
		raw := s.raw()
		for _, prefix := range []string{key, "env:/"} {
			out, err := raw.ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(prefix)})
			if err != nil {
				return
			}
			for _, o := range out.Contents {
				if strings.Contains(aws.ToString(o.Key), key) {
					raw.DeleteObject(context.Background(), &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: o.Key})
				}
			}
		}
	})
	return backendtest.Harness{
		New:    func(t *testing.T) backend.Backend { return newBackend(t, s.config(key)) },
		RawGet: func(t *testing.T, ws string) []byte { return s.get(t, layoutKey(key, ws)) },
		RawPut: func(t *testing.T, ws string, data []byte) {
			_, err := s.raw().PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(layoutKey(key, ws)), Body: bytes.NewReader(data)})
			if err != nil {
				t.Fatal(err)
			}
		},
	}, s, key
}

func TestSuite(t *testing.T) {
	h, _, _ := harness(t)
	backendtest.Run(t, h)
}

// TestLockObject checks the lock object OpenTofu's use_lockfile reads:
// <state key>.tflock holding the lock info JSON, gone after unlock; and
// that a lock object written by another tool excludes tenet.
func TestLockObject(t *testing.T) {
	ctx := context.Background()
	h, s, key := harness(t)
	b := h.New(t)
	m, diags := backend.Open(ctx, b, "staging", backend.Options{})
	backendtest.NoErrors(t, "open", diags)
	info := backend.NewLockInfo("OperationTypeApply")
	id, diags := m.Lock(ctx, info)
	backendtest.NoErrors(t, "lock", diags)
	lockKey := "env:/staging/" + key + ".tflock"
	got, err := backend.ParseLockInfo(s.get(t, lockKey))
	if err != nil {
		t.Fatalf("lock object %s: %v", lockKey, err)
	}
	if diff := cmp.Diff([]string{id, "OperationTypeApply", "s3://" + s.bucket + "/env:/staging/" + key}, []string{got.ID, got.Operation, got.Path}); diff != "" {
		t.Errorf("lock info (-want +got):\n%s", diff)
	}
	backendtest.NoErrors(t, "unlock", m.Unlock(ctx, id))
	if s.get(t, lockKey) != nil {
		t.Error("lock object left after unlock")
	}

	// Another tool's lock object.
	other := backend.LockInfo{ID: "0f0e0d0c-aaaa-bbbb-cccc-000000000001", Operation: "OperationTypePlan", Who: "tofu@elsewhere"}
	h.RawPut(t, backend.DefaultWorkspace, []byte(`{"version":4,"serial":1,"lineage":"x","outputs":{},"resources":[]}`))
	_, err = s.raw().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key + ".tflock"), Body: bytes.NewReader(backend.MarshalLockInfo(&other))})
	if err != nil {
		t.Fatal(err)
	}
	md, diags := backend.Open(ctx, b, backend.DefaultWorkspace, backend.Options{})
	backendtest.NoErrors(t, "open default", diags)
	_, diags = md.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	backendtest.WantError(t, "lock held by another tool", diags, "tofu@elsewhere")
	backendtest.WantError(t, "unlock with a wrong ID", md.Unlock(ctx, "not-the-id"), other.ID)
	backendtest.NoErrors(t, "force unlock with the holder's ID", md.Unlock(ctx, other.ID))
}

// TestLockRace: many managers try at once; the conditional write lets
// exactly one win.
func TestLockRace(t *testing.T) {
	ctx := context.Background()
	h, _, _ := harness(t)
	const n = 8
	var wg sync.WaitGroup
	won := make(chan string, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, diags := backend.Open(ctx, h.New(t), backend.DefaultWorkspace, backend.Options{})
			if diags.HasErrors() {
				t.Error(diags.Error())
				return
			}
			if id, diags := m.Lock(ctx, backend.NewLockInfo("OperationTypeApply")); !diags.HasErrors() {
				won <- id
			} else if _, held := backend.Holder(diags); !held {
				t.Errorf("lock failed without a conflict: %s", diags.Error())
			}
		}()
	}
	wg.Wait()
	close(won)
	var ids []string
	for id := range won {
		ids = append(ids, id)
	}
	if len(ids) != 1 {
		t.Fatalf("%d managers got the lock, want exactly 1", len(ids))
	}
}

func TestDiagnostics(t *testing.T) {
	ctx := context.Background()
	s := testServer(t)
	key := randomKey(t)
	tests := []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"wrong secret", func(c *Config) { c.SecretKey = "wrong-secret" }, "refused the credentials"},
		{"unknown access key", func(c *Config) { c.AccessKey = "nobody" }, "refused the credentials"},
		{"missing bucket", func(c *Config) { c.Bucket = "no-such-bucket-here" }, "does not exist"},
		{"unreachable", func(c *Config) { c.Endpoint = "http://127.0.0.1:1"; c.MaxRetries = 0 }, "Cannot reach S3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := s.config(key)
			tt.change(&cfg)
			m, diags := backend.Open(ctx, newBackend(t, cfg), backend.DefaultWorkspace, backend.Options{})
			backendtest.NoErrors(t, "open", diags)
			_, diags = m.Read(ctx)
			backendtest.WantError(t, "read", diags, tt.want)
			backendtest.WantError(t, "write", m.Write(ctx, statetest.With(t, "a")), tt.want)
			if strings.Contains(diags.Error(), "wrong-secret") {
				t.Errorf("message shows the secret: %s", diags.Error())
			}
		})
	}
	if got := s.get(t, key); got != nil {
		t.Errorf("a failed operation stored %q", got)
	}
}

func TestSettings(t *testing.T) {
	base := map[string]cty.Value{"bucket": cty.StringVal("b"), "key": cty.StringVal("k/terraform.tfstate"), "region": cty.StringVal("eu-west-1")}
	with := func(extra map[string]cty.Value) map[string]cty.Value {
		m := map[string]cty.Value{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []backendtest.SettingsCase[Config]{
		{
			Name: "defaults",
			Vals: base,
			Want: Config{Bucket: "b", Key: "k/terraform.tfstate", Region: "eu-west-1", WorkspaceKeyPrefix: "env:", MaxRetries: 5},
		},
		{
			Name: "S3-compatible server",
			Vals: with(map[string]cty.Value{"endpoints": cty.ObjectVal(map[string]cty.Value{"s3": cty.StringVal("http://minio:9000")}),
				"use_path_style": cty.True, "region": cty.StringVal("garage"), "skip_credentials_validation": cty.True,
				"skip_region_validation": cty.True, "skip_requesting_account_id": cty.True, "skip_metadata_api_check": cty.True,
				"use_lockfile": cty.True, "workspace_key_prefix": cty.StringVal("ws"), "access_key": cty.StringVal("a"),
				"secret_key": cty.StringVal("s"), "encrypt": cty.True, "kms_key_id": cty.StringVal("kms")}),
			Want: Config{Bucket: "b", Key: "k/terraform.tfstate", Region: "garage", Endpoint: "http://minio:9000", UsePathStyle: true,
				WorkspaceKeyPrefix: "ws", AccessKey: "a", SecretKey: "s", SkipCredentialsValidation: true, SkipRegionValidation: true,
				SkipRequestingAccountID: true, SkipMetadataAPICheck: true, UseLockfile: true, Encrypt: true, KMSKeyID: "kms", MaxRetries: 5},
		},
		{
			Name:    "deprecated endpoint",
			Vals:    with(map[string]cty.Value{"endpoint": cty.StringVal("http://old:9000")}),
			Want:    Config{Bucket: "b", Key: "k/terraform.tfstate", Region: "eu-west-1", Endpoint: "http://old:9000", WorkspaceKeyPrefix: "env:", MaxRetries: 5},
			Warning: "deprecated",
		},
		{
			Name: "environment",
			Vals: map[string]cty.Value{"bucket": cty.StringVal("b"), "key": cty.StringVal("k")},
			Env:  map[string]string{"AWS_DEFAULT_REGION": "us-west-2", "AWS_PROFILE": "ops", "AWS_ENDPOINT_URL_S3": "http://e"},
			Want: Config{Bucket: "b", Key: "k", Region: "us-west-2", Profile: "ops", Endpoint: "http://e", WorkspaceKeyPrefix: "env:", MaxRetries: 5},
		},
		{Name: "dynamodb_table", Vals: with(map[string]cty.Value{"dynamodb_table": cty.StringVal("locks")}), Err: "use_lockfile = true"},
		{Name: "unsupported argument", Vals: with(map[string]cty.Value{"role_arn": cty.StringVal("x")}), Err: `"role_arn" yet`},
		{Name: "missing bucket", Vals: map[string]cty.Value{"key": cty.StringVal("k"), "region": cty.StringVal("eu-west-1")}, Err: "bucket"},
		{Name: "key with slash", Vals: with(map[string]cty.Value{"key": cty.StringVal("/k")}), Err: "must not start or end"},
		{Name: "bad region", Vals: with(map[string]cty.Value{"region": cty.StringVal("moon")}), Err: "skip_region_validation"},
		{Name: "half credentials", Vals: with(map[string]cty.Value{"access_key": cty.StringVal("a")}), Err: "both access_key and secret_key"},
	}
	backendtest.CheckSettings(t, ConfigFrom, tests)
}

func TestWorkspaceOf(t *testing.T) {
	tests := []struct {
		prefix, key, object, want string
	}{
		{"env:", "a.tfstate", "env:/dev/a.tfstate", "dev"},
		{"env:", "a.tfstate", "env:/dev/a.tfstate.tflock", ""},
		{"env:", "a.tfstate", "env:/dev/b.tfstate", ""},
		{"env:", "k/a.tfstate", "env:/dev/k/a.tfstate", "dev"},
		{"env:", "a.tfstate", "a.tfstate", ""},
		{"", "a.tfstate", "dev/a.tfstate", "dev"},
		{"ws", "a.tfstate", "env:/dev/a.tfstate", ""},
	}
	for _, tt := range tests {
		t.Run(path.Join(tt.prefix, tt.object), func(t *testing.T) {
			b := &Backend{cfg: Config{WorkspaceKeyPrefix: tt.prefix, Key: tt.key}}
			if got := b.workspaceOf(tt.object); got != tt.want {
				t.Errorf("workspaceOf(%q) = %q, want %q", tt.object, got, tt.want)
			}
			if tt.want != "" {
				if got := b.objectKey(tt.want); got != tt.object {
					t.Errorf("objectKey(%q) = %q, want %q", tt.want, got, tt.object)
				}
			}
		})
	}
}
