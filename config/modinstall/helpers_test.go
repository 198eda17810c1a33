package modinstall

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// git runs git in dir with a fixed identity, failing the test on error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gitRepo makes a bare repository whose history is one commit per entry
// of commits, each tagged with its key when the key is not "". It
// returns the repository's file:// URL and the commit hashes.
type commit struct {
	tag   string
	files map[string]string
}

func gitRepo(t *testing.T, branch string, commits ...commit) (string, []string) {
	t.Helper()
	base := t.TempDir()
	work, bare := filepath.Join(base, "work"), filepath.Join(base, "repo.git")
	os.MkdirAll(work, 0o755)
	git(t, base, "init", "--quiet", "--bare", "-b", "main", bare)
	git(t, work, "init", "--quiet", "-b", "main")
	var hashes []string
	for _, c := range commits {
		writeFiles(t, work, c.files)
		git(t, work, "add", "-A")
		git(t, work, "commit", "--quiet", "-m", "c")
		hashes = append(hashes, git(t, work, "rev-parse", "HEAD"))
		if c.tag != "" {
			git(t, work, "tag", c.tag)
		}
	}
	if branch != "" {
		git(t, work, "checkout", "--quiet", "-b", branch)
		writeFiles(t, work, map[string]string{"branch.txt": branch})
		git(t, work, "add", "-A")
		git(t, work, "commit", "--quiet", "-m", "branch")
	}
	git(t, work, "push", "--quiet", "--all", bare)
	git(t, work, "push", "--quiet", "--tags", bare)
	return "file://" + filepath.ToSlash(bare), hashes
}

type entry struct {
	name, body, link string
	dir              bool
}

func tarGz(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.body)), Typeflag: tar.TypeReg}
		switch {
		case e.dir:
			h.Typeflag, h.Mode, h.Size = tar.TypeDir, 0o755, 0
		case e.link != "":
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, e.link, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.body))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func zipArchive(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		body := e.body
		if e.link != "" {
			h.SetMode(os.ModeSymlink | 0o777)
			body = e.link
		} else {
			h.SetMode(0o644)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

// diagAt renders a diagnostic as "file:line: summary" for comparisons.
func diagAt(d *hcl.Diagnostic) string {
	if d.Subject == nil {
		return d.Summary
	}
	return fmt.Sprintf("%s:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Summary)
}

func diagList(ds hcl.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, diagAt(d))
	}
	return out
}
