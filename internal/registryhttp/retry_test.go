package registryhttp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
)

// TestGetRetriesServerErrors checks OpenTofu's retry rule: a GET that got
// a server error is tried again, once by default and as many times as
// TF_REGISTRY_DISCOVERY_RETRY says.
func TestGetRetriesServerErrors(t *testing.T) {
	tests := []struct {
		name       string
		env        string
		failures   int32
		wantStatus int
		wantCalls  int32
	}{
		{"one failure is retried by default", "", 1, http.StatusOK, 2},
		{"two failures exceed the default", "", 2, http.StatusServiceUnavailable, 2},
		{"the environment allows more", "3", 3, http.StatusOK, 4},
		{"not a number keeps the default", "many", 1, http.StatusOK, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(retryEnv, tt.env)
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) <= tt.failures {
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				w.WriteHeader(http.StatusOK)
			}))
			defer srv.Close()
			u, _ := url.Parse(srv.URL)
			resp, err := New(Options{HTTPClient: srv.Client()}).Get(context.Background(), u, "")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus || calls.Load() != tt.wantCalls {
				t.Errorf("status %d after %d calls, want %d after %d", resp.StatusCode, calls.Load(), tt.wantStatus, tt.wantCalls)
			}
		})
	}
}
