package http

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/state/backend"
)

// client is the one state of the backend.
type client struct {
	b *Backend

	mu sync.Mutex
	// lock is the info this client locked with, sent again to unlock and
	// its ID on each update.
	lock *backend.LockInfo
}

func (c *client) Where() string { return c.b.where() }

// maxBody bounds answers read into memory other than the state itself.
const maxBody = 1 << 20

// do sends one request, retrying connection errors, 429 and 5xx answers
// (other than 501) with exponential waits. The body of a non-nil answer is
// the caller's to close.
func (c *client) do(ctx context.Context, method string, u *url.URL, body []byte) (*http.Response, error) {
	cfg := c.b.cfg
	wait := cfg.RetryWaitMin
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		if body == nil {
			req.Body, req.ContentLength = http.NoBody, 0
		}
		for k, v := range cfg.Headers {
			req.Header.Set(k, v)
		}
		if cfg.Username != "" {
			req.SetBasicAuth(cfg.Username, cfg.Password)
		}
		if len(body) > 0 {
			// OpenTofu sends the base64 MD5 of the body, which servers
			// such as GitLab check.
			sum := md5.Sum(body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Content-MD5", base64.StdEncoding.EncodeToString(sum[:]))
		}
		resp, err := c.b.client.Do(req)
		retry := err != nil || resp.StatusCode == http.StatusTooManyRequests ||
			(resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented)
		if !retry || attempt >= cfg.RetryMax || ctx.Err() != nil {
			return resp, err
		}
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, cfg.RetryWaitMax)
	}
}

// failure explains a request that got no usable answer.
func (c *client) failure(what string, u *url.URL, resp *http.Response, err error) hcl.Diagnostics {
	target := redactURL(u)
	if err != nil {
		if isCertError(err) {
			return backend.Errorf("Cannot verify the http backend's certificate",
				"%s at %s failed: %s. Give the server's CA in client_ca_certificate_pem, or set skip_cert_verification = true if you trust the network.", what, target, err)
		}
		return backend.Errorf("Cannot reach the http backend",
			"%s at %s failed after %d attempts: %s. Check the address, that the server is running and reachable, and retry.", what, target, c.b.cfg.RetryMax+1, err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		return backend.Errorf("The http backend requires credentials",
			"%s at %s was refused (401 Unauthorized). Set username and password (or TF_HTTP_USERNAME and TF_HTTP_PASSWORD), or check them.", what, target)
	case http.StatusForbidden:
		return backend.Errorf("The http backend refused the credentials",
			"%s at %s was refused (403 Forbidden): the credentials are wrong or lack permission. Check username and password (or TF_HTTP_USERNAME and TF_HTTP_PASSWORD) and the account's access.", what, target)
	}
	return backend.Errorf("Unexpected answer from the http backend",
		"%s at %s answered %s: %s. Check the server's logs; nothing was changed by tenet.", what, target, resp.Status, bytes.TrimSpace(body))
}

func (c *client) Get(ctx context.Context) ([]byte, hcl.Diagnostics) {
	resp, err := c.do(ctx, http.MethodGet, c.b.address, nil)
	if err != nil {
		return nil, c.failure("Reading the state", c.b.address, nil, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNoContent, http.StatusNotFound:
		return nil, nil
	default:
		return nil, c.failure("Reading the state", c.b.address, resp, nil)
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, backend.Errorf("Cannot read the state from the http backend", "Reading the answer from %s failed: %s. Try again.", c.Where(), err)
	}
	if err := checkMD5(resp.Header.Get("Content-MD5"), data); err != nil {
		return nil, backend.Errorf("State damaged in transfer", "The state from %s does not match its Content-MD5 header: %s. Try again; if it persists, the stored state or a proxy is at fault.", c.Where(), err)
	}
	return data, nil
}

// checkMD5 checks data against a Content-MD5 header value, when there is
// one.
func checkMD5(header string, data []byte) error {
	if header == "" {
		return nil
	}
	want, err := base64.StdEncoding.DecodeString(header)
	if err != nil || len(want) != md5.Size {
		return fmt.Errorf("the header %q is not a base64 MD5", header)
	}
	if got := md5.Sum(data); !bytes.Equal(got[:], want) {
		return fmt.Errorf("MD5 is %s, the header says %s", base64.StdEncoding.EncodeToString(got[:]), header)
	}
	return nil
}

func (c *client) Put(ctx context.Context, data []byte) hcl.Diagnostics {
	u := *c.b.address
	c.mu.Lock()
	if c.lock != nil {
		q := u.Query()
		q.Set("ID", c.lock.ID)
		u.RawQuery = q.Encode()
	}
	c.mu.Unlock()
	resp, err := c.do(ctx, c.b.cfg.UpdateMethod, &u, data)
	if err != nil {
		return c.failure("Writing the state", &u, nil, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK, http.StatusCreated, http.StatusNoContent:
		return nil
	case http.StatusConflict, http.StatusLocked:
		holder, _ := parseHolder(resp)
		return backend.LockConflict(c.Where(), holder, "the server refused the update")
	}
	return c.failure("Writing the state", &u, resp, nil)
}

func (c *client) Delete(ctx context.Context) hcl.Diagnostics {
	resp, err := c.do(ctx, http.MethodDelete, c.b.address, nil)
	if err != nil {
		return c.failure("Deleting the state", c.b.address, nil, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusNotFound {
		return c.failure("Deleting the state", c.b.address, resp, nil)
	}
	return nil
}

func (c *client) Lock(ctx context.Context, info *backend.LockInfo) hcl.Diagnostics {
	if c.b.lockURL == nil {
		return nil // no lock_address: the server offers no locking
	}
	info.Path = redactURL(c.b.address)
	resp, err := c.do(ctx, c.b.cfg.LockMethod, c.b.lockURL, backend.MarshalLockInfo(info))
	if err != nil {
		return c.failure("Locking the state", c.b.lockURL, nil, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		c.mu.Lock()
		saved := *info
		c.lock = &saved
		c.mu.Unlock()
		return nil
	case http.StatusConflict, http.StatusLocked:
		holder, perr := parseHolder(resp)
		reason := ""
		if perr != nil {
			reason = "the server's lock info cannot be read: " + perr.Error()
		}
		return backend.LockConflict(c.Where(), holder, reason)
	}
	return c.failure("Locking the state", c.b.lockURL, resp, nil)
}

// parseHolder reads the holder's lock info a server sends with 409/423.
func parseHolder(resp *http.Response) (*backend.LockInfo, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, err
	}
	return backend.ParseLockInfo(body)
}

func (c *client) Unlock(ctx context.Context, id string) hcl.Diagnostics {
	if c.b.unlockURL == nil {
		return nil
	}
	c.mu.Lock()
	info := backend.LockInfo{ID: id}
	if c.lock != nil && c.lock.ID == id {
		info = *c.lock
	}
	c.mu.Unlock()
	resp, err := c.do(ctx, c.b.cfg.UnlockMethod, c.b.unlockURL, backend.MarshalLockInfo(&info))
	if err != nil {
		return c.failure("Unlocking the state", c.b.unlockURL, nil, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK, http.StatusNoContent:
		c.mu.Lock()
		if c.lock != nil && c.lock.ID == id {
			c.lock = nil
		}
		c.mu.Unlock()
		return nil
	case http.StatusConflict, http.StatusLocked:
		holder, _ := parseHolder(resp)
		d := backend.Errorf("Error releasing the state lock",
			"The http backend at %s did not release lock %q: it is held by another operation.", c.Where(), id)
		if holder != nil {
			d[0].Detail += "\n\nLock Info:\n" + holder.String()
		}
		return d
	}
	return c.failure("Unlocking the state", c.b.unlockURL, resp, nil)
}
