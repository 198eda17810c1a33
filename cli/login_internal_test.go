package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// loginHost is a host offering login: service discovery, the OAuth
// authorization server of login.v1 (its token endpoint checks the PKCE
// verifier against the challenge the authorization URL carried) and the
// account endpoint of tfe.v2 that checks pasted tokens.
type loginHost struct {
	srv       *httptest.Server
	discovery string // the discovery document's body

	mu        sync.Mutex
	challenge string // from the last authorization URL followed
	redirect  string
	tokenForm url.Values
}

const (
	goodCode    = "code-from-host"
	oauthToken  = "token-from-oauth"
	pastedToken = "token-pasted"
)

func newLoginHost(t *testing.T) *loginHost {
	h := &loginHost{}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(h.discovery))
	})
	mux.HandleFunc("/oauth/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		h.mu.Lock()
		h.tokenForm = r.PostForm
		challenge, redirect := h.challenge, h.redirect
		h.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.PostForm.Get("grant_type") != "authorization_code" || r.PostForm.Get("client_id") != "tenet-cli" ||
			r.PostForm.Get("redirect_uri") != redirect || base64.RawURLEncoding.EncodeToString(sum[:]) != challenge:
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_request","error_description":"the request does not match the authorization"}`))
		case r.PostForm.Get("code") != goodCode:
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant","error_description":"unknown code"}`))
		default:
			w.Write([]byte(`{"access_token":"` + oauthToken + `","token_type":"bearer"}`))
		}
	})
	mux.HandleFunc("/api/v2/account/details", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+pastedToken {
			http.Error(w, `{"errors":[{"status":"401","title":"unauthorized"}]}`, http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"data":{"type":"users","attributes":{"username":"alice"}}}`))
	})
	h.srv = httptest.NewTLSServer(mux)
	t.Cleanup(h.srv.Close)
	return h
}

// browser plays the person's browser: it checks the authorization URL,
// and the host's redirect to the loopback listener brings code with the
// URL's state. With forged set, a redirect with another state (a page
// trying to slip its own code in) comes first, and must be turned away
// without ending the wait.
func (h *loginHost) browser(t *testing.T, code string, forged bool) func(string) error {
	return func(raw string) error {
		u, err := url.Parse(raw)
		if err != nil {
			t.Errorf("authorization URL %q: %v", raw, err)
			return err
		}
		q := u.Query()
		if u.Path != "/oauth/authz" || q.Get("client_id") != "tenet-cli" || q.Get("response_type") != "code" ||
			q.Get("code_challenge_method") != "S256" || q.Get("scope") != "app:read" {
			t.Errorf("authorization URL %s lacks what OAuth with PKCE needs", raw)
		}
		redirect, err := url.Parse(q.Get("redirect_uri"))
		if err != nil || redirect.Scheme != "http" || redirect.Hostname() != "localhost" {
			t.Errorf("redirect_uri %q is not a loopback URL", q.Get("redirect_uri"))
			return fmt.Errorf("bad redirect")
		}
		h.mu.Lock()
		h.challenge, h.redirect = q.Get("code_challenge"), q.Get("redirect_uri")
		h.mu.Unlock()
		back := *redirect
		back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
		go func() {
			// The listener is open before the browser is asked to open.
			if forged {
				bad := *redirect
				bad.RawQuery = url.Values{"code": {"forged"}, "state": {"guessed"}}.Encode()
				resp, err := http.Get(bad.String())
				if err != nil || resp.StatusCode != http.StatusBadRequest {
					t.Errorf("a redirect with the wrong state: %v %v, want 400", resp, err)
				}
				if err == nil {
					resp.Body.Close()
				}
			}
			resp, err := http.Get(back.String())
			if err != nil {
				t.Errorf("following the redirect: %v", err)
				return
			}
			resp.Body.Close()
		}()
		return nil
	}
}

const loginV1 = `{"login.v1":{"client":"tenet-cli","grant_types":["authz_code"],"authz":"/oauth/authz","token":"/oauth/token","ports":[30000,39999],"scopes":["app:read"]}}`

func TestLogin(t *testing.T) {
	noBrowser := func(string) error { return fmt.Errorf("no display") }
	tests := []struct {
		name      string
		discovery string
		host      string // "" means the test host
		stdin     string
		opener    func(h *loginHost, t *testing.T) func(string) error
		saved     string   // the token saved, "" for none
		stdout    []string // lines or fragments stdout must hold
		diag      string   // the error diagnostic's summary
	}{
		{
			name: "oauth", discovery: loginV1, stdin: "yes\n",
			opener: func(h *loginHost, t *testing.T) func(string) error { return h.browser(t, goodCode, false) },
			saved:  oauthToken,
			stdout: []string{"using OAuth in your web browser", "tenet opened a web browser", "Success! tenet has obtained and saved an API token"},
		},
		{
			// No browser (CI, a server): the URL is printed, and the
			// person opens it elsewhere; the redirect still reaches tenet.
			name: "oauth without a browser", discovery: loginV1, stdin: "yes\n",
			opener: func(h *loginHost, t *testing.T) func(string) error {
				follow := h.browser(t, goodCode, false)
				return func(u string) error { follow(u); return noBrowser(u) }
			},
			saved:  oauthToken,
			stdout: []string{"Open this URL in a web browser to reach the login page of", "/oauth/authz?client_id=tenet-cli&code_challenge="},
		},
		{
			name: "oauth ignores a forged redirect", discovery: loginV1, stdin: "yes\n",
			opener: func(h *loginHost, t *testing.T) func(string) error { return h.browser(t, goodCode, true) },
			saved:  oauthToken,
		},
		{
			name: "oauth code refused", discovery: loginV1, stdin: "yes\n",
			opener: func(h *loginHost, t *testing.T) func(string) error { return h.browser(t, "stolen", false) },
			diag:   "Token refused",
		},
		{
			name: "login declined", discovery: loginV1, stdin: "no\n",
			opener: func(h *loginHost, t *testing.T) func(string) error { return noBrowser },
			diag:   "Login cancelled",
		},
		{
			name: "only the password grant", discovery: `{"login.v1":{"client":"tenet-cli","grant_types":["password"],"authz":"/a","token":"/t"}}`,
			stdin: "yes\n", diag: "Unsupported login method",
		},
		{
			name: "bad login settings", discovery: `{"login.v1":{"client":"tenet-cli","authz":"/a"}}`,
			stdin: "yes\n", diag: "Invalid login settings from",
		},
		{
			name: "pasted token", discovery: `{"tfe.v2":"/api/v2/"}`, stdin: "yes\n" + pastedToken + "\n",
			saved:  pastedToken,
			stdout: []string{"/app/settings/tokens?source=terraform-login", "Token for ", "Success!"},
		},
		{
			name: "pasted token refused", discovery: `{"tfe.v2":"/api/v2/"}`, stdin: "yes\nnot-a-token\n",
			diag: "Token refused",
		},
		{
			name: "no token pasted", discovery: `{"tfe.v2":"/api/v2/"}`, stdin: "yes\n",
			diag: "No token given",
		},
		{name: "host without login", discovery: `{"modules.v1":"/m/"}`, stdin: "yes\n", diag: "Host does not support login"},
		{name: "unreachable host", host: closedPort(t), stdin: "yes\n", diag: "Service discovery failed for"},
		{name: "invalid hostname", host: "not a host", stdin: "yes\n", diag: "Invalid hostname"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newLoginHost(t)
			h.discovery = tt.discovery
			host := tt.host
			if host == "" {
				host = h.srv.Listener.Addr().String()
			}
			home := t.TempDir()
			d := loginDeps{http: h.srv.Client(), openBrowser: noBrowser}
			if tt.opener != nil {
				d.openBrowser = tt.opener(h, t)
			}
			stdout, stderr, err := runLogin(t, home, d, tt.stdin, host)
			if tt.diag != "" {
				if err == nil || !strings.Contains(stderr, "Error: "+tt.diag) {
					t.Errorf("want the error %q, got %v\nstderr:\n%s", tt.diag, err, stderr)
				}
			} else if err != nil {
				t.Fatalf("login: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
			}
			for _, want := range tt.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			path := filepath.Join(home, ".terraform.d", "credentials.tfrc.json")
			got := savedTokens(t, path)
			var want map[string]string
			if tt.saved != "" {
				want = map[string]string{host: tt.saved}
				if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("credentials file mode: %v %v, want 0600", fi.Mode(), err)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("saved tokens (-want +got):\n%s", diff)
			}
		})
	}
}

// A second login replaces the host's token and keeps the others; logout
// then removes it and keeps the others too.
func TestLoginReplacesAndLogoutRemoves(t *testing.T) {
	h := newLoginHost(t)
	h.discovery = `{"tfe.v2":"/api/v2/"}`
	host := h.srv.Listener.Addr().String()
	home := t.TempDir()
	path := filepath.Join(home, ".terraform.d", "credentials.tfrc.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"credentials":{"`+host+`":{"token":"old"},"other.example":{"token":"x"}}}`), 0o600)
	d := loginDeps{http: h.srv.Client(), openBrowser: func(string) error { return fmt.Errorf("no display") }}
	if _, stderr, err := runLogin(t, home, d, "yes\n"+pastedToken+"\n", host); err != nil {
		t.Fatalf("login: %v\n%s", err, stderr)
	}
	if diff := cmp.Diff(map[string]string{host: pastedToken, "other.example": "x"}, savedTokens(t, path)); diff != "" {
		t.Errorf("after login (-want +got):\n%s", diff)
	}
	g := &globals{deps: Deps{Env: []string{"HOME=" + home}}}
	cmd := newLogoutCommand(g)
	var out bytes.Buffer
	cmd.SetArgs([]string{host})
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("logout: %v\n%s", err, out.String())
	}
	if diff := cmp.Diff(map[string]string{"other.example": "x"}, savedTokens(t, path)); diff != "" {
		t.Errorf("after logout (-want +got):\n%s", diff)
	}
}

func runLogin(t *testing.T, home string, d loginDeps, stdin, host string) (string, string, error) {
	t.Helper()
	g := &globals{deps: Deps{Env: []string{"HOME=" + home}}}
	cmd := newLoginCommandWith(g, d)
	var stdout, stderr bytes.Buffer
	cmd.SetArgs([]string{host})
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := cmd.ExecuteContext(ctx)
	return stdout.String(), stderr.String(), err
}

func savedTokens(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Credentials map[string]struct{ Token string } `json:"credentials"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	out := map[string]string{}
	for h, c := range doc.Credentials {
		out[h] = c.Token
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
