package http

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/state/backend"
	"github.com/tenetplan/tenet/state/backend/backendtest"
	"github.com/tenetplan/tenet/state/statetest"
)

// server is a GitLab-style state server: GET/update on /state, lock and
// unlock on /lock with the configured methods.
type server struct {
	lockMethod, unlockMethod, updateMethod string
	user, password                         string

	mu       sync.Mutex
	state    []byte
	lock     []byte // the holder's lock info JSON
	lockID   string
	failNext int // answer 503 to this many requests
	failPut  bool
	seen     []string // "METHOD path?query md5=..."
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	s.seen = append(s.seen, r.Method+" "+r.URL.RequestURI()+" md5="+r.Header.Get("Content-MD5"))
	if s.failNext > 0 {
		s.failNext--
		http.Error(w, "try later", http.StatusServiceUnavailable)
		return
	}
	if s.user != "" {
		u, p, ok := r.BasicAuth()
		if !ok {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		if u != s.user || p != s.password {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
	}
	if len(body) > 0 {
		sum := md5.Sum(body)
		if r.Header.Get("Content-MD5") != base64.StdEncoding.EncodeToString(sum[:]) {
			http.Error(w, "bad md5", http.StatusBadRequest)
			return
		}
	}
	switch {
	case r.URL.Path == "/state" && r.Method == http.MethodGet:
		if s.state == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Write(s.state)
	case r.URL.Path == "/state" && r.Method == s.updateMethod:
		if s.lock != nil && r.URL.Query().Get("ID") != s.lockID {
			w.WriteHeader(http.StatusConflict)
			w.Write(s.lock)
			return
		}
		if s.failPut {
			http.Error(w, "disk full", http.StatusInternalServerError)
			return
		}
		s.state = body
	case r.URL.Path == "/state" && r.Method == http.MethodDelete:
		s.state = nil
	case r.URL.Path == "/lock" && r.Method == s.lockMethod:
		if s.lock != nil {
			w.WriteHeader(http.StatusLocked)
			w.Write(s.lock)
			return
		}
		var info struct{ ID string }
		if json.Unmarshal(body, &info) != nil || info.ID == "" {
			http.Error(w, "bad lock info", http.StatusBadRequest)
			return
		}
		s.lock, s.lockID = body, info.ID
	case r.URL.Path == "/lock" && r.Method == s.unlockMethod:
		var info struct{ ID string }
		json.Unmarshal(body, &info)
		if s.lock != nil && info.ID != s.lockID {
			w.WriteHeader(http.StatusConflict)
			w.Write(s.lock)
			return
		}
		s.lock, s.lockID = nil, ""
	default:
		http.Error(w, "no such thing", http.StatusMethodNotAllowed)
	}
}

func start(t *testing.T, s *server) *httptest.Server {
	if s.lockMethod == "" {
		s.lockMethod, s.unlockMethod = "LOCK", "UNLOCK"
	}
	if s.updateMethod == "" {
		s.updateMethod = http.MethodPost
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func config(url string, s *server) Config {
	return Config{
		Address: url + "/state", UpdateMethod: s.updateMethod,
		LockAddress: url + "/lock", LockMethod: s.lockMethod,
		UnlockAddress: url + "/lock", UnlockMethod: s.unlockMethod,
		Username: s.user, Password: s.password,
		RetryMax: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: 10 * time.Millisecond,
	}
}

func newBackend(t *testing.T, cfg Config) *Backend { return backendtest.Configure(t, New, cfg) }

func TestSuite(t *testing.T) {
	s := &server{user: "ann", password: "pw"}
	ts := start(t, s)
	backendtest.Run(t, backendtest.Harness{
		New: func(t *testing.T) backend.Backend { return newBackend(t, config(ts.URL, s)) },
		RawGet: func(t *testing.T, _ string) []byte {
			s.mu.Lock()
			defer s.mu.Unlock()
			return bytes.Clone(s.state)
		},
		RawPut: func(t *testing.T, _ string, data []byte) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.state = bytes.Clone(data)
		},
		NoWorkspaces: true,
	})
}

// TestProtocol checks what goes over the wire for both lock method
// styles: methods, the Content-MD5 header, ?ID= while locked.
func TestProtocol(t *testing.T) {
	tests := []struct {
		name                 string
		lock, unlock, update string
	}{
		{"LOCK and UNLOCK", "LOCK", "UNLOCK", "POST"},
		{"POST and DELETE, PUT updates", "POST", "DELETE", "PUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s := &server{lockMethod: tt.lock, unlockMethod: tt.unlock, updateMethod: tt.update}
			ts := start(t, s)
			m, diags := backend.Open(ctx, newBackend(t, config(ts.URL, s)), backend.DefaultWorkspace, backend.Options{})
			backendtest.NoErrors(t, "open", diags)
			info := backend.NewLockInfo("OperationTypeApply")
			id, diags := m.Lock(ctx, info)
			backendtest.NoErrors(t, "lock", diags)
			backendtest.NoErrors(t, "write", m.Write(ctx, statetest.With(t, "a")))
			backendtest.NoErrors(t, "unlock", m.Unlock(ctx, id))

			s.mu.Lock()
			defer s.mu.Unlock()
			sum := md5.Sum(s.state)
			stateMD5 := base64.StdEncoding.EncodeToString(sum[:])
			var got []string
			for _, r := range s.seen {
				// Lock bodies carry a timestamp: keep only the
				// method and target for them.
				method, rest, _ := strings.Cut(r, " ")
				target, md5, _ := strings.Cut(rest, " ")
				if strings.HasPrefix(target, "/lock") {
					md5 = "md5=<lock info>"
				}
				got = append(got, method+" "+target+" "+md5)
			}
			want := []string{
				tt.lock + " /lock md5=<lock info>",
				"GET /state md5=",
				tt.update + " /state?ID=" + id + " md5=" + stateMD5,
				tt.unlock + " /lock md5=<lock info>",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiagnostics(t *testing.T) {
	ctx := context.Background()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	tlsServer := httptest.NewTLSServer(&server{lockMethod: "LOCK", unlockMethod: "UNLOCK", updateMethod: "POST"})
	defer tlsServer.Close()

	tests := []struct {
		name  string
		setup func(t *testing.T) (Config, *server)
		want  string
	}{
		{"no credentials", func(t *testing.T) (Config, *server) {
			s := &server{user: "ann", password: "pw"}
			cfg := config(start(t, s).URL, s)
			cfg.Username, cfg.Password = "", ""
			return cfg, s
		}, "requires credentials"},
		{"wrong password", func(t *testing.T) (Config, *server) {
			s := &server{user: "ann", password: "pw"}
			cfg := config(start(t, s).URL, s)
			cfg.Password = "nope"
			return cfg, s
		}, "refused the credentials"},
		{"unreachable", func(t *testing.T) (Config, *server) {
			return config(closedURL, &server{}), nil
		}, "Cannot reach the http backend"},
		{"server keeps failing", func(t *testing.T) (Config, *server) {
			s := &server{failNext: 100}
			return config(start(t, s).URL, s), s
		}, "503"},
		{"untrusted certificate", func(t *testing.T) (Config, *server) {
			return config(tlsServer.URL, &server{lockMethod: "LOCK", unlockMethod: "UNLOCK", updateMethod: "POST"}), nil
		}, "skip_cert_verification"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _ := tt.setup(t)
			m, diags := backend.Open(ctx, newBackend(t, cfg), backend.DefaultWorkspace, backend.Options{})
			backendtest.NoErrors(t, "open", diags)
			_, diags = m.Read(ctx)
			backendtest.WantError(t, "read", diags, tt.want)
			if strings.Contains(diags.Error(), "nope") {
				t.Errorf("message shows the password: %s", diags.Error())
			}
		})
	}

	t.Run("skip_cert_verification", func(t *testing.T) {
		s := &server{lockMethod: "LOCK", unlockMethod: "UNLOCK", updateMethod: "POST"}
		cfg := config(tlsServer.URL, s)
		cfg.SkipCertVerification = true
		m, diags := backend.Open(ctx, newBackend(t, cfg), backend.DefaultWorkspace, backend.Options{})
		backendtest.NoErrors(t, "open", diags)
		_, diags = m.Read(ctx)
		backendtest.NoErrors(t, "read", diags)
	})

	t.Run("failed write leaves the state", func(t *testing.T) {
		s := &server{}
		ts := start(t, s)
		m, diags := backend.Open(ctx, newBackend(t, config(ts.URL, s)), backend.DefaultWorkspace, backend.Options{})
		backendtest.NoErrors(t, "open", diags)
		backendtest.NoErrors(t, "write", m.Write(ctx, statetest.With(t, "a")))
		s.mu.Lock()
		before := bytes.Clone(s.state)
		s.failPut = true
		s.mu.Unlock()
		backendtest.WantError(t, "failing write", m.Write(ctx, statetest.With(t, "b")), "500")
		s.mu.Lock()
		defer s.mu.Unlock()
		if !bytes.Equal(before, s.state) {
			t.Error("stored state changed by a failed write")
		}
	})

	t.Run("update refused while someone else holds the lock", func(t *testing.T) {
		s := &server{}
		ts := start(t, s)
		other := backend.NewLockInfo("OperationTypeApply")
		s.lock, s.lockID = backend.MarshalLockInfo(&other), other.ID
		m, diags := backend.Open(ctx, newBackend(t, config(ts.URL, s)), backend.DefaultWorkspace, backend.Options{})
		backendtest.NoErrors(t, "open", diags)
		diags = m.Write(ctx, statetest.With(t, "b"))
		backendtest.WantError(t, "write", diags, other.ID)
	})

	t.Run("unreadable lock info in a conflict", func(t *testing.T) {
		s := &server{}
		ts := start(t, s)
		s.lock, s.lockID = []byte("<html>locked</html>"), "x"
		m, diags := backend.Open(ctx, newBackend(t, config(ts.URL, s)), backend.DefaultWorkspace, backend.Options{})
		backendtest.NoErrors(t, "open", diags)
		_, diags = m.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
		backendtest.WantError(t, "lock", diags, "lock info cannot be read")
	})
}

// TestLockTimeout: with a lock timeout, Lock waits for the holder to let
// go instead of failing at once.
func TestLockTimeout(t *testing.T) {
	ctx := context.Background()
	s := &server{}
	ts := start(t, s)
	other := backend.NewLockInfo("OperationTypeApply")
	s.lock, s.lockID = backend.MarshalLockInfo(&other), other.ID
	go func() {
		time.Sleep(300 * time.Millisecond)
		s.mu.Lock()
		s.lock, s.lockID = nil, ""
		s.mu.Unlock()
	}()
	m, diags := backend.Open(ctx, newBackend(t, config(ts.URL, s)), backend.DefaultWorkspace, backend.Options{LockTimeout: 10 * time.Second})
	backendtest.NoErrors(t, "open", diags)
	id, diags := m.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
	backendtest.NoErrors(t, "lock with a timeout", diags)
	if got := m.LockInfo(); got == nil || got.ID != id {
		t.Errorf("LockInfo = %+v, want ID %s", got, id)
	}
}

func TestRetry(t *testing.T) {
	s := &server{failNext: 2}
	ts := start(t, s)
	m, diags := backend.Open(context.Background(), newBackend(t, config(ts.URL, s)), backend.DefaultWorkspace, backend.Options{})
	backendtest.NoErrors(t, "open", diags)
	_, diags = m.Read(context.Background())
	backendtest.NoErrors(t, "read after two 503s with retry_max 2", diags)
}

func TestSettings(t *testing.T) {
	tests := []backendtest.SettingsCase[Config]{
		{
			Name: "environment and defaults",
			Env: map[string]string{"TF_HTTP_ADDRESS": "https://x/state", "TF_HTTP_LOCK_ADDRESS": "https://x/lock",
				"TF_HTTP_USERNAME": "ann", "TF_HTTP_PASSWORD": "pw", "TF_HTTP_RETRY_MAX": "5"},
			Want: Config{Address: "https://x/state", UpdateMethod: "POST", LockAddress: "https://x/lock", LockMethod: "LOCK",
				UnlockMethod: "UNLOCK", Username: "ann", Password: "pw", RetryMax: 5, RetryWaitMin: time.Second, RetryWaitMax: 30 * time.Second},
		},
		{
			Name: "settings",
			Vals: map[string]cty.Value{"address": cty.StringVal("http://a/s"), "lock_method": cty.StringVal("POST"),
				"unlock_method": cty.StringVal("DELETE"), "skip_cert_verification": cty.True, "retry_wait_min": cty.NumberIntVal(2),
				"headers": cty.ObjectVal(map[string]cty.Value{"X-Team": cty.StringVal("a")})},
			Env: map[string]string{"TF_HTTP_ADDRESS": "https://ignored"},
			Want: Config{Address: "http://a/s", UpdateMethod: "POST", LockMethod: "POST", UnlockMethod: "DELETE",
				SkipCertVerification: true, RetryMax: 2, RetryWaitMin: 2 * time.Second, RetryWaitMax: 30 * time.Second,
				Headers: map[string]string{"X-Team": "a"}},
		},
		{Name: "unknown argument", Vals: map[string]cty.Value{"adress": cty.StringVal("x")}, Err: `no argument named "adress"`},
		{Name: "bad retry in environment", Env: map[string]string{"TF_HTTP_RETRY_MAX": "many"}, Err: "TF_HTTP_RETRY_MAX"},
	}
	backendtest.CheckSettings(t, ConfigFrom, tests)

	invalid := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no address", Config{}, "needs address"},
		{"not http", Config{Address: "ftp://x/s"}, "http:// or https://"},
		{"reserved header", Config{Address: "http://x", Headers: map[string]string{"Content-MD5": "x"}}, "set by tenet"},
		{"half a client certificate", Config{Address: "http://x", ClientCertificatePEM: "x"}, "client_private_key_pem is not"},
	}
	for _, tt := range invalid {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := New(context.Background(), tt.cfg)
			backendtest.WantError(t, "new", diags, tt.want)
		})
	}
}

// FuzzAnswer feeds arbitrary server answers to the parsers of what a
// server sends: a lock conflict's body and a state's Content-MD5.
func FuzzAnswer(f *testing.F) {
	f.Add([]byte(`{"ID":"x","Who":"ann"}`), "")
	f.Add([]byte(`{"version":4}`), "1B2M2Y8AsgTpgAmY7PhCfg==")
	f.Add([]byte(`<html>`), "!!")
	f.Fuzz(func(t *testing.T, body []byte, md5Header string) {
		resp := &http.Response{Body: io.NopCloser(bytes.NewReader(body))}
		if info, err := parseHolder(resp); err == nil && info.ID == "" {
			t.Fatal("accepted lock info without an ID")
		}
		if err := checkMD5(md5Header, body); err == nil && md5Header != "" {
			sum := md5.Sum(body)
			if base64.StdEncoding.EncodeToString(sum[:]) != md5Header {
				t.Fatalf("accepted a wrong MD5 header %q", md5Header)
			}
		}
	})
}
