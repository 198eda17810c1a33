package getproviders

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// InstallResult is what installing one package found.
type InstallResult struct {
	// Auth is how the source authenticated the package; nil for a local
	// mirror, which vouches for nothing.
	Auth *AuthResult
	// Hashes are the package's own hashes (h1 of the unpacked directory,
	// plus zh when it came as a zip) together with every hash the source
	// vouched for, for the lock file.
	Hashes []Hash
}

// InstallPackage fetches meta's package when it is remote, authenticates
// it, checks it against locked (when there are any locked hashes: the lock
// file's, which a package must match one of), and unpacks it into
// targetDir, replacing whatever was there. tmpDir holds downloads.
func InstallPackage(ctx context.Context, cfg *Config, meta PackageMeta, targetDir, tmpDir string, locked []Hash) (*InstallResult, error) {
	loc, res, cleanup, err := FetchPackage(ctx, cfg, meta, tmpDir, locked)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	if err := PlacePackage(loc, targetDir); err != nil {
		return nil, err
	}
	if _, ok := FindExecutable(targetDir, meta.Provider.Type); !ok {
		os.RemoveAll(targetDir)
		return nil, fmt.Errorf("the package of %s v%s has no executable named terraform-provider-%s", meta.Provider.ForDisplay(), meta.Version, meta.Provider.Type)
	}
	return res, nil
}

// FetchPackage brings meta's package to local disk (downloading it into
// tmpDir when it is remote), authenticates it and checks it against
// locked, without installing it: `providers lock` and `providers mirror`
// need the verified archive itself. cleanup removes the download.
func FetchPackage(ctx context.Context, cfg *Config, meta PackageMeta, tmpDir string, locked []Hash) (PackageLocation, *InstallResult, func(), error) {
	loc := meta.Location
	cleanup := func() {}
	if u, ok := loc.(PackageHTTPURL); ok {
		path, err := download(ctx, newClient(cfg), string(u), tmpDir, meta)
		if err != nil {
			return nil, nil, cleanup, err
		}
		cleanup = func() { os.Remove(path) }
		loc = PackageLocalArchive(path)
	}
	fail := func(err error) (PackageLocation, *InstallResult, func(), error) {
		cleanup()
		return nil, nil, func() {}, err
	}
	res := &InstallResult{}
	if meta.Authentication != nil {
		auth, err := meta.Authentication.Authenticate(loc)
		if err != nil {
			return fail(err)
		}
		res.Auth = auth
	}
	own, err := PackageHashes(loc)
	if err != nil {
		return fail(fmt.Errorf("hashing %s: %w", loc, err))
	}
	if len(locked) > 0 && !MatchesAny(own, locked) {
		return fail(ErrChecksumMismatch{Provider: meta.Provider, Version: meta.Version, What: "the hashes in the dependency lock file", Got: own, Want: locked})
	}
	res.Hashes = own
	if meta.Authentication != nil {
		res.Hashes = append(res.Hashes, meta.Authentication.AcceptableHashes()...)
	}
	return loc, res, cleanup, nil
}

// download saves url's body in tmpDir and returns the file's path.
func download(ctx context.Context, c *client, raw, tmpDir string, meta PackageMeta) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	src := "the download of " + meta.Provider.ForDisplay() + " v" + meta.Version.String()
	resp, err := c.get(ctx, u, src)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", ErrUnreachable{Source: src, Err: fmt.Errorf("%s answered %s for %s", u.Host, resp.Status, u)}
	}
	if err := os.MkdirAll(tmpDir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(tmpDir, "terraform-provider-*.zip")
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", ErrUnreachable{Source: src, Err: err}
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// PlacePackage makes targetDir hold the unpacked package: unzip an
// archive, copy a directory. It builds beside the target and renames, so
// an interrupted install never leaves a half-filled package directory.
func PlacePackage(loc PackageLocation, targetDir string) error {
	parent := filepath.Dir(targetDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(parent, ".installing-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	switch loc := loc.(type) {
	case PackageLocalArchive:
		err = Unzip(string(loc), stage)
	case PackageLocalDir:
		err = copyDir(string(loc), stage)
	default:
		err = fmt.Errorf("cannot unpack %s", loc)
	}
	if err != nil {
		return err
	}
	if err := os.RemoveAll(targetDir); err != nil {
		return err
	}
	return os.Rename(stage, targetDir)
}

// Unzip extracts a provider archive into dir. Entries that would land
// outside dir (absolute names, "..", symlinks) are refused rather than
// skipped: a package that tries is not one to install.
func Unzip(archive, dir string) error {
	r, err := zip.OpenReader(archive)
	if err != nil {
		return fmt.Errorf("%s is not a valid zip archive: %w", filepath.Base(archive), err)
	}
	defer r.Close()
	for _, f := range r.File {
		name := f.Name
		if strings.Contains(name, `\`) || !fs.ValidPath(strings.TrimSuffix(name, "/")) {
			return fmt.Errorf("the archive %s has an entry %q outside its directory", filepath.Base(archive), name)
		}
		mode := f.Mode()
		if mode&fs.ModeSymlink != 0 || (!mode.IsRegular() && !mode.IsDir()) {
			return fmt.Errorf("the archive %s has an entry %q that is not a regular file", filepath.Base(archive), name)
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		if mode.IsDir() {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := extractFile(f, target); err != nil {
			return err
		}
	}
	return nil
}

func extractFile(f *zip.File, target string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	// Executables must stay executable; everything else is readable.
	perm := os.FileMode(0o644)
	if f.Mode()&0o111 != 0 {
		perm = 0o755
	}
	return writeFrom(target, os.O_EXCL, perm, rc)
}

// writeFrom creates target (opened with the extra flag, such as O_EXCL)
// with perm and copies r into it.
func writeFrom(target string, flag int, perm os.FileMode, r io.Reader) error {
	out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|flag, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		return writeFrom(target, os.O_TRUNC, fi.Mode().Perm(), in)
	})
}
