package sshtest

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/crypto/ssh"
)

// Server is a running test server.
type Server struct {
	Addr    string // host:port
	Host    string
	Port    int
	HostKey ssh.PublicKey // the server's key

	User, Password string
	// AuthorizedKey, when set, is accepted for User too.
	AuthorizedKey ssh.PublicKey

	ln   net.Listener
	conf *ssh.ServerConfig

	mu       sync.Mutex
	commands []string
	logins   int
	wg       sync.WaitGroup
}

// Start listens on 127.0.0.1 and serves until Close. authorized may be
// nil (password only).
func Start(user, password string, authorized ssh.PublicKey) (*Server, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	s := &Server{User: user, Password: password, AuthorizedKey: authorized, HostKey: signer.PublicKey()}
	s.conf = &ssh.ServerConfig{
		PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if c.User() == s.User && s.Password != "" && string(pw) == s.Password {
				return nil, nil
			}
			return nil, errors.New("wrong password")
		},
		PublicKeyCallback: func(c ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if c.User() == s.User && s.AuthorizedKey != nil && string(key.Marshal()) == string(s.AuthorizedKey.Marshal()) {
				return nil, nil
			}
			return nil, errors.New("unknown key")
		},
	}
	s.conf.AddHostKey(signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.ln = ln
	s.Addr = ln.Addr().String()
	host, port, _ := net.SplitHostPort(s.Addr)
	s.Host = host
	s.Port, _ = strconv.Atoi(port)
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// Close stops the server and waits for its connections to end.
func (s *Server) Close() {
	s.ln.Close()
	s.wg.Wait()
}

// Commands lists the commands run so far, scp's included.
func (s *Server) Commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.commands...)
}

// Logins counts the successful logins so far.
func (s *Server) Logins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.handle(c)
		}()
	}
}

func (s *Server) handle(c net.Conn) {
	defer c.Close()
	sc, chans, reqs, err := ssh.NewServerConn(c, s.conf)
	if err != nil {
		return
	}
	defer sc.Close()
	s.mu.Lock()
	s.logins++
	s.mu.Unlock()
	go func() {
		for r := range reqs {
			if r.WantReply {
				r.Reply(r.Type == "keepalive@terraform.io", nil)
			}
		}
	}()
	var wg sync.WaitGroup
	for nc := range chans {
		if nc.ChannelType() == "direct-tcpip" {
			// A bastion's forwarding: to one of this machine's ports.
			wg.Add(1)
			go func() {
				defer wg.Done()
				forward(nc)
			}()
			continue
		}
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "only sessions")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.session(ch, creqs)
		}()
	}
	wg.Wait()
}

func (s *Server) session(ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	pty := false
	for r := range reqs {
		switch r.Type {
		case "pty-req":
			pty = true
			r.Reply(true, nil)
		case "exec":
			if len(r.Payload) < 4 {
				r.Reply(false, nil)
				continue
			}
			command := string(r.Payload[4:])
			r.Reply(true, nil)
			s.mu.Lock()
			s.commands = append(s.commands, command)
			s.mu.Unlock()
			status := s.exec(ch, command, pty)
			ch.CloseWrite()
			ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, uint32(status)))
			return
		default:
			if r.WantReply {
				r.Reply(false, nil)
			}
		}
	}
}

func (s *Server) exec(ch ssh.Channel, command string, pty bool) int {
	if w := words(command); len(w) == 3 && w[0] == "scp" && (w[1] == "-vt" || w[1] == "-rvt") {
		return scpSink(ch, w[2], w[1] == "-rvt")
	}
	// No stdin: the provisioners send none, and a copy from the channel
	// would outlive the command.
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Stdout = ch
	cmd.Stderr = ch.Stderr()
	if pty {
		cmd.Stderr = ch
	}
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(ch.Stderr(), err)
		return 127
	}
	return 0
}

// words splits a command line at blanks, honouring single quotes.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, in = true, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// scpSink receives files into dir as scp -t does: C (file), D (enter a
// directory, made if needed) and E (leave it) records, each answered
// with a 0 byte.
func scpSink(ch ssh.Channel, dir string, recursive bool) int {
	r := bufio.NewReader(ch)
	ok := func() { ch.Write([]byte{0}) }
	fail := func(err error) int {
		fmt.Fprintf(ch, "\x01scp: %s\n", err)
		return 1
	}
	cwd := dir
	ok()
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			return 0
		}
		if err != nil {
			return fail(err)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "C"):
			var mode, name string
			var size int64
			if _, err := fmt.Sscanf(line, "C%s %d %s", &mode, &size, &name); err != nil {
				return fail(err)
			}
			target := filepath.Join(cwd, name)
			if fi, err := os.Stat(cwd); err == nil && !fi.IsDir() {
				target = cwd
			}
			ok()
			f, err := os.Create(target)
			if err != nil {
				return fail(err)
			}
			_, err = io.CopyN(f, r, size)
			f.Close()
			if err != nil {
				return fail(err)
			}
			if b, err := r.ReadByte(); err != nil || b != 0 {
				return fail(errors.New("missing end of file"))
			}
			ok()
		case strings.HasPrefix(line, "D") && recursive:
			var mode, name string
			var zero int
			if _, err := fmt.Sscanf(line, "D%s %d %s", &mode, &zero, &name); err != nil {
				return fail(err)
			}
			cwd = filepath.Join(cwd, name)
			if err := os.MkdirAll(cwd, 0o755); err != nil {
				return fail(err)
			}
			ok()
		case line == "E":
			cwd = filepath.Dir(cwd)
			ok()
		default:
			return fail(fmt.Errorf("unexpected %q", line))
		}
	}
}

// forward connects a direct-tcpip channel to the address it names.
func forward(nc ssh.NewChannel) {
	var req struct {
		Host       string
		Port       uint32
		OriginHost string
		OriginPort uint32
	}
	if err := ssh.Unmarshal(nc.ExtraData(), &req); err != nil {
		nc.Reject(ssh.ConnectionFailed, err.Error())
		return
	}
	conn, err := net.Dial("tcp", net.JoinHostPort(req.Host, strconv.Itoa(int(req.Port))))
	if err != nil {
		nc.Reject(ssh.ConnectionFailed, err.Error())
		return
	}
	ch, reqs, err := nc.Accept()
	if err != nil {
		conn.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	done := make(chan struct{}, 2)
	go func() { io.Copy(ch, conn); ch.CloseWrite(); done <- struct{}{} }()
	go func() { io.Copy(conn, ch); conn.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	<-done
	<-done
	ch.Close()
	conn.Close()
}
