package sshconn

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

// As OpenTofu's: how long one dial may take, how often a kept-alive
// connection is probed, and how long the server may leave probes
// unanswered before the connection is dropped.
const (
	dialTimeout       = 15 * time.Second
	keepAliveInterval = 2 * time.Second
	maxKeepAliveDelay = 120 * time.Second
)

// Conn is one connection to a host. It is not safe for concurrent use.
type Conn struct {
	info   *Info
	config *ssh.ClientConfig
	bconf  *ssh.ClientConfig // the bastion's, when there is one
	agent  agent.ExtendedAgent
	agentC net.Conn

	mu        sync.Mutex
	client    *ssh.Client
	closers   []func() error
	stopAlive context.CancelFunc
}

// Open prepares the connection a provisioner's connection block (the
// value of the connection object) describes; a provisioner without one
// cannot reach the machine.
func Open(connection cty.Value) (*Conn, error) {
	if connection.IsNull() {
		return nil, errors.New("Missing connection configuration for provisioner.")
	}
	info, err := ParseInfo(connection)
	if err != nil {
		return nil, err
	}
	return New(info)
}

// New prepares a connection: it reads the keys and the agent but does
// not connect yet.
func New(in *Info) (*Conn, error) {
	c := &Conn{info: in}
	if in.Agent {
		sock := os.Getenv("SSH_AUTH_SOCK")
		if sock == "" {
			return nil, errors.New("SSH_AUTH_SOCK is not set: no SSH agent to use (set agent = false to connect without one)")
		}
		ac, err := net.Dial("unix", sock)
		if err != nil {
			return nil, fmt.Errorf("Error connecting to SSH_AUTH_SOCK: %w", err)
		}
		c.agentC, c.agent = ac, agent.NewClient(ac)
	}
	var err error
	if c.config, err = c.clientConfig(in.User, in.addr(), in.PrivateKey, in.Password, in.HostKey, in.Certificate); err != nil {
		c.closeAgent()
		return nil, err
	}
	if in.BastionHost != "" {
		// As OpenTofu, the bastion is checked against host_key too.
		if c.bconf, err = c.clientConfig(in.BastionUser, in.bastionAddr(), in.BastionPrivateKey, in.BastionPassword, in.HostKey, in.BastionCertificate); err != nil {
			c.closeAgent()
			return nil, err
		}
	}
	return c, nil
}

// Timeout is how long connecting may keep being retried.
func (c *Conn) Timeout() time.Duration { return c.info.Timeout }

// Info is what the connection block said.
func (c *Conn) Info() *Info { return c.info }

func (c *Conn) clientConfig(user, addr, privateKey, password, hostKey, certificate string) (*ssh.ClientConfig, error) {
	conf := &ssh.ClientConfig{User: user, HostKeyCallback: ssh.InsecureIgnoreHostKey()}
	if hostKey != "" {
		cb, err := hostKeyCallback(addr, hostKey)
		if err != nil {
			return nil, err
		}
		conf.HostKeyCallback = cb
	}
	if privateKey != "" {
		var auth ssh.AuthMethod
		var err error
		if certificate != "" {
			auth, err = certAuth(privateKey, certificate)
		} else {
			auth, err = keyAuth(privateKey)
		}
		if err != nil {
			return nil, err
		}
		conf.Auth = append(conf.Auth, auth)
	}
	if password != "" {
		conf.Auth = append(conf.Auth, ssh.Password(password), ssh.KeyboardInteractive(
			func(_, _ string, questions []string, _ []bool) ([]string, error) {
				answers := make([]string, len(questions))
				for i := range answers {
					answers[i] = password
				}
				return answers, nil
			}))
	}
	if c.agent != nil {
		conf.Auth = append(conf.Auth, ssh.PublicKeysCallback(c.agentSigners))
	}
	return conf, nil
}

// hostKeyCallback accepts the host's key or a certificate it signed, as
// a known_hosts line marking it as the host's certificate authority does.
func hostKeyCallback(addr, hostKey string) (ssh.HostKeyCallback, error) {
	f, err := os.CreateTemp("", "tf-known_hosts")
	if err != nil {
		return nil, fmt.Errorf("failed to create temp known_hosts file: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := fmt.Fprintf(f, "@cert-authority %s %s\n", addr, hostKey); err != nil {
		return nil, fmt.Errorf("failed to write temp known_hosts file: %w", err)
	}
	if err := f.Sync(); err != nil {
		return nil, err
	}
	return knownhosts.New(f.Name())
}

func keyAuth(pk string) (ssh.AuthMethod, error) {
	block, _ := pem.Decode([]byte(pk))
	if block == nil {
		return nil, errors.New("Failed to read ssh private key: no key found")
	}
	if block.Headers["Proc-Type"] == "4,ENCRYPTED" {
		return nil, errors.New("Failed to read ssh private key: password protected keys are\nnot supported. Please decrypt the key prior to use.")
	}
	signer, err := ssh.ParsePrivateKey([]byte(pk))
	if err != nil {
		return nil, fmt.Errorf("Failed to parse ssh private key: %w", err)
	}
	return ssh.PublicKeys(signer), nil
}

func certAuth(pk, certificate string) (ssh.AuthMethod, error) {
	raw, err := ssh.ParseRawPrivateKey([]byte(pk))
	if err != nil {
		return nil, fmt.Errorf("failed to parse private key: %w", err)
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(certificate))
	if err != nil {
		return nil, fmt.Errorf("failed to parse certificate %q: %w", certificate, err)
	}
	cert, ok := pub.(*ssh.Certificate)
	if !ok {
		return nil, fmt.Errorf("failed to parse certificate %q: not a certificate", certificate)
	}
	signer, err := ssh.NewSignerFromKey(raw)
	if err != nil {
		return nil, fmt.Errorf("failed to create signer from private key: %w", err)
	}
	certSigner, err := ssh.NewCertSigner(cert, signer)
	if err != nil {
		return nil, fmt.Errorf("failed to create cert signer: %w", err)
	}
	return ssh.PublicKeys(certSigner), nil
}

// agentSigners are the agent's keys, the one agent_identity names (by
// comment, or a comment ending in it) first.
func (c *Conn) agentSigners() ([]ssh.Signer, error) {
	signers, err := c.agent.Signers()
	if err != nil || c.info.AgentIdentity == "" {
		return signers, err
	}
	keys, err := c.agent.List()
	if err != nil {
		return signers, nil
	}
	comment := map[string]string{}
	for _, k := range keys {
		comment[string(k.Marshal())] = k.Comment
	}
	id := c.info.AgentIdentity
	head := 0
	for i, s := range signers {
		cm := comment[string(s.PublicKey().Marshal())]
		if cm == id {
			signers[0], signers[i] = signers[i], signers[0]
			break
		}
		if strings.HasSuffix(cm, id) {
			signers[head], signers[i] = signers[i], signers[head]
			head++
		}
	}
	return signers, nil
}

// Connect connects once, reporting on out (when not nil) what it
// connects to, as OpenTofu's remote-exec does.
func (c *Conn) Connect(out func(string)) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closeLocked()
	in := c.info
	if out != nil {
		out(fmt.Sprintf("Connecting to remote host via SSH...\n  Host: %s\n  User: %s\n  Password: %t\n  Private key: %t\n  Certificate: %t\n  SSH Agent: %t\n  Checking Host Key: %t\n  Target Platform: %s\n",
			in.Host, in.User, in.Password != "", in.PrivateKey != "", in.Certificate != "", in.Agent, in.HostKey != "", in.TargetPlatform))
		if in.BastionHost != "" {
			out(fmt.Sprintf("Using configured bastion host...\n  Host: %s\n  User: %s\n  Password: %t\n  Private key: %t\n  Certificate: %t\n  SSH Agent: %t\n  Checking Host Key: %t",
				in.BastionHost, in.BastionUser, in.BastionPassword != "", in.BastionPrivateKey != "", in.BastionCertificate != "", in.Agent, in.BastionHostKey != ""))
		}
	}
	conn, err := c.dial()
	if err != nil {
		return err
	}
	sc, chans, reqs, err := ssh.NewClientConn(conn, in.addr(), c.config)
	if err != nil {
		conn.Close()
		return fmt.Errorf("SSH authentication failed (%s@%s): %w", in.User, in.addr(), err)
	}
	c.client = ssh.NewClient(sc, chans, reqs)
	c.closers = append(c.closers, c.client.Close)
	if c.agent != nil {
		if err := agent.ForwardToAgent(c.client, c.agent); err != nil {
			return fatalError{err}
		}
		if s, err := c.client.NewSession(); err == nil {
			_ = agent.RequestAgentForwarding(s) // best effort, as OpenTofu
			s.Close()
		} else {
			return err
		}
	}
	if out != nil {
		out("Connected!")
	}
	ctx, stop := context.WithCancel(context.Background())
	c.stopAlive = stop
	go keepAlive(ctx, c.client)
	return nil
}

func (c *Conn) dial() (net.Conn, error) {
	if c.bconf == nil {
		conn, err := net.DialTimeout("tcp", c.info.addr(), dialTimeout)
		if err != nil {
			return nil, err
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetKeepAlive(true)
		}
		return conn, nil
	}
	bastion, err := ssh.Dial("tcp", c.info.bastionAddr(), c.bconf)
	if err != nil {
		return nil, fmt.Errorf("Error connecting to bastion: %w", err)
	}
	conn, err := bastion.Dial("tcp", c.info.addr())
	if err != nil {
		bastion.Close()
		return nil, err
	}
	c.closers = append(c.closers, bastion.Close)
	return conn, nil
}

// keepAlive probes the server every keepAliveInterval and drops the
// connection when a probe fails or none is answered for maxKeepAliveDelay.
func keepAlive(ctx context.Context, client *ssh.Client) {
	answered := make(chan error, 1)
	go func() {
		t := time.NewTicker(keepAliveInterval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				_, _, err := client.SendRequest("keepalive@terraform.io", true, nil)
				select {
				case answered <- err:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	deadline := time.NewTimer(maxKeepAliveDelay)
	defer deadline.Stop()
	for {
		select {
		case err := <-answered:
			if err != nil {
				client.Close()
				return
			}
			if !deadline.Stop() {
				<-deadline.C
			}
			deadline.Reset(maxKeepAliveDelay)
		case <-deadline.C:
			client.Close()
			return
		case <-ctx.Done():
			return
		}
	}
}

// Close ends the connection.
func (c *Conn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closeLocked()
	c.closeAgent()
	return nil
}

func (c *Conn) closeLocked() {
	if c.stopAlive != nil {
		c.stopAlive()
		c.stopAlive = nil
	}
	for i := len(c.closers) - 1; i >= 0; i-- {
		_ = c.closers[i]()
	}
	c.closers = nil
	c.client = nil
}

func (c *Conn) closeAgent() {
	if c.agentC != nil {
		c.agentC.Close()
		c.agentC = nil
	}
}

// fatalError is a connection error retrying cannot mend.
type fatalError struct{ error }

// ConnectRetrying connects, retrying with a growing delay (1s doubling to
// 20s) until ctx ends; an error then names the last failure, as
// "timeout - last error: ..." when ctx's deadline passed and
// "interrupted - last error: ..." when it was cancelled.
func (c *Conn) ConnectRetrying(ctx context.Context, out func(string)) error {
	var last error
	delay := time.Duration(0)
	for {
		select {
		case <-ctx.Done():
			return retryEnded(ctx, last)
		case <-time.After(delay):
		}
		done := make(chan error, 1)
		go func() { done <- c.Connect(out) }()
		select {
		case err := <-done:
			var fatal fatalError
			switch {
			case err == nil:
				return nil
			case errors.As(err, &fatal):
				return fatal.error
			}
			last = err
		case <-ctx.Done():
			return retryEnded(ctx, last)
		}
		delay *= 2
		if delay == 0 {
			delay = time.Second
		}
		delay = min(delay, 20*time.Second)
	}
}

func retryEnded(ctx context.Context, last error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("timeout - last error: %w", last)
	}
	return fmt.Errorf("interrupted - last error: %w", last)
}

// session opens a session, connecting again once if the connection was
// lost.
func (c *Conn) session() (*ssh.Session, error) {
	c.mu.Lock()
	client := c.client
	c.mu.Unlock()
	var s *ssh.Session
	var err error
	if client == nil {
		err = errors.New("ssh client is not connected")
	} else {
		s, err = client.NewSession()
	}
	if err == nil {
		return s, nil
	}
	if err := c.Connect(nil); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.client.NewSession()
}

// ExitError is a remote command that failed: its exit status, or err
// when it did not report one.
type ExitError struct {
	Command    string
	ExitStatus int
	Err        error
}

func (e *ExitError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("error executing %q: %v", e.Command, e.Err)
	}
	return fmt.Sprintf("%q exit status: %d", e.Command, e.ExitStatus)
}

// Run runs a command on a pseudo-terminal (so its stderr comes with its
// stdout, as OpenTofu's does) and waits for it.
func (c *Conn) Run(command string, stdout, stderr io.Writer) error {
	s, err := c.session()
	if err != nil {
		return err
	}
	defer s.Close()
	s.Stdout, s.Stderr = stdout, stderr
	modes := ssh.TerminalModes{ssh.ECHO: 0, ssh.TTY_OP_ISPEED: 14400, ssh.TTY_OP_OSPEED: 14400}
	if err := s.RequestPty("xterm", 80, 40, modes); err != nil {
		return err
	}
	if err := s.Start(strings.TrimSpace(command) + "\n"); err != nil {
		return err
	}
	err = s.Wait()
	status := 0
	var exit *ssh.ExitError
	if errors.As(err, &exit) {
		status = exit.ExitStatus()
	}
	if err != nil || status != 0 {
		return &ExitError{Command: command, ExitStatus: status, Err: err}
	}
	return nil
}
