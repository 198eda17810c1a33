package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/hashicorp/hcl/v2"
	svchost "github.com/hashicorp/terraform-svchost"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/internal/registryhttp"
)

// loginDeps is what login reaches outside the process with; tests give
// their own.
type loginDeps struct {
	// http sends every request; nil means registryhttp's default client.
	http *http.Client
	// openBrowser shows url to the person; an error means there is no
	// browser, and the URL is printed for them to open elsewhere.
	openBrowser func(url string) error
}

func newLoginCommand(g *globals) *cobra.Command {
	return newLoginCommandWith(g, loginDeps{openBrowser: openSystemBrowser})
}

func newLoginCommandWith(g *globals, d loginDeps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "login HOSTNAME",
		Short: "Obtain an API token for a host and save it for later commands",
		Long: "Asks HOSTNAME for an API token, through the OAuth login it offers in its service discovery\n" +
			"document (login.v1) or by a token you create on its tokens page and paste, and saves it in\n" +
			"~/.terraform.d/credentials.tfrc.json, where later commands (and OpenTofu) find it.",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, true, false)
			if err := oneHostname(cmd, g, args, "log in to"); err != nil {
				return err
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			l := &login{g: g, u: u, deps: d, in: bufio.NewReader(cmd.InOrStdin()), rawIn: cmd.InOrStdin()}
			if diags := l.run(ctx, args[0]); diags.HasErrors() {
				return u.fail(diags)
			}
			return nil
		},
	}
	return cmd
}

// login is one run of the login command.
type login struct {
	g    *globals
	u    *ui
	deps loginDeps
	// in is read for both the confirmation and a pasted token, through
	// one buffer so that neither swallows the other's line.
	in       *bufio.Reader
	rawIn    io.Reader // what in reads, whose echo hideInput turns off
	host     string    // display form
	credPath string
}

func (l *login) run(ctx context.Context, arg string) hcl.Diagnostics {
	host, diags := parseLoginHost(arg)
	if diags.HasErrors() {
		return diags
	}
	l.host = host
	l.credPath = credentialsPath(l.g.deps.Env)
	if diags := credentialsGuard(l.g, "login", host, l.credPath); diags.HasErrors() {
		return diags
	}
	client := registryhttp.New(registryhttp.Options{HTTPClient: l.deps.http})
	raw, base, err := client.ServiceJSON(ctx, host, "login.v1")
	var nse *registryhttp.NoServiceError
	switch {
	case err == nil:
		oc, diags := parseOAuthClient(host, raw, base)
		if diags.HasErrors() {
			return diags
		}
		return l.obtain(ctx, "using OAuth in your web browser", func() (string, hcl.Diagnostics) { return l.oauth(ctx, client, oc) })
	case errors.As(err, &nse):
		tokens, err := client.ServiceURL(ctx, host, "tfe.v2")
		if err != nil {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Host does not support login",
				Detail: fmt.Sprintf("%s offers neither an OAuth login (login.v1) nor a tokens page (tfe.v2) in its service discovery document, so tenet cannot obtain a token from it. Create a token by the host's own means and put it in a credentials block of the CLI configuration or a TF_TOKEN_ environment variable.",
					host),
			}}
		}
		return l.obtain(ctx, "by a token you create in your web browser and paste here", func() (string, hcl.Diagnostics) { return l.pasteToken(ctx, client, tokens) })
	default:
		return discoveryFailed(host, err)
	}
}

// obtain asks for the person's consent, gets the token by get and saves it.
func (l *login) obtain(ctx context.Context, how string, get func() (string, hcl.Diagnostics)) hcl.Diagnostics {
	if !l.confirm(ctx, how) {
		return loginCancelled()
	}
	token, diags := get()
	if diags.HasErrors() {
		return diags
	}
	return l.save(token)
}

// oneHostname refuses anything but one argument, in OpenTofu's words
// (what the host is for) and with its help text.
func oneHostname(cmd *cobra.Command, g *globals, args []string, what string) error {
	if len(args) == 1 {
		return nil
	}
	return wrongArgCount(cmd, g, !noColorFlag(cmd), fmt.Sprintf("The %s command expects exactly one argument: the host to %s.", cmd.Name(), what), false, helpInRed)
}

// parseLoginHost checks a hostname argument and gives its display form.
func parseLoginHost(arg string) (string, hcl.Diagnostics) {
	h, err := svchost.ForComparison(arg)
	if err != nil {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid hostname",
			Detail:   fmt.Sprintf("%q is not a valid hostname: %s. Give a hostname, optionally with a port, such as app.example.com or localhost:8443.", arg, err),
		}}
	}
	return h.ForDisplay(), nil
}

func discoveryFailed(host string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Service discovery failed for " + host,
		Detail:   fmt.Sprintf("Asking %s which services it offers failed: %s. Check the hostname and your network connection.", host, err),
	}}
}

func loginCancelled() hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Login cancelled", Detail: "Nothing was saved: only the answer \"yes\" goes on with the login."}}
}

// confirm tells what will happen and asks for "yes".
func (l *login) confirm(ctx context.Context, how string) bool {
	fmt.Fprintf(l.u.out, "tenet will ask %s for an API token %s.\n\n"+
		"If it succeeds, the token is saved in plain text in this file, for later commands:\n    %s\n\n"+
		"Do you want to proceed?\n  Only 'yes' will be accepted to confirm.\n\n  Enter a value: ",
		l.host, how, l.credPath)
	line, ok := l.readLine(ctx)
	fmt.Fprintln(l.u.out)
	return ok && strings.TrimSpace(line) == "yes"
}

// readLine reads one line of input; an interrupt or the end of input
// gives false.
func (l *login) readLine(ctx context.Context) (string, bool) {
	type answer struct {
		line string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		line, err := l.in.ReadString('\n')
		got <- answer{line, err}
	}()
	select {
	case a := <-got:
		if a.err != nil && a.line == "" {
			return "", false
		}
		return strings.TrimRight(a.line, "\r\n"), true
	case <-ctx.Done():
		return "", false
	}
}

// pasteToken has the person create a token on the host's tokens page and
// paste it, then checks it with the host before it is saved.
func (l *login) pasteToken(ctx context.Context, client *registryhttp.Client, api *url.URL) (string, hcl.Diagnostics) {
	page := &url.URL{Scheme: api.Scheme, Host: api.Host, Path: "/app/settings/tokens", RawQuery: "source=terraform-login"}
	l.showURL(fmt.Sprintf("the tokens page of %s", l.host), page.String())
	fmt.Fprintf(l.u.out, "Create a token there and paste it here. It will be saved in plain text in\n    %s\n\nToken for %s:\n  Enter a value: ", l.credPath, l.host)
	restore := hideInput(l.rawIn)
	token, ok := l.readLine(ctx)
	restore()
	fmt.Fprintln(l.u.out)
	token = strings.TrimSpace(token)
	if !ok || token == "" {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No token given", Detail: "Nothing was saved: the token was empty or the input ended before it."}}
	}
	// The token is checked against the host before it is saved, with a
	// client of its own so that no stored token is sent in its place.
	check := registryhttp.New(registryhttp.Options{HTTPClient: l.deps.http, Token: func(string) string { return token }})
	account, err := api.Parse("account/details")
	if err != nil {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid tokens API URL", Detail: err.Error()}}
	}
	resp, err := check.Get(ctx, account, l.host)
	if err != nil {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot check the token", Detail: fmt.Sprintf("%s. Nothing was saved; try again.", err)}}
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, registryhttp.MaxJSON))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Token refused", Detail: fmt.Sprintf("%s did not accept the token (%s). Nothing was saved; check that you copied the whole token.", l.host, resp.Status)}}
	case resp.StatusCode != http.StatusOK:
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot check the token", Detail: fmt.Sprintf("%s answered %s when asked about the token's account. Nothing was saved.", l.host, resp.Status)}}
	}
	return token, nil
}

// showURL opens url in a browser, or asks the person to when there is
// none (always the case on a server or in CI).
func (l *login) showURL(what, u string) {
	fmt.Fprintf(l.u.out, "\n%s\n\n", strings.Repeat("-", 81))
	if l.deps.openBrowser != nil && l.deps.openBrowser(u) == nil {
		fmt.Fprintf(l.u.out, "tenet opened a web browser at %s.\nIf none opened, open this URL yourself:\n    %s\n\n", what, u)
		return
	}
	fmt.Fprintf(l.u.out, "Open this URL in a web browser to reach %s:\n    %s\n\n", what, u)
}

// save stores token in credentials.tfrc.json.
func (l *login) save(token string) hcl.Diagnostics {
	f, err := readCredentialsFile(l.credPath)
	if err == nil {
		f.set(l.host, token)
		err = f.write()
	}
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot save the token", Detail: fmt.Sprintf("Writing %s failed: %s. The token obtained is not saved; fix the file and log in again.", l.credPath, err)}}
	}
	fmt.Fprintf(l.u.out, "\n%s\n\nSuccess! tenet has obtained and saved an API token for %s.\n\n"+
		"Later commands (and OpenTofu) use it for requests to %s.\n", strings.Repeat("-", 81), l.host, l.host)
	return nil
}

// decodeJSONAnswer reads a bounded JSON answer into v.
func decodeJSONAnswer(resp *http.Response, host, what string, v any) error {
	b, err := registryhttp.ReadBounded(resp.Body, host, what, registryhttp.MaxJSON)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &registryhttp.BadAnswerError{Host: host, What: what, Err: err}
	}
	return nil
}
