package http

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/state/backend"
)

// Config is the http backend's settings with OpenTofu's names, defaults
// and TF_HTTP_* environment variables.
type Config struct {
	Address       string
	UpdateMethod  string
	LockAddress   string
	LockMethod    string
	UnlockAddress string
	UnlockMethod  string
	Username      string
	Password      string
	Headers       map[string]string

	SkipCertVerification   bool
	ClientCACertificatePEM string
	ClientCertificatePEM   string
	ClientPrivateKeyPEM    string

	RetryMax     int
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
}

// ConfigFrom reads a Config from backend settings and the environment.
func ConfigFrom(s *backend.Settings) (Config, hcl.Diagnostics) {
	c := Config{
		Address:                s.String("address", "", "TF_HTTP_ADDRESS"),
		UpdateMethod:           s.String("update_method", "POST", "TF_HTTP_UPDATE_METHOD"),
		LockAddress:            s.String("lock_address", "", "TF_HTTP_LOCK_ADDRESS"),
		LockMethod:             s.String("lock_method", "LOCK", "TF_HTTP_LOCK_METHOD"),
		UnlockAddress:          s.String("unlock_address", "", "TF_HTTP_UNLOCK_ADDRESS"),
		UnlockMethod:           s.String("unlock_method", "UNLOCK", "TF_HTTP_UNLOCK_METHOD"),
		Username:               s.String("username", "", "TF_HTTP_USERNAME"),
		Password:               s.String("password", "", "TF_HTTP_PASSWORD"),
		Headers:                s.StringMap("headers"),
		SkipCertVerification:   s.Bool("skip_cert_verification", false),
		ClientCACertificatePEM: s.String("client_ca_certificate_pem", "", "TF_HTTP_CLIENT_CA_CERTIFICATE_PEM"),
		ClientCertificatePEM:   s.String("client_certificate_pem", "", "TF_HTTP_CLIENT_CERTIFICATE_PEM"),
		ClientPrivateKeyPEM:    s.String("client_private_key_pem", "", "TF_HTTP_CLIENT_PRIVATE_KEY_PEM"),
		RetryMax:               s.Int("retry_max", 2, "TF_HTTP_RETRY_MAX"),
		RetryWaitMin:           time.Duration(s.Int("retry_wait_min", 1, "TF_HTTP_RETRY_WAIT_MIN")) * time.Second,
		RetryWaitMax:           time.Duration(s.Int("retry_wait_max", 30, "TF_HTTP_RETRY_WAIT_MAX")) * time.Second,
	}
	return c, s.Check("http")
}

// Backend is a configured http backend.
type Backend struct {
	cfg                         Config
	address, lockURL, unlockURL *url.URL
	client                      *http.Client
}

var _ backend.Backend = (*Backend)(nil)

// headerName is compiled on first use, not at start-up of every command.
var headerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// New checks the settings and prepares the HTTP client; nothing is sent.
func New(_ context.Context, cfg Config) (*Backend, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	parse := func(name, raw string, required bool) *url.URL {
		if raw == "" {
			if required {
				diags = append(diags, backend.Errorf("Missing http backend address",
					"The http backend needs %s (or TF_HTTP_ADDRESS): the URL of the state.", name)...)
			}
			return nil
		}
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			diags = append(diags, backend.Errorf("Invalid http backend address",
				"%s must be an http:// or https:// URL, not %q.", name, raw)...)
			return nil
		}
		return u
	}
	b := &Backend{cfg: cfg}
	b.address = parse("address", cfg.Address, true)
	b.lockURL = parse("lock_address", cfg.LockAddress, false)
	b.unlockURL = parse("unlock_address", cfg.UnlockAddress, false)
	for name, v := range cfg.Headers {
		switch {
		case !headerName().MatchString(name) || strings.TrimSpace(v) == "":
			diags = append(diags, backend.Errorf("Invalid http backend header",
				"Header %q needs a name of letters, digits, '-' and '_' and a non-empty value.", name)...)
		case strings.EqualFold(name, "Content-Type") || strings.EqualFold(name, "Content-MD5"):
			diags = append(diags, backend.Errorf("Invalid http backend header", "Header %q is set by tenet itself; remove it from headers.", name)...)
		case strings.EqualFold(name, "Authorization") && cfg.Username != "":
			diags = append(diags, backend.Error("Invalid http backend header", "Set either username and password or an Authorization header, not both.")...)
		}
	}
	if cfg.RetryWaitMax < cfg.RetryWaitMin {
		diags = append(diags, backend.Error("Invalid http backend retry settings", "retry_wait_max must not be less than retry_wait_min.")...)
	}
	tlsCfg, d := tlsConfig(cfg)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, diags
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsCfg
	b.client = &http.Client{Transport: transport, Timeout: 5 * time.Minute}
	return b, diags
}

func tlsConfig(cfg Config) (*tls.Config, hcl.Diagnostics) {
	c := &tls.Config{InsecureSkipVerify: cfg.SkipCertVerification}
	if cfg.ClientCACertificatePEM != "" {
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM([]byte(cfg.ClientCACertificatePEM)) {
			return nil, backend.Error("Invalid http backend CA certificate", "client_ca_certificate_pem holds no PEM certificate.")
		}
	}
	switch {
	case cfg.ClientCertificatePEM != "" && cfg.ClientPrivateKeyPEM == "":
		return nil, backend.Error("Incomplete http backend client certificate", "client_certificate_pem is set but client_private_key_pem is not; set both or neither.")
	case cfg.ClientCertificatePEM == "" && cfg.ClientPrivateKeyPEM != "":
		return nil, backend.Error("Incomplete http backend client certificate", "client_private_key_pem is set but client_certificate_pem is not; set both or neither.")
	case cfg.ClientCertificatePEM != "":
		cert, err := tls.X509KeyPair([]byte(cfg.ClientCertificatePEM), []byte(cfg.ClientPrivateKeyPEM))
		if err != nil {
			return nil, backend.Errorf("Invalid http backend client certificate", "The client certificate and key cannot be loaded: %s.", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

func noWorkspaces() hcl.Diagnostics { return backend.WorkspacesUnsupported("http") }

// Workspaces is an error: there is only the default workspace.
func (b *Backend) Workspaces(context.Context) ([]string, hcl.Diagnostics) {
	return nil, noWorkspaces()
}

// CreateWorkspace is an error: there is only the default workspace.
func (b *Backend) CreateWorkspace(context.Context, string) hcl.Diagnostics { return noWorkspaces() }

// DeleteWorkspace is an error: there is only the default workspace.
func (b *Backend) DeleteWorkspace(context.Context, string, bool) hcl.Diagnostics {
	return noWorkspaces()
}

// Client returns the state at address; only "default" exists.
func (b *Backend) Client(_ context.Context, workspace string) (backend.Client, hcl.Diagnostics) {
	if workspace != backend.DefaultWorkspace {
		return nil, noWorkspaces()
	}
	return &client{b: b}, nil
}

// Close releases idle connections.
func (b *Backend) Close() error {
	b.client.CloseIdleConnections()
	return nil
}

func (b *Backend) where() string { return fmt.Sprintf("the http backend at %s", redactURL(b.address)) }

// redactURL hides a password written into a URL.
func redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.Redacted()
}
