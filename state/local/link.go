package local

import (
	"os"
	"path/filepath"
)

// resolveLink follows path while it is a symbolic link and returns the
// file it ends at, which need not exist yet (a dangling link names the
// file a first write creates). A state file reached through a link is
// written where it really is: a temporary file beside the target renamed
// over it, so the link stays a link and every path to the file sees the
// new snapshot. Paths that are not links come back unchanged.
func resolveLink(path string) string {
	// Bounded like the kernel's own limit, so a loop of links ends; the
	// open that follows then reports the loop.
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
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
