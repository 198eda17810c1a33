package sshconn

import (
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// OpenTofu's defaults for a connection block.
const (
	defaultUser       = "root"
	defaultPort       = 22
	defaultScriptPath = "/tmp/terraform_%RAND%.sh"
	defaultTimeout    = 5 * time.Minute
)

// Info is a connection block's value with the defaults applied.
type Info struct {
	Type           string
	User           string
	Password       string
	PrivateKey     string
	Certificate    string
	Host           string
	HostKey        string
	Port           int
	Agent          bool
	AgentIdentity  string
	ScriptPath     string
	TargetPlatform string
	Timeout        time.Duration

	BastionUser, BastionPassword, BastionPrivateKey, BastionCertificate string
	BastionHost, BastionHostKey                                         string
	BastionPort                                                         int

	ProxyHost string
}

// ParseInfo reads a connection value (of provisioners.ConnectionSchema's
// type) as OpenTofu reads it: user root, port 22, the script path
// /tmp/terraform_%RAND%.sh, a 5m timeout (also when the timeout does not
// parse), the agent when SSH_AUTH_SOCK is set and agent is not, the
// bastion's settings defaulting to the host's.
func ParseInfo(v cty.Value) (*Info, error) {
	in := &Info{}
	str := func(name string) string {
		a := v.GetAttr(name)
		if a.IsNull() || !a.IsKnown() {
			return ""
		}
		return a.AsString()
	}
	port := func(name string) (int, error) {
		a := v.GetAttr(name)
		if a.IsNull() {
			return 0, nil
		}
		bf := a.AsBigFloat()
		i, acc := bf.Int64()
		if acc != big.Exact || i < 0 || i > 65535 {
			return 0, fmt.Errorf("value must be a whole number, between 0 and 65535 inclusive")
		}
		return int(i), nil
	}
	var err error
	in.Type = str("type")
	in.User, in.Password, in.PrivateKey, in.Certificate = str("user"), str("password"), str("private_key"), str("certificate")
	in.Host, in.HostKey = str("host"), str("host_key")
	if in.Port, err = port("port"); err != nil {
		return nil, err
	}
	if a := v.GetAttr("agent"); !a.IsNull() {
		in.Agent = a.True()
	} else if os.Getenv("SSH_AUTH_SOCK") != "" {
		in.Agent = true
	}
	in.AgentIdentity = str("agent_identity")
	in.ScriptPath, in.TargetPlatform = str("script_path"), str("target_platform")
	in.BastionUser, in.BastionPassword, in.BastionPrivateKey, in.BastionCertificate = str("bastion_user"), str("bastion_password"), str("bastion_private_key"), str("bastion_certificate")
	in.BastionHost, in.BastionHostKey = str("bastion_host"), str("bastion_host_key")
	if in.BastionPort, err = port("bastion_port"); err != nil {
		return nil, err
	}
	in.ProxyHost = str("proxy_host")

	switch in.Type {
	case "", "ssh":
	case "winrm":
		return nil, errWinRM
	default:
		return nil, fmt.Errorf("connection type '%s' not supported", in.Type)
	}
	if in.User == "" {
		in.User = defaultUser
	}
	if in.Host == "" {
		return nil, errors.New("host for provisioner cannot be empty")
	}
	in.Host = ipFormat(in.Host)
	if in.Port == 0 {
		in.Port = defaultPort
	}
	switch in.TargetPlatform {
	case "":
		in.TargetPlatform = "unix"
	case "unix":
	case "windows":
		return nil, errWindows
	default:
		return nil, errors.New("target_platform for provisioner has to be either unix or windows")
	}
	if in.ScriptPath == "" {
		in.ScriptPath = defaultScriptPath
	}
	in.Timeout = defaultTimeout
	if t := str("timeout"); t != "" {
		if d, err := time.ParseDuration(t); err == nil {
			in.Timeout = d
		}
	}
	if in.ProxyHost != "" {
		return nil, errProxy
	}
	if in.BastionHost != "" {
		in.BastionHost = ipFormat(in.BastionHost)
		if in.BastionUser == "" {
			in.BastionUser = in.User
		}
		if in.BastionPassword == "" {
			in.BastionPassword = in.Password
		}
		if in.BastionPrivateKey == "" {
			in.BastionPrivateKey = in.PrivateKey
		}
		if in.BastionCertificate == "" {
			in.BastionCertificate = in.Certificate
		}
		if in.BastionPort == 0 {
			in.BastionPort = in.Port
		}
	}
	return in, nil
}

// ipFormat puts an IPv6 address in brackets, so that a port can follow.
func ipFormat(host string) string {
	ip := net.ParseIP(host)
	if ip == nil || ip.To4() != nil {
		return host
	}
	return "[" + host + "]"
}

func (in *Info) addr() string { return fmt.Sprintf("%s:%d", in.Host, in.Port) }

func (in *Info) bastionAddr() string { return fmt.Sprintf("%s:%d", in.BastionHost, in.BastionPort) }

// Unsupported reports, for a connection value whose arguments may still
// be unknown, the error ParseInfo will give for what tenet does not make
// (winrm, an HTTP proxy, a Windows target), so that validate and plan
// refuse it before anything is applied; nil when nothing known is refused.
func Unsupported(v cty.Value) error {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	known := func(name string) (string, bool) {
		a := v.GetAttr(name)
		if a.IsNull() || !a.IsKnown() {
			return "", false
		}
		return a.AsString(), true
	}
	if t, ok := known("type"); ok && t == "winrm" {
		return errWinRM
	}
	if _, ok := known("proxy_host"); ok {
		return errProxy
	}
	if p, ok := known("target_platform"); ok && p == "windows" {
		return errWindows
	}
	return nil
}

var (
	errWinRM   = errors.New("tenet does not make winrm connections; use an ssh connection, or run the step with local-exec")
	errProxy   = errors.New("tenet does not connect through an HTTP proxy (proxy_host); connect directly or through a bastion host")
	errWindows = errors.New("tenet does not provision Windows hosts over ssh (target_platform = \"windows\"); run the step with local-exec")
)
