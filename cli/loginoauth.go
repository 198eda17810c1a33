package cli

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/internal/registryhttp"
)

// oauthClient is a host's login.v1 service: the OAuth client tenet is to
// act as, and where its endpoints are.
type oauthClient struct {
	id         string
	authz      *url.URL
	token      *url.URL
	minPort    int
	maxPort    int
	scopes     []string
	grantTypes []string
}

// parseOAuthClient reads a login.v1 value; relative endpoints resolve
// against the discovery document's URL.
func parseOAuthClient(host string, raw json.RawMessage, base *url.URL) (*oauthClient, hcl.Diagnostics) {
	var doc struct {
		Client     string   `json:"client"`
		GrantTypes []string `json:"grant_types"`
		Authz      string   `json:"authz"`
		Token      string   `json:"token"`
		Ports      []int    `json:"ports"`
		Scopes     []string `json:"scopes"`
	}
	bad := func(why string) (*oauthClient, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid login settings from " + host,
			Detail:   fmt.Sprintf("The login.v1 service in the service discovery document of %s %s, so tenet cannot log in there. This is for the host's operators to fix.", host, why),
		}}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return bad(fmt.Sprintf("is not an object of OAuth client settings (%s)", err))
	}
	oc := &oauthClient{id: doc.Client, minPort: 1024, maxPort: 65535, scopes: doc.Scopes, grantTypes: doc.GrantTypes}
	if oc.id == "" {
		return bad("names no client")
	}
	if len(oc.grantTypes) == 0 {
		oc.grantTypes = []string{"authz_code"}
	}
	for _, ep := range []struct {
		name, raw string
		dst       **url.URL
	}{{"authz", doc.Authz, &oc.authz}, {"token", doc.Token, &oc.token}} {
		u, err := base.Parse(ep.raw)
		if ep.raw == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") {
			return bad(fmt.Sprintf("has no valid %s URL", ep.name))
		}
		*ep.dst = u
	}
	if len(doc.Ports) != 0 {
		if len(doc.Ports) != 2 || doc.Ports[0] < 1024 || doc.Ports[0] > doc.Ports[1] || doc.Ports[1] > 65535 {
			return bad(fmt.Sprintf("has ports %v, not a range [first, last] of ports from 1024 to 65535", doc.Ports))
		}
		oc.minPort, oc.maxPort = doc.Ports[0], doc.Ports[1]
	}
	if !slices.Contains(oc.grantTypes, "authz_code") {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported login method",
			Detail: fmt.Sprintf("%s offers login only by the OAuth grant types %s; tenet logs in with the authorization code grant (authz_code) only. Create a token by the host's own means and put it in a credentials block of the CLI configuration or a TF_TOKEN_ environment variable.",
				host, strings.Join(oc.grantTypes, ", ")),
		}}
	}
	return oc, nil
}

// oauth runs the authorization code grant with PKCE: a listener on a
// loopback port of the host's range receives the browser's redirect, and
// the code it brings is exchanged for the token.
func (l *login) oauth(ctx context.Context, client *registryhttp.Client, oc *oauthClient) (string, hcl.Diagnostics) {
	ln, err := listenLoopback(oc.minPort, oc.maxPort)
	if err != nil {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot wait for the login", Detail: fmt.Sprintf("No port from %d to %d (the range %s allows for the login redirect) could be opened on this computer: %s.", oc.minPort, oc.maxPort, l.host, err)}}
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://localhost:%d/login", ln.Addr().(*net.TCPAddr).Port)
	verifier, state := randomToken(32), randomToken(16)
	challenge := sha256.Sum256([]byte(verifier))
	q := url.Values{
		"client_id":             {oc.id},
		"code_challenge":        {base64.RawURLEncoding.EncodeToString(challenge[:])},
		"code_challenge_method": {"S256"},
		"redirect_uri":          {redirect},
		"response_type":         {"code"},
		"state":                 {state},
	}
	if len(oc.scopes) > 0 {
		q.Set("scope", strings.Join(oc.scopes, " "))
	}
	authz := *oc.authz
	authz.RawQuery = mergeQuery(authz.RawQuery, q)

	codes := make(chan callbackResult, 1)
	srv := &http.Server{Handler: callbackHandler(state, codes), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer func() {
		// Shut down rather than close, so the browser still gets the page
		// saying the login is complete.
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()

	l.showURL("the login page of "+l.host, authz.String())
	fmt.Fprintln(l.u.out, "tenet now waits for the host to report that the login succeeded.")
	var res callbackResult
	select {
	case res = <-codes:
	case <-ctx.Done():
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Login interrupted", Detail: "Nothing was saved."}}
	}
	if res.err != nil {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Login refused", Detail: fmt.Sprintf("%s. Nothing was saved.", res.err)}}
	}
	return l.exchangeCode(ctx, client, oc, res.code, verifier, redirect)
}

type callbackResult struct {
	code string
	err  error
}

// callbackHandler receives the browser's redirect: the first one with
// the right state ends the wait. Others (a stale tab, a forged request)
// are refused without ending it.
func callbackHandler(state string, out chan<- callbackResult) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("state") != state {
			http.Error(w, "This login request is not the one tenet is waiting for.", http.StatusBadRequest)
			return
		}
		res := callbackResult{code: q.Get("code")}
		switch {
		case q.Get("error") != "":
			res = callbackResult{err: fmt.Errorf("the host answered %s: %s", q.Get("error"), q.Get("error_description"))}
		case res.code == "":
			res = callbackResult{err: errors.New("the host's redirect brought no authorization code")}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		msg := "The login is complete. You may close this window and go back to tenet."
		if res.err != nil {
			msg = "The login failed: " + res.err.Error()
		}
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><title>tenet login</title></head><body><p>%s</p></body></html>\n", html.EscapeString(msg))
		select {
		case out <- res:
		default: // a second redirect after the first was taken
		}
	})
	return mux
}

// exchangeCode trades the authorization code for the token.
func (l *login) exchangeCode(ctx context.Context, client *registryhttp.Client, oc *oauthClient, code, verifier, redirect string) (string, hcl.Diagnostics) {
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"client_id":     {oc.id},
		"code_verifier": {verifier},
		"redirect_uri":  {redirect},
	}
	resp, err := client.PostForm(ctx, oc.token, form)
	if err != nil {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot obtain the token", Detail: fmt.Sprintf("%s. Nothing was saved; try again.", err)}}
	}
	defer resp.Body.Close()
	var answer struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	err = decodeJSONAnswer(resp, oc.token.Host, "token answer", &answer)
	if resp.StatusCode != http.StatusOK || answer.Error != "" {
		why := resp.Status
		if answer.Error != "" {
			why = strings.TrimSpace(answer.Error + ": " + answer.Description)
		}
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Token refused", Detail: fmt.Sprintf("%s would not give a token for the login (%s). Nothing was saved; log in again.", l.host, why)}}
	}
	if err != nil || answer.AccessToken == "" {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot obtain the token", Detail: fmt.Sprintf("%s answered without an access token (%v). Nothing was saved.", l.host, err)}}
	}
	return answer.AccessToken, nil
}

// listenLoopback opens a port of [minPort, maxPort] on the loopback
// interface, trying them from a random start so that two logins at once
// do not collide.
func listenLoopback(minPort, maxPort int) (net.Listener, error) {
	n := maxPort - minPort + 1
	start, _ := rand.Int(rand.Reader, big.NewInt(int64(n)))
	var last error
	for i := 0; i < n && i < 200; i++ {
		port := minPort + (int(start.Int64())+i)%n
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			return ln, nil
		}
		last = err
	}
	return nil, last
}

// randomToken is n random bytes, base64url without padding (PKCE's
// verifier alphabet).
func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// mergeQuery adds q to a URL's existing query, which the host may have
// put in its authz URL.
func mergeQuery(raw string, q url.Values) string {
	if old, err := url.ParseQuery(raw); err == nil {
		for k, v := range q {
			old[k] = v
		}
		return old.Encode()
	}
	return q.Encode()
}

// openSystemBrowser asks the desktop to open u. Without a display (a
// server, CI) there is no browser, and the caller prints the URL.
func openSystemBrowser(u string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no display")
		}
		cmd = exec.Command("xdg-open", u)
	}
	return cmd.Run()
}
