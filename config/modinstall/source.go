package modinstall

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// SourceKind says how a module package is obtained.
type SourceKind int

const (
	// SourceLocal is a path relative to the calling module ("./x", "../x").
	SourceLocal SourceKind = iota
	// SourceRegistry is a module registry address; it needs a version.
	SourceRegistry
	// SourceGit is a git repository fetched with the git CLI.
	SourceGit
	// SourceHTTP is an https URL: an archive, or a page whose answer
	// names the real location in an X-Terraform-Get header.
	SourceHTTP
)

// DefaultRegistryHost is the host of a registry address written with
// three parts.
const DefaultRegistryHost = "registry.opentofu.org"

// Source is a parsed module source address.
type Source struct {
	Kind SourceKind
	// Path is the local path, for SourceLocal.
	Path string
	// Host, Namespace, Name and System make up a registry address.
	Host, Namespace, Name, System string
	// URL is the repository or archive location for SourceGit and
	// SourceHTTP, without the ref, depth and archive arguments. A git URL
	// may be in the scp-like form user@host:path.
	URL string
	// Ref is the git tag, branch or commit to check out ("" = default).
	Ref string
	// Depth asks for a shallow git clone when > 0.
	Depth int
	// SSHKey is the git sshkey argument: a base64-encoded private key
	// that ssh is told to use for this clone only.
	SSHKey string
	// Query is a git source's arguments as written (ref, depth, sshkey),
	// kept so the recorded address reads as OpenTofu records it; when
	// empty, the address is written from Ref and Depth.
	Query string
	// Archive is the archive format of an HTTP source ("zip", "tar.gz",
	// "tar.bz2", "tar"), "" when the URL is expected to redirect through
	// X-Terraform-Get.
	Archive string
	// Subdir is the directory inside the package holding the module.
	Subdir string
}

// ErrUnsupported is returned for source forms OpenTofu accepts that
// tenet does not install.
type ErrUnsupported struct{ Getter string }

func (e ErrUnsupported) Error() string {
	return fmt.Sprintf("%s:: module sources are not supported by tenet; publish the module to a git repository, an https archive or a module registry instead", e.Getter)
}

// acceptedForms ends every "Invalid module source" error so the user can
// see what to write instead.
const acceptedForms = `Accepted forms are local paths ("./x", "../x"), registry addresses ("NAMESPACE/NAME/SYSTEM" or "HOST/NAMESPACE/NAME/SYSTEM"), git repositories ("git::https://…", "git::ssh://…", "git::file://…", "git@host:org/repo.git", "github.com/org/repo", "bitbucket.org/org/repo", with optional ?ref=, ?depth= and //subdir) and https archives (.zip, .tar.gz, .tgz, .tar.bz2, .tar or ?archive=FORMAT).`

var (
	registryNamePart = lazyRegexp(`^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$`)
	registrySystem   = lazyRegexp(`^[0-9a-z]{1,64}$`)
	scpLike          = lazyRegexp(`^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^/]`)
)

// ParseSource reads a module source address as OpenTofu 1.10 accepts it.
// Errors are plain: the caller attaches the source attribute's range.
func ParseSource(raw string) (Source, error) {
	if raw == "" {
		return Source{}, fmt.Errorf("the module source address must not be empty")
	}
	if strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") || raw == "." || raw == ".." {
		return Source{Kind: SourceLocal, Path: raw}, nil
	}
	if strings.HasPrefix(raw, "/") {
		return Source{}, fmt.Errorf("%q is an absolute path; a local module source must start with ./ or ../ and be relative to the calling module", raw)
	}
	if getter, rest, ok := strings.Cut(raw, "::"); ok && !strings.ContainsAny(getter, "/:") {
		switch getter {
		case "git":
			return parseGit(rest)
		case "http", "https":
			return parseHTTP(rest)
		case "s3", "gcs", "hg":
			return Source{}, ErrUnsupported{Getter: getter}
		default:
			return Source{}, fmt.Errorf("%q uses the unknown source type %q. %s", raw, getter, acceptedForms)
		}
	}
	switch {
	case strings.HasPrefix(raw, "https://"), strings.HasPrefix(raw, "http://"):
		return parseHTTP(raw)
	case scpLike().MatchString(raw):
		return parseGit(raw)
	case strings.HasPrefix(raw, "github.com/"), strings.HasPrefix(raw, "bitbucket.org/"):
		return parseHostShorthand(raw)
	}
	if s, ok, err := parseRegistry(raw); ok || err != nil {
		return s, err
	}
	return Source{}, ErrMaybeRelative{Addr: raw}
}

// ErrMaybeRelative is returned for an address no installation method
// recognises, which OpenTofu takes for a local path missing its "./".
type ErrMaybeRelative struct{ Addr string }

func (e ErrMaybeRelative) Error() string {
	return fmt.Sprintf("tenet failed to determine your intended installation method for remote module package %q.\n\nIf you intended this as a path relative to the current module, use \"./%s\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.", e.Addr, e.Addr)
}

// splitSubdir separates "//subdir" from an address; the "//" of a URL
// scheme does not count. A query written after the subdirectory belongs
// to the package address.
func splitSubdir(s string) (pkg, subdir string, err error) {
	start := 0
	if i := strings.Index(s, "://"); i >= 0 {
		start = i + 3
	}
	i := strings.Index(s[start:], "//")
	if i < 0 {
		return s, "", nil
	}
	pkg, subdir = s[:start+i], s[start+i+2:]
	if q := strings.IndexByte(subdir, '?'); q >= 0 {
		pkg += subdir[q:]
		subdir = subdir[:q]
	}
	subdir, err = cleanSubdir(subdir)
	return pkg, subdir, err
}

func parseGit(rest string) (Source, error) {
	pkg, sub, err := splitSubdir(rest)
	if err != nil {
		return Source{}, err
	}
	base, query, _ := strings.Cut(pkg, "?")
	s := Source{Kind: SourceGit, Subdir: sub, Query: query}
	if scpLike().MatchString(base) {
		// user@host:path is ssh; OpenTofu records (and clones) it as the
		// equivalent ssh:// URL.
		userHost, p, _ := strings.Cut(base, ":")
		s.URL = "ssh://" + userHost + "/" + strings.TrimPrefix(p, "/")
		if _, err := url.Parse(s.URL); err != nil {
			return Source{}, fmt.Errorf("invalid git address %q: %v", base, err)
		}
	} else {
		u, err := url.Parse(base)
		if err != nil {
			return Source{}, fmt.Errorf("invalid git URL %q: %v", base, err)
		}
		switch u.Scheme {
		case "https", "http", "ssh", "file":
		default:
			return Source{}, fmt.Errorf("git URL %q must use https://, ssh:// or file:// (or the form user@host:path). %s", base, acceptedForms)
		}
		if u.Scheme != "file" && u.Host == "" {
			return Source{}, fmt.Errorf("git URL %q has no host", base)
		}
		s.URL = base
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return Source{}, fmt.Errorf("invalid query in git source %q: %v", rest, err)
	}
	for k, v := range vals {
		switch k {
		case "ref":
			s.Ref = v[len(v)-1]
			if s.Ref == "" || strings.HasPrefix(s.Ref, "-") {
				return Source{}, fmt.Errorf("invalid ref %q in git source %q", s.Ref, rest)
			}
		case "depth":
			n, err := strconv.Atoi(v[len(v)-1])
			if err != nil || n < 0 {
				return Source{}, fmt.Errorf("depth in git source %q must be a whole number, not %q", rest, v[len(v)-1])
			}
			s.Depth = n
		case "sshkey":
			s.SSHKey = v[len(v)-1]
			if b, err := base64.StdEncoding.DecodeString(s.SSHKey); err != nil || len(b) == 0 {
				return Source{}, fmt.Errorf("the sshkey argument of git source %q must be a private key encoded in base64", redactSSHKey(rest))
			}
		default:
			return Source{}, fmt.Errorf("git source %q has the unknown argument %q; git sources accept ref, depth and sshkey", redactSSHKey(rest), k)
		}
	}
	return s, nil
}

var sshKeyArg = lazyRegexp(`(sshkey=)[^&]*`)

// redactSSHKey hides a private key given in a source from messages.
func redactSSHKey(s string) string { return sshKeyArg().ReplaceAllString(s, "${1}…") }

// parseHostShorthand turns github.com/org/repo and bitbucket.org/org/repo
// into git over https, as OpenTofu's detectors do. For bitbucket.org
// OpenTofu first asks Bitbucket's API whether the repository is git or
// Mercurial; Bitbucket has hosted only git since it removed Mercurial in
// 2020, so the answer is known without asking.
func parseHostShorthand(raw string) (Source, error) {
	pkg, sub, err := splitSubdir(raw)
	if err != nil {
		return Source{}, err
	}
	base, query, hasQuery := strings.Cut(pkg, "?")
	parts := strings.Split(base, "/")
	if len(parts) < 3 || parts[1] == "" || parts[2] == "" {
		return Source{}, fmt.Errorf("%q must name an owner and a repository, as in %s/ORG/REPO", raw, parts[0])
	}
	repo := strings.TrimSuffix(parts[2], ".git")
	u := "https://" + parts[0] + "/" + parts[1] + "/" + repo + ".git"
	if len(parts) > 3 && parts[0] == "bitbucket.org" {
		// OpenTofu asks Bitbucket's API about OWNER/REPO/MORE, which is no
		// repository; only //subdir names a directory.
		return Source{}, fmt.Errorf("%q has more than an owner and a repository; write a subdirectory after //, as in bitbucket.org/%s/%s//%s", raw, parts[1], parts[2], strings.Join(parts[3:], "/"))
	}
	if len(parts) > 3 {
		// Extra path elements are a subdirectory, as go-style paths are.
		extra := strings.Join(parts[3:], "/")
		if sub != "" {
			sub = extra + "/" + sub
		} else {
			sub = extra
		}
	}
	full := u
	if hasQuery {
		full += "?" + query
	}
	s, err := parseGit(full)
	if err != nil {
		return Source{}, err
	}
	if sub != "" {
		if s.Subdir, err = cleanSubdir(sub); err != nil {
			return Source{}, err
		}
	}
	return s, nil
}

var archiveExts = []struct{ ext, format string }{
	{".tar.gz", "tar.gz"}, {".tgz", "tar.gz"}, {".tar.bz2", "tar.bz2"}, {".tbz2", "tar.bz2"},
	{".zip", "zip"}, {".tar", "tar"},
}

func parseHTTP(rest string) (Source, error) {
	pkg, sub, err := splitSubdir(rest)
	if err != nil {
		return Source{}, err
	}
	u, err := url.Parse(pkg)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return Source{}, fmt.Errorf("%q is not a valid http or https URL", pkg)
	}
	s := Source{Kind: SourceHTTP, Subdir: sub}
	q := u.Query()
	if a := q.Get("archive"); a != "" {
		switch a {
		case "zip", "tar", "tar.gz", "tar.bz2":
			s.Archive = a
		case "tgz":
			s.Archive = "tar.gz"
		default:
			return Source{}, fmt.Errorf("archive format %q in %q is not supported; use zip, tar, tar.gz or tar.bz2", a, rest)
		}
		q.Del("archive")
		u.RawQuery = q.Encode()
	} else {
		for _, e := range archiveExts {
			if strings.HasSuffix(strings.ToLower(u.Path), e.ext) {
				s.Archive = e.format
				break
			}
		}
	}
	s.URL = u.String()
	return s, nil
}

// parseRegistry reports ok=false when raw does not look like a registry
// address at all, so the caller can say what forms are accepted.
func parseRegistry(raw string) (Source, bool, error) {
	pkg, sub, err := splitSubdir(raw)
	if err != nil {
		return Source{}, true, err
	}
	parts := strings.Split(pkg, "/")
	s := Source{Kind: SourceRegistry, Host: DefaultRegistryHost, Subdir: sub}
	switch len(parts) {
	case 3:
	case 4:
		h := strings.ToLower(parts[0])
		if !validHost(h) {
			return Source{}, false, nil
		}
		s.Host = h
		parts = parts[1:]
	default:
		return Source{}, false, nil
	}
	if !registryNamePart().MatchString(parts[0]) || !registryNamePart().MatchString(parts[1]) {
		return Source{}, false, nil
	}
	if !registrySystem().MatchString(parts[2]) {
		return Source{}, true, fmt.Errorf("%q looks like a registry address, but its target system %q must be lowercase letters and digits, such as \"aws\"", raw, parts[2])
	}
	s.Namespace, s.Name, s.System = parts[0], parts[1], parts[2]
	return s, true, nil
}

var hostPattern = lazyRegexp(`^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::[0-9]{1,5})?$`)

// validHost accepts hostnames with a dot (or localhost) and an optional
// port; it keeps "org/name/system/extra" from being read as a host.
func validHost(h string) bool {
	if !hostPattern().MatchString(h) {
		return false
	}
	name, _, _ := strings.Cut(h, ":")
	return strings.Contains(name, ".") || name == "localhost"
}

// cleanSubdir refuses subdirectories that climb out of the package.
func cleanSubdir(sub string) (string, error) {
	if sub == "" {
		return "", nil
	}
	c := path.Clean(sub)
	if c == "." {
		return "", nil
	}
	if path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("the subdirectory %q leads outside the module package", sub)
	}
	return c, nil
}

// PackageAddr is the address of the whole package, without the
// subdirectory: the unit fetched once however many calls use it.
func (s Source) PackageAddr() string {
	switch s.Kind {
	case SourceLocal:
		return s.Path
	case SourceRegistry:
		return s.Host + "/" + s.Namespace + "/" + s.Name + "/" + s.System
	case SourceGit:
		return "git::" + s.URL + s.gitQuery()
	case SourceHTTP:
		u := s.URL
		if s.Archive != "" && !hasArchiveExt(u) {
			sep := "?"
			if strings.Contains(u, "?") {
				sep = "&"
			}
			u += sep + "archive=" + s.Archive
		}
		return u
	}
	return ""
}

func hasArchiveExt(u string) bool {
	p := u
	if pu, err := url.Parse(u); err == nil {
		p = pu.Path
	}
	for _, e := range archiveExts {
		if strings.HasSuffix(strings.ToLower(p), e.ext) {
			return true
		}
	}
	return false
}

func (s Source) gitQuery() string {
	if s.Query != "" {
		return "?" + s.Query
	}
	var q []string
	if s.Depth > 0 {
		q = append(q, "depth="+strconv.Itoa(s.Depth))
	}
	if s.Ref != "" {
		q = append(q, "ref="+url.QueryEscape(s.Ref))
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + strings.Join(q, "&")
}

// String is the normalised address recorded in modules.json: the
// package address followed by "//subdir" when there is one.
func (s Source) String() string {
	if s.Kind == SourceLocal || s.Subdir == "" {
		return s.PackageAddr()
	}
	pkg := s.PackageAddr()
	if s.Kind == SourceRegistry {
		return pkg + "//" + s.Subdir
	}
	// The subdirectory goes before the query, as users write it.
	base, query, hasQuery := strings.Cut(pkg, "?")
	out := base + "//" + s.Subdir
	if hasQuery {
		out += "?" + query
	}
	return out
}

// lazyRegexp compiles expr on first use rather than at process start,
// where every command, even "version", would pay for it.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
