package getproviders

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/tenetplan/tenet/addrs"
)

// A token configured for a host must not be sent to it over plain http,
// where anyone on the way could read it; over https it is sent.
func TestTokensNeverOverPlainHTTP(t *testing.T) {
	for _, tc := range []struct {
		name string
		tls  bool
		want string
	}{
		{"https mirror gets the token", true, "Bearer s3cret"},
		{"plain http mirror does not", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = append(got, r.Header.Get("Authorization"))
				w.Write([]byte(`{"versions": {"1.0.0": {}}}`))
			})
			srv := httptest.NewServer(h)
			if tc.tls {
				srv.Close()
				srv = httptest.NewTLSServer(h)
			}
			defer srv.Close()
			host, _ := url.Parse(srv.URL)
			cfg := &Config{HTTPClient: srv.Client(), Token: func(h string) string {
				if h == host.Host {
					return "s3cret"
				}
				return ""
			}}
			m, err := NewNetworkMirror(srv.URL+"/", cfg)
			if err != nil {
				t.Fatal(err)
			}
			p := addrs.Provider{Hostname: "registry.opentofu.org", Namespace: "acme", Type: "widget"}
			vs, err := m.AvailableVersions(context.Background(), p)
			if err != nil || len(vs) != 1 {
				t.Fatalf("versions %v, %v", vs, err)
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("Authorization headers sent: %q, want [%q]", got, tc.want)
			}
		})
	}
}
