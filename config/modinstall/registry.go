package modinstall

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
)

// maxJSON bounds registry answers, which are small: a misbehaving server
// must not exhaust memory.
const maxJSON = 4 << 20

// client sends every request of one installation: it adds bearer tokens
// for hosts that have one and caches service discovery answers.
type client struct {
	http   *http.Client
	token  func(host string) string
	forced map[string]map[string]string
	// mu is held through a discovery request, so calls that need the
	// same host at once ask it once.
	mu    sync.Mutex
	disco map[string]map[string]string
}

func newClient(o *Options) *client {
	hc := o.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	return &client{http: hc, token: o.Token, forced: o.HostServices, disco: map[string]map[string]string{}}
}

func (c *client) get(ctx context.Context, u *url.URL) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	// Tokens go only over https: a plain http URL would expose them.
	if c.token != nil && u.Scheme == "https" {
		if tok := c.token(u.Hostname()); tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		} else if tok := c.token(u.Host); tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot reach %s: %w", u.Host, err)
	}
	return resp, nil
}

// getJSON fetches u and decodes its JSON answer into v.
func (c *client) getJSON(ctx context.Context, u *url.URL, what string, v any) error {
	resp, err := c.get(ctx, u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s for %s", u.Host, resp.Status, u)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSON+1))
	if err != nil {
		return fmt.Errorf("reading %s from %s: %w", what, u.Host, err)
	}
	if len(body) > maxJSON {
		return fmt.Errorf("%s answered a %s larger than %d bytes", u.Host, what, maxJSON)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s answered a %s that is not valid: %v", u.Host, what, err)
	}
	return nil
}

// modulesService finds the module registry API of host by service
// discovery: a host block of the CLI configuration when the caller gave
// one, else https://HOST/.well-known/terraform.json.
func (c *client) modulesService(ctx context.Context, host string) (*url.URL, error) {
	disco := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	c.mu.Lock()
	defer c.mu.Unlock()
	services, ok := c.disco[host]
	if !ok {
		if f, ok := c.forced[host]; ok {
			services = f
		} else {
			var raw map[string]any
			if err := c.getJSON(ctx, disco, "service discovery document", &raw); err != nil {
				return nil, err
			}
			services = map[string]string{}
			for k, v := range raw {
				if s, ok := v.(string); ok {
					services[k] = s
				}
			}
		}
		c.disco[host] = services
	}
	raw, ok := services["modules.v1"]
	if !ok {
		return nil, fmt.Errorf("%s is not a module registry: its service discovery document offers no modules.v1 service", host)
	}
	u, err := disco.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("%s answered a service discovery document whose modules.v1 (%q) is not a URL", host, raw)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

func (c *client) moduleURL(ctx context.Context, s Source, suffix string) (*url.URL, error) {
	base, err := c.modulesService(ctx, s.Host)
	if err != nil {
		return nil, err
	}
	return base.Parse(url.PathEscape(s.Namespace) + "/" + url.PathEscape(s.Name) + "/" + url.PathEscape(s.System) + "/" + suffix)
}

// versionsAnswer is the registry's answer to GET …/versions.
type versionsAnswer struct {
	Modules []struct {
		Versions []struct {
			Version string `json:"version"`
		} `json:"versions"`
	} `json:"modules"`
}

// parseVersionsAnswer reads the versions list; any version that does
// not parse makes the whole answer nonsense.
func parseVersionsAnswer(b []byte) (versions.List, error) {
	var a versionsAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, err
	}
	if len(a.Modules) == 0 {
		return nil, fmt.Errorf("it lists no module")
	}
	var out versions.List
	for _, v := range a.Modules[0].Versions {
		pv, err := versions.ParseVersion(v.Version)
		if err != nil {
			return nil, fmt.Errorf("%q is not a version", v.Version)
		}
		out = append(out, pv)
	}
	return out, nil
}

// selectVersion asks the registry for the module's versions and picks
// the newest one the constraint allows.
func (c *client) selectVersion(ctx context.Context, s Source, constraint string) (versions.Version, error) {
	u, err := c.moduleURL(ctx, s, "versions")
	if err != nil {
		return versions.Unspecified, err
	}
	resp, err := c.get(ctx, u)
	if err != nil {
		return versions.Unspecified, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return versions.Unspecified, fmt.Errorf("the registry at %s has no module %s/%s/%s", s.Host, s.Namespace, s.Name, s.System)
	case resp.StatusCode != http.StatusOK:
		return versions.Unspecified, fmt.Errorf("%s answered %s for %s", u.Host, resp.Status, u)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSON+1))
	if err != nil {
		return versions.Unspecified, err
	}
	if len(body) > maxJSON {
		return versions.Unspecified, fmt.Errorf("%s answered a version list larger than %d bytes", u.Host, maxJSON)
	}
	list, err := parseVersionsAnswer(body)
	if err != nil {
		return versions.Unspecified, fmt.Errorf("the registry at %s answered a version list for %s that is not valid: %v", s.Host, s.PackageAddr(), err)
	}
	allowed := versions.Released
	if strings.TrimSpace(constraint) != "" {
		spec, err := constraints.ParseRubyStyleMulti(constraint)
		if err != nil {
			return versions.Unspecified, fmt.Errorf("invalid version constraint %q: %v", constraint, err)
		}
		allowed = versions.MeetingConstraints(spec)
	}
	v := list.NewestInSet(allowed)
	if v == versions.Unspecified {
		return v, fmt.Errorf("no version of %s matches the constraint %q; the registry has %s", s.PackageAddr(), constraint, describeVersions(list))
	}
	return v, nil
}

func describeVersions(l versions.List) string {
	if len(l) == 0 {
		return "no versions"
	}
	l = append(versions.List(nil), l...)
	l.Sort()
	var parts []string
	for i, v := range l {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(l)-10))
			break
		}
		parts = append(parts, v.String())
	}
	return strings.Join(parts, ", ")
}

// downloadLocation asks where version v of the module is, from the
// X-Terraform-Get header or the JSON "location" form. A relative
// location is resolved against the request's URL.
func (c *client) downloadLocation(ctx context.Context, s Source, v versions.Version) (Source, error) {
	u, err := c.moduleURL(ctx, s, url.PathEscape(v.String())+"/download")
	if err != nil {
		return Source{}, err
	}
	resp, err := c.get(ctx, u)
	if err != nil {
		return Source{}, err
	}
	defer resp.Body.Close()
	var loc string
	switch resp.StatusCode {
	case http.StatusNoContent, http.StatusOK:
		loc = resp.Header.Get("X-Terraform-Get")
		if loc == "" && resp.StatusCode == http.StatusOK {
			var a struct {
				Location string `json:"location"`
			}
			body, _ := io.ReadAll(io.LimitReader(resp.Body, maxJSON))
			if err := json.Unmarshal(body, &a); err != nil {
				return Source{}, fmt.Errorf("the registry at %s answered a download location for %s %s that is not valid: %v", s.Host, s.PackageAddr(), v, err)
			}
			loc = a.Location
		}
	case http.StatusNotFound:
		return Source{}, fmt.Errorf("the registry at %s has no version %s of %s", s.Host, v, s.PackageAddr())
	default:
		return Source{}, fmt.Errorf("%s answered %s for %s", u.Host, resp.Status, u)
	}
	if loc == "" {
		return Source{}, fmt.Errorf("the registry at %s gave no download location for %s %s", s.Host, s.PackageAddr(), v)
	}
	return resolveLocation(u, loc)
}

// resolveLocation parses a download location given by a server at base.
// Locations starting with "/", "./" or "../" are relative to base; the
// result must be something this package can fetch.
func resolveLocation(base *url.URL, loc string) (Source, error) {
	if strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "./") || strings.HasPrefix(loc, "../") {
		pkg, sub, err := splitSubdir(loc)
		if err != nil {
			return Source{}, err
		}
		r, err := base.Parse(pkg)
		if err != nil {
			return Source{}, fmt.Errorf("download location %q is not valid: %v", loc, err)
		}
		loc = r.String()
		if sub != "" {
			s, err := ParseSource(loc)
			if err != nil {
				return Source{}, err
			}
			s.Subdir = sub
			return s, nil
		}
	}
	s, err := ParseSource(loc)
	if err != nil {
		return Source{}, fmt.Errorf("download location %q: %v", loc, err)
	}
	if s.Kind == SourceLocal || s.Kind == SourceRegistry {
		return Source{}, fmt.Errorf("download location %q must be a git repository or an archive URL", loc)
	}
	return s, nil
}
