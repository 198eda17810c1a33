package plugin

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"

	goplugin "github.com/hashicorp/go-plugin"
)

// reattachEntry is one provider in TF_REATTACH_PROVIDERS, as the debug
// mode of the provider SDKs prints it.
type reattachEntry struct {
	Protocol        string
	ProtocolVersion int
	Pid             int
	Test            bool
	Addr            struct {
		Network string
		String  string
	}
}

// ParseReattachProviders reads the TF_REATTACH_PROVIDERS value: a JSON
// object from provider source address to the address of a provider
// already running in debug mode. Keys are returned as written; the
// caller matches them against its own provider addresses.
func ParseReattachProviders(s string) (map[string]*goplugin.ReattachConfig, error) {
	var raw map[string]reattachEntry
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return nil, fmt.Errorf("TF_REATTACH_PROVIDERS is not valid JSON: %w", err)
	}
	out := make(map[string]*goplugin.ReattachConfig, len(raw))
	for name, e := range raw {
		if e.Protocol != "" && !strings.EqualFold(e.Protocol, string(goplugin.ProtocolGRPC)) {
			return nil, fmt.Errorf("TF_REATTACH_PROVIDERS: provider %q uses protocol %q; only grpc is supported", name, e.Protocol)
		}
		var addr net.Addr
		switch e.Addr.Network {
		case "unix":
			addr = &net.UnixAddr{Name: e.Addr.String, Net: "unix"}
		case "tcp":
			a, err := net.ResolveTCPAddr("tcp", e.Addr.String)
			if err != nil {
				return nil, fmt.Errorf("TF_REATTACH_PROVIDERS: provider %q: invalid address %q: %w", name, e.Addr.String, err)
			}
			addr = a
		default:
			return nil, fmt.Errorf("TF_REATTACH_PROVIDERS: provider %q: unsupported network %q; use unix or tcp", name, e.Addr.Network)
		}
		if e.Addr.String == "" {
			return nil, fmt.Errorf("TF_REATTACH_PROVIDERS: provider %q has no address", name)
		}
		version := e.ProtocolVersion
		if version == 0 {
			version = 5 // debug servers of the protocol 5 era left it out
		}
		if version != 5 && version != 6 {
			return nil, fmt.Errorf("TF_REATTACH_PROVIDERS: provider %q speaks protocol %d; tenet supports 5 and 6", name, version)
		}
		out[name] = &goplugin.ReattachConfig{
			Protocol:        goplugin.ProtocolGRPC,
			ProtocolVersion: version,
			Addr:            addr,
			Pid:             e.Pid,
			Test:            e.Test,
		}
	}
	return out, nil
}
