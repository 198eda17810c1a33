package sshconn_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/ssh"

	"github.com/tenetplan/tenet/internal/sshtest"
	"github.com/tenetplan/tenet/provisioners"
	"github.com/tenetplan/tenet/provisioners/sshconn"
)

// connection builds a connection block's value: the given arguments, the
// others null.
func connection(attrs map[string]cty.Value) cty.Value {
	full := map[string]cty.Value{}
	for name, a := range provisioners.ConnectionSchema.Attributes {
		full[name] = cty.NullVal(a.Type)
	}
	for k, v := range attrs {
		full[k] = v
	}
	return cty.ObjectVal(full)
}

func TestParseInfoDefaults(t *testing.T) {
	t.Setenv("SSH_AUTH_SOCK", "")
	tests := []struct {
		name  string
		attrs map[string]cty.Value
		want  sshconn.Info
		err   string
	}{
		{
			name:  "defaults",
			attrs: map[string]cty.Value{"host": cty.StringVal("example.com")},
			want:  sshconn.Info{Host: "example.com", User: "root", Port: 22, ScriptPath: "/tmp/terraform_%RAND%.sh", TargetPlatform: "unix", Timeout: 5 * time.Minute},
		},
		{
			name: "IPv6, bad timeout, bastion defaults",
			attrs: map[string]cty.Value{"host": cty.StringVal("::1"), "timeout": cty.StringVal("soon"), "user": cty.StringVal("u"),
				"password": cty.StringVal("p"), "port": cty.NumberIntVal(2222), "bastion_host": cty.StringVal("10.0.0.1")},
			want: sshconn.Info{Host: "[::1]", User: "u", Password: "p", Port: 2222, ScriptPath: "/tmp/terraform_%RAND%.sh", TargetPlatform: "unix", Timeout: 5 * time.Minute,
				BastionHost: "10.0.0.1", BastionUser: "u", BastionPassword: "p", BastionPort: 2222},
		},
		{name: "no host", attrs: map[string]cty.Value{"host": cty.StringVal("")}, err: "host for provisioner cannot be empty"},
		{name: "unknown type", attrs: map[string]cty.Value{"host": cty.StringVal("h"), "type": cty.StringVal("telnet")}, err: "connection type 'telnet' not supported"},
		{name: "winrm refused", attrs: map[string]cty.Value{"host": cty.StringVal("h"), "type": cty.StringVal("winrm")}, err: "tenet does not make winrm connections"},
		{name: "proxy refused", attrs: map[string]cty.Value{"host": cty.StringVal("h"), "proxy_host": cty.StringVal("p")}, err: "HTTP proxy"},
		{name: "bad platform", attrs: map[string]cty.Value{"host": cty.StringVal("h"), "target_platform": cty.StringVal("mac")}, err: "target_platform for provisioner has to be either unix or windows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sshconn.ParseInfo(connection(tt.attrs))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("info (-want +got):\n%s", diff)
			}
		})
	}
}

// lockedBuffer takes the writes of stdout's and stderr's copies in turn.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newKey makes a private key in OpenSSH's PEM form, and its public key.
func newKey(t *testing.T) (string, ssh.PublicKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(block)), sshPub
}

func startServer(t *testing.T, authorized ssh.PublicKey) *sshtest.Server {
	t.Helper()
	t.Setenv("SSH_AUTH_SOCK", "")
	s, err := sshtest.Start("tester", "secret", authorized)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func connect(t *testing.T, attrs map[string]cty.Value) (*sshconn.Conn, []string, error) {
	t.Helper()
	in, err := sshconn.ParseInfo(connection(attrs))
	if err != nil {
		t.Fatal(err)
	}
	c, err := sshconn.New(in)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var out []string
	ctx, cancel := context.WithTimeout(context.Background(), c.Timeout())
	defer cancel()
	err = c.ConnectRetrying(ctx, func(s string) { out = append(out, s) })
	return c, out, err
}

func TestConnectRunUpload(t *testing.T) {
	key, pub := newKey(t)
	s := startServer(t, pub)
	dir := t.TempDir()
	for _, tt := range []struct {
		name  string
		attrs map[string]cty.Value
		first string
	}{
		{"password", map[string]cty.Value{"password": cty.StringVal("secret")}, "Password: true\n  Private key: false"},
		{"private key, host key checked", map[string]cty.Value{"private_key": cty.StringVal(key), "host_key": cty.StringVal(string(ssh.MarshalAuthorizedKey(s.HostKey)))}, "Password: false\n  Private key: true\n  Certificate: false\n  SSH Agent: false\n  Checking Host Key: true"},
		{"through a bastion", map[string]cty.Value{"password": cty.StringVal("secret"), "bastion_host": cty.StringVal(s.Host)}, "Password: true"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			attrs := map[string]cty.Value{"host": cty.StringVal(s.Host), "port": cty.NumberIntVal(int64(s.Port)), "user": cty.StringVal("tester"), "agent": cty.False}
			for k, v := range tt.attrs {
				attrs[k] = v
			}
			c, out, err := connect(t, attrs)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) < 2 || !strings.HasPrefix(out[0], "Connecting to remote host via SSH...\n  Host: 127.0.0.1\n  User: tester\n  ") ||
				!strings.Contains(out[0], tt.first) || out[len(out)-1] != "Connected!" {
				t.Errorf("connection output = %q", out)
			}
			var stdout lockedBuffer
			if err := c.Run("echo out; echo err >&2", &stdout, &stdout); err != nil {
				t.Fatal(err)
			}
			if stdout.String() != "out\nerr\n" {
				t.Errorf("output = %q, want stdout and stderr together", stdout.String())
			}
			dst := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".sh")
			if err := c.UploadScript(dst, strings.NewReader("echo from script")); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(dst)
			if string(got) != "#!/bin/sh\necho from script" {
				t.Errorf("uploaded script = %q", got)
			}
			if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm()&0o111 == 0 {
				t.Errorf("uploaded script is not executable: %v", fi.Mode())
			}
			err = c.Run("exit 3", &stdout, &stdout)
			if err == nil || err.Error() != `error executing "exit 3": Process exited with status 3` {
				t.Errorf("error = %v", err)
			}
		})
	}
}

func TestUploadDir(t *testing.T) {
	s := startServer(t, nil)
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "sub"), 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(src, "sub", "b.txt"), []byte("b"), 0o644)
	c, _, err := connect(t, map[string]cty.Value{"host": cty.StringVal(s.Host), "port": cty.NumberIntVal(int64(s.Port)), "user": cty.StringVal("tester"), "password": cty.StringVal("secret"), "agent": cty.False})
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	// Without a trailing slash the directory itself is copied; with one,
	// its contents.
	if err := c.UploadDir(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := c.UploadDir(dst, src+"/"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(filepath.Base(src), "a.txt"), filepath.Join(filepath.Base(src), "sub", "b.txt"), "a.txt", filepath.Join("sub", "b.txt")} {
		if _, err := os.Stat(filepath.Join(dst, p)); err != nil {
			t.Errorf("%s not uploaded: %v", p, err)
		}
	}
}

// Connecting is retried until the timeout; the error names the last
// failure, as OpenTofu's does.
func TestConnectFailures(t *testing.T) {
	s := startServer(t, nil)
	base := map[string]cty.Value{"host": cty.StringVal(s.Host), "port": cty.NumberIntVal(int64(s.Port)), "user": cty.StringVal("tester"), "agent": cty.False, "timeout": cty.StringVal("1500ms")}
	with := func(k string, v cty.Value) map[string]cty.Value {
		m := map[string]cty.Value{k: v}
		for a, b := range base {
			if _, ok := m[a]; !ok {
				m[a] = b
			}
		}
		return m
	}
	_, other := newKey(t)
	tests := []struct {
		name  string
		attrs map[string]cty.Value
		want  string
	}{
		{"wrong password", with("password", cty.StringVal("nope")), "timeout - last error: SSH authentication failed (tester@" + s.Addr + "): ssh: handshake failed: ssh: unable to authenticate"},
		{"host key mismatch", with("host_key", cty.StringVal(string(ssh.MarshalAuthorizedKey(other)))), "knownhosts: key mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.attrs["password"] = cty.StringVal("nope")
			if tt.name == "host key mismatch" {
				tt.attrs["password"] = cty.StringVal("secret")
			}
			_, out, err := connect(t, tt.attrs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
			if len(out) < 2 {
				t.Errorf("connected %d times, want retries", len(out))
			}
		})
	}
}
