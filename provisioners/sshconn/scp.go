package sshconn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"
)

// shebang starts an uploaded script that has none.
const shebang = "#!/bin/sh\n"

// Upload copies what r gives to the file at dst on the host, with scp's
// sink ("scp -vt DIR") on the other end.
func (c *Conn) Upload(dst string, r io.Reader) error {
	dir, name := path.Dir(filepath.ToSlash(dst)), path.Base(filepath.ToSlash(dst))
	return c.scp(shellQuote("scp", "-vt", dir), func(w io.Writer, resp *bufio.Reader) error {
		return scpFile(name, r, w, resp)
	})
}

// UploadScript uploads a script (with a #!/bin/sh line when it has no #!
// line) and makes it executable.
func (c *Conn) UploadScript(dst string, r io.Reader) error {
	br := bufio.NewReader(r)
	prefix, err := br.Peek(2)
	if err != nil {
		return fmt.Errorf("Error reading script: %w", err)
	}
	var script bytes.Buffer
	if string(prefix) != "#!" {
		script.WriteString(shebang)
	}
	if _, err := script.ReadFrom(br); err != nil {
		return err
	}
	if err := c.Upload(dst, &script); err != nil {
		return err
	}
	var stdout, stderr bytes.Buffer
	if err := c.Run(fmt.Sprintf("chmod 0777 %s", dst), &stdout, &stderr); err != nil {
		return fmt.Errorf("Error chmodding script file to 0777 in remote machine %v: %s %s", err, stdout.String(), stderr.String())
	}
	return nil
}

// UploadDir copies the directory src into dst on the host: src itself
// when it does not end in a slash, only its contents when it does.
func (c *Conn) UploadDir(dst, src string) error {
	return c.scp(shellQuote("scp", "-rvt", dst), func(w io.Writer, resp *bufio.Reader) error {
		entries := func() error { return scpDirEntries(src, w, resp) }
		if !strings.HasSuffix(src, "/") {
			return scpDir(filepath.Base(src), w, resp, entries)
		}
		return entries()
	})
}

// scp runs the remote scp command and talks its protocol with f.
func (c *Conn) scp(command string, f func(io.Writer, *bufio.Reader) error) error {
	s, err := c.session()
	if err != nil {
		return err
	}
	defer s.Close()
	stdin, err := s.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := s.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	s.Stderr = &stderr
	if err := s.Start(command); err != nil {
		return err
	}
	if err := f(stdin, bufio.NewReader(stdout)); err != nil && err != io.EOF {
		stdin.Close()
		return err
	}
	stdin.Close()
	err = s.Wait()
	var exit *ssh.ExitError
	if errors.As(err, &exit) && exit.ExitStatus() == 127 {
		return errors.New("SCP failed to start. This usually means that SCP is not\nproperly installed on the remote system.")
	}
	return err
}

// scpStatus reads scp's answer to one message: 0, or an error with its
// message.
func scpStatus(r *bufio.Reader) error {
	code, err := r.ReadByte()
	if err != nil {
		return err
	}
	if code == 0 {
		return nil
	}
	msg, _, err := r.ReadLine()
	if err != nil {
		return fmt.Errorf("Error reading error message: %w", err)
	}
	return errors.New(string(msg))
}

// scpFile sends one file, whose size scp needs first: a reader of unknown
// size is read into memory.
func scpFile(name string, src io.Reader, w io.Writer, r *bufio.Reader) error {
	var size int64
	switch s := src.(type) {
	case *os.File:
		fi, err := s.Stat()
		if err != nil {
			return err
		}
		size = fi.Size()
	case *bytes.Buffer:
		size = int64(s.Len())
	case *bytes.Reader:
		size = int64(s.Len())
	case *strings.Reader:
		size = int64(s.Len())
	default:
		data, err := io.ReadAll(src)
		if err != nil {
			return err
		}
		src, size = bytes.NewReader(data), int64(len(data))
	}
	fmt.Fprintln(w, "C0644", size, name)
	if err := scpStatus(r); err != nil {
		return err
	}
	if _, err := io.CopyN(w, src, size); err != nil {
		return err
	}
	fmt.Fprint(w, "\x00")
	return scpStatus(r)
}

// scpDir sends a directory named name whose entries f sends.
func scpDir(name string, w io.Writer, r *bufio.Reader, f func() error) error {
	fmt.Fprintln(w, "D0755 0", name)
	if err := scpStatus(r); err != nil {
		return err
	}
	if err := f(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "E")
	return err
}

// scpDirEntries sends the entries of the directory root, following
// symbolic links.
func scpDirEntries(root string, w io.Writer, r *bufio.Reader) error {
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, e := range entries {
		full := filepath.Join(root, e.Name())
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			fi, err := os.Stat(full)
			if err != nil {
				return err
			}
			isDir = fi.IsDir()
		}
		if isDir {
			if err := scpDir(e.Name(), w, r, func() error { return scpDirEntries(full, w, r) }); err != nil {
				return err
			}
			continue
		}
		f, err := os.Open(full)
		if err != nil {
			return err
		}
		err = scpFile(e.Name(), f, w, r)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// shellQuote quotes each word for a POSIX shell.
func shellQuote(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}
