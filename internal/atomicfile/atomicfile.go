package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces the file at path with the concatenation of data, with
// permissions perm.
func Write(path string, perm fs.FileMode, data ...[]byte) error {
	return WriteWith(os.Rename, path, perm, data...)
}

// WriteWith is Write renaming with rename, which tests replace to
// simulate a disk that fails at the last step. On error the old file is
// intact.
func WriteWith(rename func(oldpath, newpath string) error, path string, perm fs.FileMode, data ...[]byte) (err error) {
	target, special, err := Resolve(path)
	if err != nil {
		return err
	}
	if special {
		return writeInPlace(target, data)
	}
	tmp, dir, err := CreateTemp(target)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	for _, d := range data {
		if _, err = tmp.Write(d); err != nil {
			return err
		}
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = rename(tmp.Name(), target); err != nil {
		return err
	}
	SyncDir(dir)
	return nil
}

// Resolve returns the file a write to path must replace: path itself, or
// for a symbolic link the file it ends at (see FollowLinks). special is
// true when that file exists and is not a regular file, so it must be
// written in place.
func Resolve(path string) (target string, special bool, err error) {
	target = FollowLinks(path)
	fi, err := os.Lstat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return target, false, nil
	case err != nil:
		return "", false, err
	}
	return target, !fi.Mode().IsRegular() && !fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0, nil
}

// FollowLinks follows path while it is a symbolic link and returns the
// file it ends at, which need not exist yet (a dangling link names the
// file a first write creates). Paths that are not links come back
// unchanged. It gives up after as many links as the kernel follows, so a
// loop of links ends; the open that follows then reports the loop.
func FollowLinks(path string) string {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return path
}

// writeInPlace writes data to a device or pipe.
func writeInPlace(path string, data [][]byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	for _, d := range data {
		if _, err := f.Write(d); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// CreateTemp creates a hidden temporary file in path's directory (which
// it returns too), so that renaming it to path is atomic.
func CreateTemp(path string) (tmp *os.File, dir string, err error) {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err = os.CreateTemp(dir, "."+name+".tmp-*")
	return tmp, dir, err
}

// SyncDir flushes dir's entries (a rename in it) to disk, as far as the
// filesystem allows: some refuse to sync directories, and the rename has
// happened either way.
func SyncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}
