package registryhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	svchost "github.com/hashicorp/terraform-svchost"
)

// MaxJSON bounds registry and mirror answers: they are small, and a
// misbehaving server must not exhaust memory.
const MaxJSON = 4 << 20

// Options are a Client's settings, from the CLI configuration.
type Options struct {
	// HTTPClient sends every request; nil means Go's default transport
	// (proxies from the environment, system roots) with a 60-second
	// bound on waiting for an answer's headers. Package tests pass the client of
	// an httptest TLS server; the CLI's tests trust theirs through
	// SSL_CERT_FILE instead, as a user with a private CA would.
	HTTPClient *http.Client
	// Token returns the bearer token for a hostname, or "". It is given
	// the display form (unicode, not punycode), which
	// cliconfig.Config.Token expects.
	Token func(host string) string
	// HostServices are service discovery answers from host blocks of the
	// CLI configuration (service ID to URL), used instead of asking the
	// host. Keys may be written in any form ForComparison accepts.
	HostServices map[string]map[string]string
}

// Client sends the requests of one installation. It caches service
// discovery answers, so each host is asked once.
type Client struct {
	retries int // further tries of a GET that failed (TF_REGISTRY_DISCOVERY_RETRY)
	http    *http.Client
	token   func(host string) string
	forced  map[string]map[string]string

	// mu is held through a discovery request, so calls that need the
	// same host at once ask it once.
	mu       sync.Mutex
	services map[string]discovered
}

// discovered is one host's service discovery answer: the services whose
// value is a URL, and every service's value as written (login.v1's is an
// object of OAuth client settings).
type discovered struct {
	urls map[string]string
	raw  map[string]json.RawMessage
}

// New returns a Client for o.
func New(o Options) *Client {
	hc := o.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	forced := map[string]map[string]string{}
	for h, s := range o.HostServices {
		forced[NormalizeHost(h)] = s
	}
	return &Client{http: hc, token: o.Token, forced: forced, services: map[string]discovered{}, retries: retriesFromEnv()}
}

// OpenTofu's settings for its registry client, read from the environment
// as it reads them: TF_REGISTRY_CLIENT_TIMEOUT (seconds to wait for a
// registry's answer) and TF_REGISTRY_DISCOVERY_RETRY (how many times a GET
// that got no answer or a server error is tried again). A value that is
// not a positive whole number leaves the default.
const (
	timeoutEnv     = "TF_REGISTRY_CLIENT_TIMEOUT"
	retryEnv       = "TF_REGISTRY_DISCOVERY_RETRY"
	defaultTimeout = 60 * time.Second
	defaultRetries = 1
)

func positiveEnv(name string) (int, bool) {
	n, err := strconv.Atoi(os.Getenv(name))
	return n, err == nil && n > 0
}

func retriesFromEnv() int {
	if n, ok := positiveEnv(retryEnv); ok {
		return n
	}
	return defaultRetries
}

// defaultHTTPClient bounds the wait for a server to answer, not the
// whole request: a module archive or provider package may take longer
// than any fixed time to download over a slow link, and the caller's
// context cancels it.
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = defaultTimeout
	if n, ok := positiveEnv(timeoutEnv); ok {
		t.ResponseHeaderTimeout = time.Duration(n) * time.Second
	}
	return &http.Client{Transport: t}
}

// NormalizeHost is a hostname (with an optional port) in the form that
// compares equal however it was written; a name that is not a valid
// hostname is only lower-cased.
func NormalizeHost(h string) string {
	if n, err := svchost.ForComparison(h); err == nil {
		return string(n)
	}
	return strings.ToLower(h)
}

// UnreachableError is a request that got no HTTP answer.
type UnreachableError struct {
	Host string
	Err  error
}

func (e *UnreachableError) Error() string { return fmt.Sprintf("cannot reach %s: %s", e.Host, e.Err) }
func (e *UnreachableError) Unwrap() error { return e.Err }

// StatusError is an answer with a status the protocol did not expect.
type StatusError struct {
	URL    *url.URL
	Status string
	Code   int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s answered %s for %s", e.URL.Host, e.Status, e.URL.Redacted())
}

// BadAnswerError is an answer that is too large or not the JSON asked for.
type BadAnswerError struct {
	Host string
	What string // what was asked for, such as "versions list"
	Err  error
}

func (e *BadAnswerError) Error() string {
	return fmt.Sprintf("%s answered a %s that is not valid: %s", e.Host, e.What, e.Err)
}
func (e *BadAnswerError) Unwrap() error { return e.Err }

// NoServiceError says a host's discovery answer lacks a service.
type NoServiceError struct {
	Host, Service string
}

func (e *NoServiceError) Error() string {
	return fmt.Sprintf("%s does not offer the %s service in its service discovery document", e.Host, e.Service)
}

// Get sends GET u. The token sent is credHost's (the registry a protocol
// request belongs to, which may be served from another host) or, when
// credHost is "", that of u's own host; it is sent only when u is https.
// Any status is returned for the caller to interpret; a transport
// failure is an *UnreachableError.
func (c *Client) Get(ctx context.Context, u *url.URL, credHost string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &UnreachableError{Host: u.Host, Err: err}
	}
	if tok := c.tokenFor(u, credHost); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for try := 0; ; try++ {
		resp, err := c.http.Do(req)
		retry := try < c.retries && ctx.Err() == nil && (err != nil || resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests)
		if !retry {
			if err != nil {
				return nil, &UnreachableError{Host: u.Host, Err: err}
			}
			return resp, nil
		}
		if resp != nil {
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
		case <-time.After(retryPause(try)):
		}
	}
}

// retryPause is the wait before trying a request again: short, and
// longer each time.
func retryPause(try int) time.Duration { return time.Duration(try+1) * 500 * time.Millisecond }

// tokenFor applies the policy: tokens go only over https, where nobody
// on the way can read them.
func (c *Client) tokenFor(u *url.URL, credHost string) string {
	if c.token == nil || u.Scheme != "https" {
		return ""
	}
	if credHost == "" {
		credHost = u.Host
	}
	n, err := svchost.ForComparison(credHost)
	if err != nil {
		return ""
	}
	return c.token(n.ForDisplay())
}

// GetBytes fetches u and returns its body, at most limit bytes, when the
// answer is 200 OK; any other status is a *StatusError.
func (c *Client) GetBytes(ctx context.Context, u *url.URL, credHost, what string, limit int64) ([]byte, error) {
	resp, err := c.Get(ctx, u, credHost)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{URL: u, Status: resp.Status, Code: resp.StatusCode}
	}
	return ReadBounded(resp.Body, u.Host, what, limit)
}

// ReadBounded reads a body of at most limit bytes; a longer one is a
// *BadAnswerError.
func ReadBounded(r io.Reader, host, what string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, &UnreachableError{Host: host, Err: err}
	}
	if int64(len(b)) > limit {
		return nil, &BadAnswerError{Host: host, What: what, Err: fmt.Errorf("larger than %d bytes", limit)}
	}
	return b, nil
}

// GetJSON fetches u and decodes its 200 answer into v. found is false
// for 404, which means different things to different protocols; other
// statuses are a *StatusError.
func (c *Client) GetJSON(ctx context.Context, u *url.URL, credHost, what string, v any) (found bool, err error) {
	b, err := c.GetBytes(ctx, u, credHost, what, MaxJSON)
	var se *StatusError
	if errors.As(err, &se) && se.Code == http.StatusNotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, &BadAnswerError{Host: u.Host, What: what, Err: err}
	}
	return true, nil
}

// ServiceURL finds service (such as "modules.v1" or "providers.v1") of
// host by service discovery: the host block of the CLI configuration when
// there is one, else https://HOST/.well-known/terraform.json. A relative
// answer is relative to the discovery document. The URL ends with "/".
func (c *Client) ServiceURL(ctx context.Context, host, service string) (*url.URL, error) {
	host = NormalizeHost(host)
	disco := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	services, err := c.discover(ctx, host, disco)
	if err != nil {
		return nil, err
	}
	raw, ok := services.urls[service]
	if !ok {
		return nil, &NoServiceError{Host: host, Service: service}
	}
	u, err := disco.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, &BadAnswerError{Host: host, What: "service discovery document", Err: fmt.Errorf("its %s (%q) is not a URL", service, raw)}
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

// ServiceJSON is service's value in host's discovery answer as written,
// for services whose value is not a URL (login.v1), with the URL the
// answer came from, against which relative URLs in it resolve.
func (c *Client) ServiceJSON(ctx context.Context, host, service string) (json.RawMessage, *url.URL, error) {
	host = NormalizeHost(host)
	disco := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	services, err := c.discover(ctx, host, disco)
	if err != nil {
		return nil, nil, err
	}
	raw, ok := services.raw[service]
	if !ok {
		return nil, nil, &NoServiceError{Host: host, Service: service}
	}
	return raw, disco, nil
}

// PostForm sends form to u (an OAuth token endpoint). It never carries
// a bearer token: the form is the request's credential.
func (c *Client) PostForm(ctx context.Context, u *url.URL, form url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, &UnreachableError{Host: u.Host, Err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &UnreachableError{Host: u.Host, Err: err}
	}
	return resp, nil
}

func (c *Client) discover(ctx context.Context, host string, disco *url.URL) (discovered, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.services[host]; ok {
		return s, nil
	}
	if s, ok := c.forced[host]; ok {
		d := discovered{urls: s, raw: make(map[string]json.RawMessage, len(s))}
		for k, v := range s {
			d.raw[k], _ = json.Marshal(v)
		}
		c.services[host] = d
		return d, nil
	}
	const what = "service discovery document"
	resp, err := c.Get(ctx, disco, host)
	if err != nil {
		return discovered{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return discovered{}, &StatusError{URL: disco, Status: resp.Status, Code: resp.StatusCode}
	}
	// OpenTofu refuses a discovery answer that does not say it is JSON.
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return discovered{}, &BadAnswerError{Host: host, What: what, Err: fmt.Errorf("its Content-Type is %q, not application/json", resp.Header.Get("Content-Type"))}
	}
	b, err := ReadBounded(resp.Body, host, what, MaxJSON)
	if err != nil {
		return discovered{}, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return discovered{}, &BadAnswerError{Host: host, What: what, Err: err}
	}
	d := discovered{urls: map[string]string{}, raw: raw}
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			d.urls[k] = s
		}
	}
	c.services[host] = d
	return d, nil
}
