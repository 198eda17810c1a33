package getproviders

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// maxJSON bounds registry and mirror answers: they are small, and a
// misbehaving server must not exhaust memory.
const maxJSON = 4 << 20

// client wraps the HTTP client with the token lookup and the discovery
// cache shared by every registry and mirror source of one installer.
type client struct {
	http     *http.Client
	token    func(host string) string
	forced   map[string]map[string]string
	mu       sync.Mutex
	services map[string]map[string]string
}

func newClient(cfg *Config) *client {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	return &client{http: hc, token: cfg.Token, forced: cfg.HostServices, services: map[string]map[string]string{}}
}

// get fetches u; status is returned for the caller to interpret (404 means
// different things to different protocols). Transport failures are
// ErrUnreachable.
func (c *client) get(ctx context.Context, u *url.URL, source string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, ErrUnreachable{Source: source, Err: err}
	}
	if c.token != nil {
		if tok := c.token(u.Host); tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, ErrUnreachable{Source: source, Err: err}
	}
	return resp, nil
}

// getJSON fetches u and decodes a JSON answer into v. found is false for
// 404; other non-200 statuses are errors.
func (c *client) getJSON(ctx context.Context, u *url.URL, source, what string, v any) (found bool, err error) {
	resp, err := c.get(ctx, u, source)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return false, nil
	case resp.StatusCode != http.StatusOK:
		return false, ErrUnreachable{Source: source, Err: fmt.Errorf("%s answered %s for %s", u.Host, resp.Status, u)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSON+1))
	if err != nil {
		return false, ErrUnreachable{Source: source, Err: err}
	}
	if len(body) > maxJSON {
		return false, ErrBadResponse{Source: source, What: what + " (too large)"}
	}
	if err := json.Unmarshal(body, v); err != nil {
		return false, ErrBadResponse{Source: source, What: fmt.Sprintf("%s (%s)", what, err)}
	}
	return true, nil
}

// serviceURL resolves a service of a host by service discovery: a host
// block of the CLI configuration, else https://HOST/.well-known/terraform.json.
// The answer is relative to the discovery document.
func (c *client) serviceURL(ctx context.Context, host, service string) (*url.URL, error) {
	source := "the registry at " + host
	c.mu.Lock()
	services, ok := c.services[host]
	c.mu.Unlock()
	disco := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	if !ok {
		if forced, ok := c.forced[host]; ok {
			services = forced
		} else {
			var raw map[string]any
			found, err := c.getJSON(ctx, disco, source, "service discovery document", &raw)
			if err != nil {
				return nil, err
			}
			if !found {
				return nil, ErrUnreachable{Source: source, Err: fmt.Errorf("%s has no service discovery document (%s)", host, disco)}
			}
			services = map[string]string{}
			for k, v := range raw {
				if s, ok := v.(string); ok {
					services[k] = s
				}
			}
		}
		c.mu.Lock()
		c.services[host] = services
		c.mu.Unlock()
	}
	raw, ok := services[service]
	if !ok {
		return nil, ErrUnreachable{Source: source, Err: fmt.Errorf("%s does not offer the provider registry service (%s)", host, service)}
	}
	u, err := disco.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, ErrBadResponse{Source: source, What: fmt.Sprintf("service discovery document (%s is %q)", service, raw)}
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}
