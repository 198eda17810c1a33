package getproviders

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/tenetplan/tenet/internal/registryhttp"
)

// maxJSON bounds registry and mirror answers.
const maxJSON = registryhttp.MaxJSON

// client puts this package's error types on the shared registry client
// (internal/registryhttp), which owns service discovery, tokens and the
// https-only rule for sending them.
type client struct {
	rc *registryhttp.Client
}

func newClient(cfg *Config) *client {
	return &client{rc: registryhttp.New(registryhttp.Options{HTTPClient: cfg.HTTPClient, Token: cfg.Token, HostServices: cfg.HostServices})}
}

// wrapErr turns the shared client's errors into ErrUnreachable and
// ErrBadResponse for source.
func wrapErr(err error, source string) error {
	var bad *registryhttp.BadAnswerError
	if errors.As(err, &bad) {
		return ErrBadResponse{Source: source, What: fmt.Sprintf("%s (%s)", bad.What, bad.Err)}
	}
	// ErrUnreachable says "could not reach SOURCE" itself.
	var un *registryhttp.UnreachableError
	if errors.As(err, &un) {
		return ErrUnreachable{Source: source, Err: un.Err}
	}
	return ErrUnreachable{Source: source, Err: err}
}

// get fetches u; status is returned for the caller to interpret (404 means
// different things to different protocols). Transport failures are
// ErrUnreachable. The token sent is u's host's, and only over https.
func (c *client) get(ctx context.Context, u *url.URL, source string) (*http.Response, error) {
	resp, err := c.rc.Get(ctx, u, "")
	if err != nil {
		return nil, wrapErr(err, source)
	}
	return resp, nil
}

// getJSON fetches u and decodes a JSON answer into v. found is false for
// 404; other non-200 statuses are errors. credHost is the registry whose
// token goes with the request ("" for u's own host).
func (c *client) getJSON(ctx context.Context, u *url.URL, credHost, source, what string, v any) (found bool, err error) {
	found, err = c.rc.GetJSON(ctx, u, credHost, what, v)
	if err != nil {
		return false, wrapErr(err, source)
	}
	return found, nil
}

// serviceURL resolves a service of a host by service discovery: a host
// block of the CLI configuration, else https://HOST/.well-known/terraform.json.
func (c *client) serviceURL(ctx context.Context, host, service string) (*url.URL, error) {
	source := "the registry at " + host
	u, err := c.rc.ServiceURL(ctx, host, service)
	var ns *registryhttp.NoServiceError
	switch {
	case errors.As(err, &ns):
		return nil, ErrUnreachable{Source: source, Err: fmt.Errorf("%s does not offer the provider registry service (%s)", host, service)}
	case err != nil:
		return nil, wrapErr(err, source)
	}
	return u, nil
}
