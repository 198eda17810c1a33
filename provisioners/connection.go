package provisioners

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
)

// ConnectionSchema is every argument a `connection` block may have, for
// any connection type: ssh's, winrm's and the common ones. A block is
// checked against it before its type is known, so a misspelt argument is
// caught for every provisioner that reads the connection; each type
// checks its own arguments only when it connects. host is required.
var ConnectionSchema = &providers.Block{Attributes: connectionAttrs()}

func connectionAttrs() map[string]*providers.Attribute {
	attrs := map[string]*providers.Attribute{
		"host": {Type: cty.String, Required: true},
	}
	optional := map[string]cty.Type{
		// Both types.
		"type": cty.String, "user": cty.String, "password": cty.String,
		"port": cty.Number, "timeout": cty.String, "script_path": cty.String,
		// ssh.
		"target_platform": cty.String, "private_key": cty.String, "certificate": cty.String,
		"host_key": cty.String, "agent": cty.Bool, "agent_identity": cty.String,
		"proxy_scheme": cty.String, "proxy_host": cty.String, "proxy_port": cty.Number,
		"proxy_user_name": cty.String, "proxy_user_password": cty.String,
		"bastion_host": cty.String, "bastion_host_key": cty.String, "bastion_port": cty.Number,
		"bastion_user": cty.String, "bastion_password": cty.String,
		"bastion_private_key": cty.String, "bastion_certificate": cty.String,
		// winrm.
		"https": cty.Bool, "insecure": cty.Bool, "cacert": cty.String, "use_ntlm": cty.Bool,
	}
	for name, ty := range optional {
		attrs[name] = &providers.Attribute{Type: ty, Optional: true}
	}
	return attrs
}
