package plugin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/tenetplan/tenet/providers"
)

// The handshake every Terraform-protocol provider expects. The cookie is
// a protocol constant, not a secret: it only keeps a provider started by
// hand from waiting for a client that never comes. ProtocolVersion is
// what a plugin that does not negotiate is assumed to speak; 4 is the
// pre-gRPC protocol, which tenet does not support.
var handshake = goplugin.HandshakeConfig{
	ProtocolVersion:  4,
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// maxMessageSize matches what provider servers accept; schemas of large
// providers exceed gRPC's 4 MiB default.
const maxMessageSize = 256 << 20

// Config says which plugin to drive. Set Path to launch an executable, or
// Reattach to attach to one already running (TF_REATTACH_PROVIDERS).
type Config struct {
	// Name identifies the provider in messages, e.g.
	// "registry.opentofu.org/hashicorp/time".
	Name string
	// Path is the provider executable; Args are passed to it.
	Path string
	Args []string
	// Dir is the plugin's working directory ("" is tenet's own).
	Dir string
	// Env is added to the environment the plugin starts with.
	Env []string
	// Reattach attaches to a running plugin instead of launching one.
	// Close then leaves the process running.
	Reattach *goplugin.ReattachConfig
	// DisableAutoMTLS skips mutual TLS on the plugin's socket. It saves
	// about 35 ms per launch but lets other local users talk to the
	// plugin; leave it off unless the socket directory is private.
	DisableAutoMTLS bool
	// StartTimeout bounds the launch and handshake (default 1 minute).
	StartTimeout time.Duration
	// StopTimeout is how long an interrupted plugin gets to answer
	// StopProvider before it is killed (default 10 seconds).
	StopTimeout time.Duration
	// TerraformVersion is the core version ConfigureProvider reports to
	// the provider; some providers gate behaviour on it.
	TerraformVersion string
	// LookupEnv reads tenet's own environment (default os.LookupEnv);
	// tests replace it.
	LookupEnv func(string) (string, bool)
	// Environ is tenet's own environment (default os.Environ).
	Environ func() []string
	// CachedSchema is this provider's schema from an earlier process.
	// When it says GetProviderSchemaOptional, the client uses it instead
	// of asking the new process; otherwise it is ignored, because some
	// providers set themselves up in GetProviderSchema.
	CachedSchema *providers.GetProviderSchemaResponse
}

// Client drives one provider plugin process through providers.Interface.
// It is safe for concurrent use.
type Client struct {
	cfg   Config
	name  string
	pc    *goplugin.Client
	conn  *grpc.ClientConn
	proto *protocol
	tail  *tailBuffer
	logW  io.Closer // TF_LOG_PATH file, when opened

	schemaMu sync.Mutex
	schema   *providers.GetProviderSchemaResponse

	closeOnce sync.Once
	closeErr  error
	stopping  sync.Once
}

var _ providers.Interface = (*Client)(nil)

// New launches (or attaches to) the plugin and completes the handshake.
// The engine starts one Client per provider configuration and closes it
// when done; the returned error says what went wrong in terms a user can
// act on.
func New(cfg Config) (*Client, error) {
	protos, err := loadProtocols()
	if err != nil {
		return nil, fmt.Errorf("tenet was built without the provider plugin protocol: %w", err)
	}
	if cfg.LookupEnv == nil {
		cfg.LookupEnv = os.LookupEnv
	}
	if cfg.Environ == nil {
		cfg.Environ = os.Environ
	}
	if cfg.StopTimeout == 0 {
		cfg.StopTimeout = 10 * time.Second
	}
	c := &Client{cfg: cfg, name: cfg.Name, tail: &tailBuffer{max: 64 << 10}}
	if s := cfg.CachedSchema; s != nil && s.GetProviderSchemaOptional && !s.Diagnostics.HasErrors() {
		c.schema = s
	}
	if c.name == "" {
		c.name = cfg.Path
	}

	logger, stderr, closer, err := pluginLogging(cfg.LookupEnv)
	if err != nil {
		return nil, err
	}
	c.logW = closer
	pcfg := &goplugin.ClientConfig{
		HandshakeConfig: handshake,
		VersionedPlugins: map[int]goplugin.PluginSet{
			5: {"provider": grpcPlugin{}},
			6: {"provider": grpcPlugin{}},
		},
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Logger:           logger,
		Stderr:           io.MultiWriter(c.tail, stderr),
		StartTimeout:     cfg.StartTimeout,
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(maxMessageSize), grpc.MaxCallSendMsgSize(maxMessageSize))},
	}
	if cfg.Reattach != nil {
		pcfg.Reattach = cfg.Reattach
		// Reattaching skips version negotiation, and with it the lookup
		// in VersionedPlugins.
		pcfg.Plugins = goplugin.PluginSet{"provider": grpcPlugin{}}
	} else {
		if cfg.Path == "" {
			return nil, errors.New("no provider executable given")
		}
		cmd := exec.Command(cfg.Path, cfg.Args...)
		cmd.Dir = cfg.Dir
		cmd.Env = append(pluginEnv(cfg.Environ(), cfg.LookupEnv), cfg.Env...)
		pcfg.Cmd = cmd
		// We pass the whole environment ourselves: go-plugin would append
		// the host's after ours, and the host's would win.
		pcfg.SkipHostEnv = true
		pcfg.AutoMTLS = !cfg.DisableAutoMTLS
		// Managed, so that KillAll reaches it on tenet's own way out.
		pcfg.Managed = true
	}
	c.pc = goplugin.NewClient(pcfg)

	rpcClient, err := c.pc.Client()
	if err != nil {
		c.pc.Kill()
		c.closeLog()
		return nil, c.startError(err)
	}
	raw, err := rpcClient.Dispense("provider")
	if err != nil {
		c.pc.Kill()
		c.closeLog()
		return nil, c.startError(err)
	}
	c.conn = raw.(*grpc.ClientConn)
	version := c.pc.NegotiatedVersion()
	if cfg.Reattach != nil && version == 0 {
		version = cfg.Reattach.ProtocolVersion
		if version == 0 {
			version = 5 // an old reattach config without a version meant 5
		}
	}
	p, ok := protos[version]
	if !ok {
		c.pc.Kill()
		c.closeLog()
		return nil, fmt.Errorf("provider %s speaks plugin protocol %d; tenet supports protocols 5 and 6. Use a newer version of the provider", c.name, version)
	}
	c.proto = p
	return c, nil
}

// ProtocolVersion is the negotiated major protocol version, 5 or 6.
func (c *Client) ProtocolVersion() int { return c.proto.version }

func (c *Client) startError(err error) error {
	msg := err.Error()
	var detail string
	switch {
	case strings.Contains(strings.ToLower(msg), "incompatible api version"):
		detail = "it speaks only an unsupported plugin protocol (tenet supports protocols 5 and 6). Use a newer version of the provider"
	case strings.Contains(msg, "exited before we could connect"), strings.Contains(msg, "Failed to read any lines"):
		detail = "the plugin exited before completing the handshake"
	case strings.Contains(msg, "timeout"):
		detail = "the plugin did not complete the handshake in time"
	default:
		detail = msg
	}
	if out := c.tail.String(); out != "" {
		return fmt.Errorf("failed to start provider %s: %s.\nThe plugin's output was:\n%s", c.name, detail, strings.TrimSpace(out))
	}
	return fmt.Errorf("failed to start provider %s: %s", c.name, detail)
}

// Close shuts the plugin down gracefully (it gets two seconds) and then
// kills it. A reattached plugin is left running.
func (c *Client) Close(ctx context.Context) error {
	c.closeOnce.Do(func() {
		if c.cfg.Reattach != nil {
			// Not the go-plugin client's Close: that tells the server
			// to shut down, and a reattached provider belongs to whoever
			// started it.
			c.closeErr = c.conn.Close()
		} else {
			c.pc.Kill()
		}
		c.closeLog()
	})
	return c.closeErr
}

func (c *Client) closeLog() {
	if c.logW != nil {
		c.logW.Close()
	}
}

// KillAll shuts down every plugin this process launched and has not
// closed. tenet calls it on its way out (an interrupt included) so no
// plugin outlives it.
func KillAll() { goplugin.CleanupClients() }

// exited reports whether the plugin process has gone, giving a dying
// process a moment so its last words reach the stderr buffer.
func (c *Client) exited() bool {
	if c.cfg.Reattach != nil {
		return false
	}
	for i := 0; i < 50; i++ {
		if c.pc.Exited() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// grpcPlugin hands go-plugin's connection to us as it is.
type grpcPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (grpcPlugin) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error {
	return errors.New("tenet only drives provider plugins; it does not serve them")
}

func (grpcPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return conn, nil
}

// tailBuffer keeps the last max bytes written to it: enough of a
// plugin's stderr to quote a panic without holding all of its logs.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

// Write appends p and, once the buffer holds twice max, drops all but
// the last max bytes: the copying is paid once per max bytes written,
// not once per line, which matters when provider logs are on.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	t.mu.Unlock()
	return len(p), nil
}

// tail is the last max bytes written; the caller holds t.mu.
func (t *tailBuffer) tail() []byte {
	if len(t.buf) > t.max {
		return t.buf[len(t.buf)-t.max:]
	}
	return t.buf
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.tail())
}

// panicOutput is the part of the plugin's stderr from its Go panic (or
// fatal runtime error) on, or "" when there is none.
func (t *tailBuffer) panicOutput() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	buf := t.tail()
	for _, marker := range []string{"panic: ", "fatal error: "} {
		if i := bytes.Index(buf, []byte(marker)); i >= 0 {
			return strings.TrimSpace(string(buf[i:]))
		}
	}
	return ""
}
