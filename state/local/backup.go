package local

import (
	"io"
	"os"

	"github.com/tenetplan/tenet/internal/atomicfile"
)

// readWithInfo reads the file at path and describes the file it read, so a
// later backup can tell whether the file on disk is still that one.
func readWithInfo(path string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	src := make([]byte, 0, info.Size()+1)
	for {
		n, err := f.Read(src[len(src):cap(src)])
		src = src[:len(src)+n]
		if err == io.EOF {
			return src, info, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if len(src) == cap(src) {
			src = append(src, 0)[:len(src)] // it grew since the Stat
		}
	}
}

// writeBackup stores original, the state file as read, at backupPath.
// When the state file on disk is still the very file that was read (same
// inode, size and modification time: tenet replaces state files by
// renaming a new file over them, so the old inode is never rewritten),
// the backup is a hard link to it, which spares copying and syncing the
// whole state; otherwise, or where links are not supported, it is an
// atomic copy.
//
// A linked backup shares its inode with the state file until the new
// snapshot is renamed into place; if that write fails, the caller calls
// unlinkBackup so that a tool rewriting the state file in place (OpenTofu
// does) cannot change the backup too.
func writeBackup(backupPath, statePath string, original []byte, read os.FileInfo) (linked bool, err error) {
	if read != nil && linkBackup(backupPath, statePath, read) {
		return true, nil
	}
	return false, writeAtomic(backupPath, original)
}

// unlinkBackup turns a linked backup into a copy of its own (best effort:
// the link has the right content either way).
func unlinkBackup(backupPath string, original []byte) {
	_ = writeAtomic(backupPath, original)
}

func linkBackup(backupPath, statePath string, read os.FileInfo) bool {
	now, err := os.Stat(statePath)
	if err != nil || !os.SameFile(now, read) || now.Size() != read.Size() || !now.ModTime().Equal(read.ModTime()) {
		return false
	}
	if now.Mode().Perm()&0o077 != 0 {
		// Backups are private (0600); a link would share a looser mode.
		return false
	}
	tmp, dir, err := atomicfile.CreateTemp(backupPath)
	if err != nil {
		return false
	}
	tmpName := tmp.Name()
	tmp.Close()
	os.Remove(tmpName) // os.Link does not replace; the name stays ours in practice
	if err := os.Link(statePath, tmpName); err != nil {
		return false
	}
	// The content must be on disk before the name points at it, as
	// writeAtomic ensures for a copy.
	linked, err := os.Open(tmpName)
	if err == nil {
		err = linked.Sync()
		linked.Close()
	}
	if err == nil {
		err = renameFile(tmpName, backupPath)
	}
	if err != nil {
		os.Remove(tmpName)
		return false
	}
	atomicfile.SyncDir(dir)
	return true
}
