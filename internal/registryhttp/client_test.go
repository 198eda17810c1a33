package registryhttp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// server records each request's path and Authorization header.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func newServer(t *testing.T, tls bool, h http.HandlerFunc) *server {
	s := &server{}
	wrapped := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.URL.Path+" "+r.Header.Get("Authorization"))
		s.mu.Unlock()
		h(w, r)
	})
	if tls {
		s.Server = httptest.NewTLSServer(wrapped)
	} else {
		s.Server = httptest.NewServer(wrapped)
	}
	t.Cleanup(s.Close)
	return s
}

func tokens(m map[string]string) func(string) string {
	return func(h string) string { return m[h] }
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestTokensOnlyOverHTTPS(t *testing.T) {
	ok := func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) }
	secure := newServer(t, true, ok)
	plain := newServer(t, false, ok)
	sh, ph := mustURL(t, secure.URL).Host, mustURL(t, plain.URL).Host
	c := New(Options{HTTPClient: secure.Client(), Token: tokens(map[string]string{sh: "tls-token", ph: "plain-token", "registry.example": "reg-token"})})
	ctx := context.Background()
	for _, tc := range []struct {
		name, url, credHost string
		srv                 *server
		want                string
	}{
		{"https own host", secure.URL + "/a", "", secure, "/a Bearer tls-token"},
		{"https for a registry host", secure.URL + "/b", "registry.example", secure, "/b Bearer reg-token"},
		{"plain http never", plain.URL + "/c", "", plain, "/c "},
		{"plain http for a registry host never", plain.URL + "/d", "registry.example", plain, "/d "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if _, err := c.GetJSON(ctx, mustURL(t, tc.url), tc.credHost, "thing", &v); err != nil {
				t.Fatal(err)
			}
			got := tc.srv.seen[len(tc.srv.seen)-1]
			if got != tc.want {
				t.Errorf("request sent %q, want %q", got, tc.want)
			}
		})
	}
}

func TestServiceDiscovery(t *testing.T) {
	srv := newServer(t, true, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/terraform.json":
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Write([]byte(`{"modules.v1": "/api/modules", "providers.v1": "https://elsewhere.example/p/", "login.v1": {"client": "x"}}`))
		default:
			http.NotFound(w, r)
		}
	})
	host := mustURL(t, srv.URL).Host
	c := New(Options{HTTPClient: srv.Client(), Token: tokens(map[string]string{host: "t"})})
	ctx := context.Background()
	got, err := c.ServiceURL(ctx, host, "modules.v1")
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://" + host + "/api/modules/"; got.String() != want {
		t.Errorf("modules.v1 = %s, want %s", got, want)
	}
	got, err = c.ServiceURL(ctx, strings.ToUpper(host), "providers.v1")
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://elsewhere.example/p/"; got.String() != want {
		t.Errorf("providers.v1 = %s, want %s", got, want)
	}
	if diff := cmp.Diff([]string{"/.well-known/terraform.json Bearer t"}, srv.seen); diff != "" {
		t.Errorf("the host was not asked exactly once, with its token (-want +got):\n%s", diff)
	}
	_, err = c.ServiceURL(ctx, host, "nothing.v1")
	var ns *NoServiceError
	if !errors.As(err, &ns) {
		t.Errorf("missing service: got %v", err)
	}
}

func TestHostBlocksReplaceDiscovery(t *testing.T) {
	srv := newServer(t, true, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	c := New(Options{HTTPClient: srv.Client(), HostServices: map[string]map[string]string{
		"Registry.Example:443": {"modules.v1": srv.URL + "/m"},
	}})
	got, err := c.ServiceURL(context.Background(), "registry.example", "modules.v1")
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != srv.URL+"/m/" {
		t.Errorf("got %s", got)
	}
	if len(srv.seen) != 0 {
		t.Errorf("the network was asked: %v", srv.seen)
	}
}

func TestBadAnswers(t *testing.T) {
	srv := newServer(t, true, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Write([]byte(`"` + strings.Repeat("x", MaxJSON) + `"`))
		case "/nonsense":
			w.Write([]byte(`<html>`))
		case "/broken":
			http.Error(w, "no", http.StatusInternalServerError)
		case "/.well-known/terraform.json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"modules.v1": "ftp://x/"}`))
		default:
			http.NotFound(w, r)
		}
	})
	c := New(Options{HTTPClient: srv.Client()})
	ctx := context.Background()
	var v any
	var bad *BadAnswerError
	var st *StatusError
	for _, tc := range []struct {
		path  string
		check func(error) bool
	}{
		{"/big", func(err error) bool { return errors.As(err, &bad) }},
		{"/nonsense", func(err error) bool { return errors.As(err, &bad) }},
		{"/broken", func(err error) bool { return errors.As(err, &st) && st.Code == 500 }},
	} {
		t.Run(tc.path, func(t *testing.T) {
			_, err := c.GetJSON(ctx, mustURL(t, srv.URL+tc.path), "", "thing", &v)
			if !tc.check(err) {
				t.Errorf("got %v", err)
			}
		})
	}
	found, err := c.GetJSON(ctx, mustURL(t, srv.URL+"/missing"), "", "thing", &v)
	if found || err != nil {
		t.Errorf("404: found=%v err=%v, want not found and no error", found, err)
	}
	if _, err := c.ServiceURL(ctx, mustURL(t, srv.URL).Host, "modules.v1"); !errors.As(err, &bad) {
		t.Errorf("a service that is not an http(s) URL: got %v", err)
	}
	c2 := New(Options{HTTPClient: srv.Client()})
	var un *UnreachableError
	if _, err := c2.Get(ctx, mustURL(t, "https://127.0.0.1:1/x"), ""); !errors.As(err, &un) {
		t.Errorf("unreachable: got %v", err)
	}
}

func TestNormalizeHost(t *testing.T) {
	for in, want := range map[string]string{
		"Example.COM":      "example.com",
		"example.com:443":  "example.com",
		"bücher.example":   "xn--bcher-kva.example",
		"example.com:8443": "example.com:8443",
	} {
		if got := NormalizeHost(in); got != want {
			t.Errorf("NormalizeHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiscoveryWantsJSONContentType(t *testing.T) {
	srv := newServer(t, true, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(`{"modules.v1": "/m/"}`))
	})
	c := New(Options{HTTPClient: srv.Client()})
	_, err := c.ServiceURL(context.Background(), mustURL(t, srv.URL).Host, "modules.v1")
	var bad *BadAnswerError
	if !errors.As(err, &bad) || !strings.Contains(err.Error(), "text/plain") {
		t.Errorf("got %v, want a refusal naming the Content-Type", err)
	}
}

// ServiceJSON gives a service's value as written, objects included (the
// OAuth client settings of login.v1), and PostForm sends a form without
// the host's token.
func TestServiceJSONAndPostForm(t *testing.T) {
	var form, auth string
	srv := newServer(t, true, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/terraform.json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"login.v1":{"client":"cli","ports":[1,2]},"modules.v1":"/m/"}`))
		case "/token":
			r.ParseForm()
			form, auth = r.PostForm.Encode(), r.Header.Get("Authorization")
			w.Write([]byte(`{}`))
		}
	})
	host := mustURL(t, srv.URL).Host
	c := New(Options{HTTPClient: srv.Client(), Token: tokens(map[string]string{host: "secret"})})
	ctx := context.Background()
	raw, base, err := c.ServiceJSON(ctx, host, "login.v1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"client":"cli","ports":[1,2]}`, string(raw)); diff != "" {
		t.Errorf("login.v1 (-want +got):\n%s", diff)
	}
	if base.String() != "https://"+host+"/.well-known/terraform.json" {
		t.Errorf("base URL %s", base)
	}
	if u, err := c.ServiceURL(ctx, host, "modules.v1"); err != nil || u.Path != "/m/" {
		t.Errorf("modules.v1 = %v, %v", u, err)
	}
	var nse *NoServiceError
	if _, _, err := c.ServiceJSON(ctx, host, "tokens.v2"); !errors.As(err, &nse) {
		t.Errorf("missing service: %v", err)
	}
	resp, err := c.PostForm(ctx, mustURL(t, srv.URL+"/token"), url.Values{"code": {"x y"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if form != "code=x+y" || auth != "" {
		t.Errorf("token request: form %q, Authorization %q", form, auth)
	}
}
