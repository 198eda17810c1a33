package modinstall

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// DefaultMaxArchiveBytes bounds the unpacked size of one module archive.
const DefaultMaxArchiveBytes = 512 << 20

// fetchPackage brings the package of s (without its subdirectory) into
// dst, which must not exist yet.
func (in *installer) fetchPackage(ctx context.Context, s Source, dst string) error {
	return in.fetchDepth(ctx, s, dst, 0)
}

func (in *installer) fetchDepth(ctx context.Context, s Source, dst string, depth int) error {
	switch s.Kind {
	case SourceGit:
		return gitClone(ctx, s, dst)
	case SourceHTTP:
		if depth > 4 {
			return fmt.Errorf("%s redirects through X-Terraform-Get too many times", s.URL)
		}
		return in.fetchHTTP(ctx, s, dst, depth)
	}
	return fmt.Errorf("cannot fetch %s", s)
}

// gitClone runs the git CLI, as OpenTofu does, so the user's git
// configuration (credential helpers, ssh keys, insteadOf) applies.
func gitClone(ctx context.Context, s Source, dst string) error {
	url := s.URL
	args := []string{"clone", "--quiet"}
	if s.Depth > 0 {
		// A shallow clone can only reach a tag or branch by name.
		args = append(args, "--depth", fmt.Sprint(s.Depth))
		if s.Ref != "" {
			args = append(args, "--branch", s.Ref)
		}
	}
	args = append(args, "--", url, dst)
	var env []string
	if s.SSHKey != "" {
		sshEnv, cleanup, err := sshKeyEnv(s.SSHKey)
		if err != nil {
			return err
		}
		defer cleanup()
		env = append(env, sshEnv)
	}
	if err := runGit(ctx, "", env, args...); err != nil {
		return err
	}
	if s.Ref != "" && s.Depth == 0 {
		if err := runGit(ctx, dst, nil, "checkout", "--quiet", s.Ref, "--"); err != nil {
			return fmt.Errorf("the ref %q does not exist in %s: %v", s.Ref, s.URL, err)
		}
	}
	return nil
}

// sshKeyEnv writes the private key of a git source's sshkey argument to
// a file only the user can read, in a directory of its own, and returns
// the GIT_SSH_COMMAND that makes ssh use that key and no other. The
// command the user set (GIT_SSH_COMMAND, else ssh) is kept. cleanup
// removes the key.
func sshKeyEnv(encoded string) (env string, cleanup func(), err error) {
	key, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return "", nil, fmt.Errorf("the sshkey argument is not base64: %v", err)
	}
	dir, err := os.MkdirTemp("", "tenet-sshkey-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	file := filepath.Join(dir, "key")
	if strings.ContainsAny(file, "'\n") {
		cleanup()
		return "", nil, fmt.Errorf("the temporary directory %s has a quote in its name, which the ssh command line cannot hold; set TMPDIR to another directory", dir)
	}
	if err := os.WriteFile(file, key, 0o600); err != nil {
		cleanup()
		return "", nil, err
	}
	ssh := os.Getenv("GIT_SSH_COMMAND")
	if ssh == "" {
		ssh = "ssh"
	}
	// git runs the command through a shell; single quotes keep the path
	// one word.
	return "GIT_SSH_COMMAND=" + ssh + " -i '" + filepath.ToSlash(file) + "' -o IdentitiesOnly=yes", cleanup, nil
}

func runGit(ctx context.Context, dir string, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	// Never wait for a password on a terminal nobody watches.
	cmd.Env = append(append(os.Environ(), "GIT_TERMINAL_PROMPT=0"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("git %s failed: %s", args[0], msg)
	}
	return nil
}

func (in *installer) fetchHTTP(ctx context.Context, s Source, dst string, depth int) error {
	u, err := url.Parse(s.URL)
	if err != nil {
		return err
	}
	resp, err := in.client.get(ctx, u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("%s answered %s for %s", u.Host, resp.Status, u)
	}
	if s.Archive == "" {
		loc := resp.Header.Get("X-Terraform-Get")
		if loc == "" {
			return fmt.Errorf("%s is neither an archive (.zip, .tar.gz, .tgz, .tar.bz2, .tar or ?archive=FORMAT) nor answered with an X-Terraform-Get header naming one", s.URL)
		}
		next, err := resolveLocation(u, loc)
		if err != nil {
			return err
		}
		return in.fetchDepth(ctx, next, dst, depth+1)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".archive-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	limit := in.maxBytes()
	n, err := io.Copy(tmp, io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return fmt.Errorf("downloading %s: %w", s.URL, err)
	}
	if n > limit {
		return fmt.Errorf("%s is larger than %d bytes", s.URL, limit)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	if err := extract(tmp, n, s.Archive, dst, limit); err != nil {
		return fmt.Errorf("unpacking %s: %w", s.URL, err)
	}
	return nil
}

func (in *installer) maxBytes() int64 {
	if in.opts.MaxArchiveBytes > 0 {
		return in.opts.MaxArchiveBytes
	}
	return DefaultMaxArchiveBytes
}

// extract unpacks an archive into dst. Entries whose names leave dst,
// links that point outside it and a total size above limit are refused:
// an archive comes from a server we do not control.
func extract(f *os.File, size int64, format, dst string, limit int64) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	u := &unpacker{dst: dst, left: limit, limit: limit}
	switch format {
	case "zip":
		zr, err := zip.NewReader(f, size)
		if err != nil {
			return err
		}
		for _, zf := range zr.File {
			if err := u.zipEntry(zf); err != nil {
				return err
			}
		}
		return nil
	case "tar", "tar.gz", "tar.bz2":
		var r io.Reader = f
		switch format {
		case "tar.gz":
			gz, err := gzip.NewReader(f)
			if err != nil {
				return err
			}
			defer gz.Close()
			r = gz
		case "tar.bz2":
			r = bzip2.NewReader(f)
		}
		tr := tar.NewReader(r)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := u.tarEntry(h, tr); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("unknown archive format %q", format)
}

type unpacker struct {
	dst         string
	left, limit int64
}

// target maps an entry name to its path under dst, refusing escapes.
func (u *unpacker) target(name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(strings.TrimPrefix(name, "./")))
	if name == "" || filepath.IsAbs(clean) || strings.HasPrefix(name, "/") || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("the archive entry %q would be written outside the module directory", name)
	}
	return filepath.Join(u.dst, clean), nil
}

// linkInside reports whether a link at path p with target t stays in dst.
func (u *unpacker) linkInside(p, t string) bool {
	if filepath.IsAbs(t) {
		return false
	}
	r := filepath.Join(filepath.Dir(p), t)
	rel, err := filepath.Rel(u.dst, r)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (u *unpacker) write(p string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	// A file is never written through an existing link.
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("the archive writes %s through a link", p)
	}
	out, err := os.OpenFile(p, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode.Perm()|0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(r, u.left+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	u.left -= n
	if u.left < 0 {
		return fmt.Errorf("the archive unpacks to more than %d bytes", u.limit)
	}
	return nil
}

func (u *unpacker) symlink(p, t string) error {
	if !u.linkInside(p, t) {
		return fmt.Errorf("the archive's link %s points outside the module directory (%s)", p, t)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.Symlink(t, p)
}

func (u *unpacker) tarEntry(h *tar.Header, r io.Reader) error {
	p, err := u.target(h.Name)
	if err != nil {
		return err
	}
	switch h.Typeflag {
	case tar.TypeDir:
		return os.MkdirAll(p, 0o755)
	case tar.TypeReg:
		return u.write(p, r, os.FileMode(h.Mode))
	case tar.TypeSymlink:
		return u.symlink(p, h.Linkname)
	case tar.TypeLink:
		src, err := u.target(h.Linkname)
		if err != nil {
			return err
		}
		in, err := os.Open(src)
		if err != nil {
			return fmt.Errorf("the archive's hard link %s names %s, which it has not unpacked", h.Name, h.Linkname)
		}
		defer in.Close()
		return u.write(p, in, os.FileMode(h.Mode))
	case tar.TypeXGlobalHeader, tar.TypeXHeader:
		return nil
	}
	return fmt.Errorf("the archive entry %q has a type tenet does not unpack", h.Name)
}

func (u *unpacker) zipEntry(zf *zip.File) error {
	p, err := u.target(zf.Name)
	if err != nil {
		return err
	}
	mode := zf.Mode()
	switch {
	case mode.IsDir():
		return os.MkdirAll(p, 0o755)
	case mode&os.ModeSymlink != 0:
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		t, err := io.ReadAll(io.LimitReader(rc, 4096))
		if err != nil {
			return err
		}
		return u.symlink(p, string(t))
	case mode.IsRegular():
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		return u.write(p, rc, mode)
	}
	return fmt.Errorf("the archive entry %q has a type tenet does not unpack", zf.Name)
}
