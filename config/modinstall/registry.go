package modinstall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/tenetplan/tenet/internal/registryhttp"
	"github.com/tenetplan/tenet/internal/versionparse"
)

// client asks module registries and downloads archives through the
// shared registry client (internal/registryhttp), which owns service
// discovery, tokens and the https-only rule for sending them.
type client struct {
	rc *registryhttp.Client
}

func newClient(o *Options) *client {
	return &client{rc: registryhttp.New(registryhttp.Options{HTTPClient: o.HTTPClient, Token: o.Token, HostServices: o.HostServices})}
}

// get fetches u with the token of u's own host (archives, redirects).
func (c *client) get(ctx context.Context, u *url.URL) (*http.Response, error) {
	return c.rc.Get(ctx, u, "")
}

// modulesService finds the module registry API of host by service
// discovery: a host block of the CLI configuration when the caller gave
// one, else https://HOST/.well-known/terraform.json.
func (c *client) modulesService(ctx context.Context, host string) (*url.URL, error) {
	u, err := c.rc.ServiceURL(ctx, host, "modules.v1")
	var ns *registryhttp.NoServiceError
	if errors.As(err, &ns) {
		return nil, fmt.Errorf("%s is not a module registry: its service discovery document offers no modules.v1 service", host)
	}
	return u, err
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
		pv, err := versionparse.Version(v.Version)
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
	body, err := c.rc.GetBytes(ctx, u, s.Host, "version list", registryhttp.MaxJSON)
	var se *registryhttp.StatusError
	if errors.As(err, &se) && se.Code == http.StatusNotFound {
		return versions.Unspecified, fmt.Errorf("the registry at %s has no module %s/%s/%s", s.Host, s.Namespace, s.Name, s.System)
	}
	if err != nil {
		return versions.Unspecified, err
	}
	list, err := parseVersionsAnswer(body)
	if err != nil {
		return versions.Unspecified, fmt.Errorf("the registry at %s answered a version list for %s that is not valid: %v", s.Host, s.PackageAddr(), err)
	}
	allowed := versions.Released
	if strings.TrimSpace(constraint) != "" {
		spec, err := versionparse.Constraints(constraint)
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
	resp, err := c.rc.Get(ctx, u, s.Host)
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
			body, _ := io.ReadAll(io.LimitReader(resp.Body, registryhttp.MaxJSON))
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
